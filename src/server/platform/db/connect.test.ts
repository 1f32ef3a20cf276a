import { mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sql } from "kysely";
import { PANEL_APPLICATION_NAME, openDatabase } from "./connect.ts";

describe("openDatabase (SQLite)", () => {
  it("creates the file on a first start", async () => {
    const dir = mkdtempSync(join(tmpdir(), "db-"));
    const database = openDatabase({ kind: "sqlite", path: join(dir, "nested/admin.sqlite") });
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses to start empty when the database vanished but its journal files remain", () => {
    const dir = mkdtempSync(join(tmpdir(), "db-"));
    const path = join(dir, "admin.sqlite");
    writeFileSync(`${path}-wal`, "");
    expect(() => openDatabase({ kind: "sqlite", path })).toThrow(/missing but its journal files are present/);
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps a statement's journal in memory: a write of many rows inside a transaction opens no temporary file (decision 0023)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "db-"));
    const database = openDatabase({ kind: "sqlite", path: join(dir, "admin.sqlite") });
    try {
      const sqlite = database.sqlite!;
      sqlite.exec("create table journal_probe (id integer primary key, body text not null unique)");
      const insert = sqlite.prepare("insert into journal_probe (body) values (?)");
      sqlite.transaction(() => {
        for (let i = 0; i < 5000; i++) insert.run(`${i}`.padStart(6, "0") + "x".repeat(200));
      })();
      // SQLite's temporary files are unlinked when opened, so they show only among the open descriptors.
      const openTemporaryFiles = () =>
        readdirSync("/proc/self/fd").filter((fd) => {
          try {
            return readlinkSync(`/proc/self/fd/${fd}`).includes("etilqs");
          } catch {
            return false;
          }
        }).length;
      let rowsSeen = 0;
      let mostTemporaryFiles = 0;
      sqlite.function("count_temporary_files", (body: unknown) => {
        if (++rowsSeen % 250 === 0) mostTemporaryFiles = Math.max(mostTemporaryFiles, openTemporaryFiles());
        return body;
      });
      // ~1 MB of changed pages, far past the 64 KiB SQLite keeps in memory before spilling to a file.
      sqlite.transaction(() => sqlite.prepare("update journal_probe set body = count_temporary_files(body) || 'y'").run())();
      expect(rowsSeen).toBe(5000);
      expect(mostTemporaryFiles).toBe(0);
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a file that is not a database", () => {
    const dir = mkdtempSync(join(tmpdir(), "db-"));
    const path = join(dir, "admin.sqlite");
    writeFileSync(path, "this is not a database ".repeat(100));
    expect(() => openDatabase({ kind: "sqlite", path })).toThrow(/not a database/);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("openDatabase (PostgreSQL)", () => {
  it("opens at most DATABASE_POOL_MAX connections, named after the panel and its schema in pg_stat_activity", async () => {
    const database = openDatabase({ kind: "postgres", url: process.env.TEST_DATABASE_URL!, poolMax: 2 });
    try {
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          sql<{ pid: number; name: string; schema: string }>`select pg_backend_pid() as pid, current_setting('application_name') as name, current_schema() as schema from pg_sleep(0.1)`.execute(
            database.db,
          ),
        ),
      );
      const rows = answers.map((answer) => answer.rows[0]!);
      expect(new Set(rows.map((row) => row.pid)).size).toBe(2);
      expect(new Set(rows.map((row) => row.name))).toEqual(new Set([`${PANEL_APPLICATION_NAME}:${rows[0]!.schema}`]));
    } finally {
      await database.close();
    }
  });
});
