import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "./connect.ts";
import { WAL_CHECKPOINT_INTERVAL_MS } from "./wal-checkpointer.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done` holds, checking every 20 ms, for at most `ms`. */
async function eventually(done: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(20)) if (done()) return true;
  return done();
}

describe("WAL checkpoints off the request path (docs/decisions/0020-wal-checkpoints-off-the-request-path.md)", () => {
  let dir: string;
  let path: string;
  let database: Database;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "wal-"));
    path = join(dir, "admin.sqlite");
    database = openDatabase({ kind: "sqlite", path });
    await sql`create table notes (id integer primary key, body text not null)`.execute(database.db);
  });
  afterEach(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** 600 commits of ~3 kB each: over 1,000 log pages, where SQLite would checkpoint inside a commit by default. */
  async function commitMany(): Promise<void> {
    for (let i = 0; i < 600; i++) {
      await database.db.transaction().execute(async (trx) => {
        await sql`insert into notes (body) values (${"x".repeat(3000)})`.execute(trx);
      });
    }
  }

  it("no commit of the serving connection checkpoints, and the worker copies the log into the file while the server runs", async () => {
    expect(database.sqlite!.pragma("wal_autocheckpoint", { simple: true })).toBe(0);
    const fileBefore = statSync(path).size;
    await commitMany();
    // ~1.8 MB committed: in the file within a few of the worker's ticks, with the connection still open.
    const copied = await eventually(() => statSync(path).size - fileBefore > 1_500_000, 40 * WAL_CHECKPOINT_INTERVAL_MS);
    expect(copied, `database file grew by ${statSync(path).size - fileBefore} bytes`).toBe(true);
    const rows = await sql<{ n: number }>`select count(*) as n from notes`.execute(database.db);
    expect(rows.rows[0]!.n).toBe(600);
  });

  it("an idle database's data version stays put across the worker's ticks, so the read caches keep their answers", async () => {
    await commitMany();
    await sleep(5 * WAL_CHECKPOINT_INTERVAL_MS);
    const settled = database.dataVersion();
    await sleep(5 * WAL_CHECKPOINT_INTERVAL_MS);
    expect(database.dataVersion()).toBe(settled);
  });

  it("a commit after the log was copied back reuses the log from its start, so the log file stays bounded", async () => {
    await commitMany();
    await sleep(5 * WAL_CHECKPOINT_INTERVAL_MS);
    const logAfterFirst = statSync(`${path}-wal`).size;
    await commitMany();
    await sleep(5 * WAL_CHECKPOINT_INTERVAL_MS);
    await commitMany();
    // Three times the writes, yet the log is no longer than after the first: it was restarted, not appended to.
    expect(statSync(`${path}-wal`).size).toBeLessThanOrEqual(logAfterFirst * 1.2);
  });

  it("a script that opens and closes the database goes on after the close (the worker is waited for, not left to end the process)", () => {
    // The bench's tools and the CLI open a database, read, close it and carry on; with the worker
    // not held while it stopped, node found nothing left to wait for and ended the process there.
    const connect = pathToFileURL(join(import.meta.dirname, "connect.ts")).href;
    const script = `
      const { openDatabase } = await import(${JSON.stringify(connect)});
      for (let i = 0; i < 3; i++) {
        const database = openDatabase({ kind: "sqlite", path: ${JSON.stringify(path)} });
        await database.close();
        console.log("after close " + i);
      }`;
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 30_000 });
    expect(child.stderr).toBe("");
    expect(child.stdout.trim().split("\n")).toEqual(["after close 0", "after close 1", "after close 2"]);
  });
});
