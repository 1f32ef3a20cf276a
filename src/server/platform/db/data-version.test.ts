import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { openDatabase } from "./connect.ts";
import { migrateToLatest } from "./migrate.ts";

describe.each(testDatabaseKinds)("Database.dataVersion (%s)", (kind) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext(kind);
  });
  afterEach(async () => {
    await ctx.close();
  });

  it("moves on every statement that changed rows: builder, raw SQL, inside a transaction", async () => {
    const { db } = ctx.database;
    const versions = [ctx.database.dataVersion()];
    await db.insertInto("counters").values({ name: "data_version_test", value: 1 }).execute();
    versions.push(ctx.database.dataVersion());
    await db.transaction().execute(async (trx) => {
      await trx.updateTable("counters").set({ value: 2 }).where("name", "=", "data_version_test").execute();
    });
    versions.push(ctx.database.dataVersion());
    await sql`delete from counters where name = ${"data_version_test"}`.execute(db);
    versions.push(ctx.database.dataVersion());
    expect(new Set(versions).size).toBe(4);
  });

  it("stays put on reads and on writes that matched nothing", async () => {
    const { db } = ctx.database;
    // On PostgreSQL the version also moves when the change feed reconnects (a heartbeat missed on
    // a loaded machine: "down:N", then a new epoch). Such a try says nothing and is taken again.
    const feedPart = (version: string) => version.split(":")[0];
    for (let attempt = 1; ; attempt++) {
      const before = ctx.database.dataVersion();
      await db.selectFrom("counters").selectAll().execute();
      await db.updateTable("counters").set({ value: 5 }).where("name", "=", "no_such_counter").execute();
      await db.deleteFrom("counters").where("name", "=", "no_such_counter").execute();
      const after = ctx.database.dataVersion();
      const feedMoved = kind === "postgres" && (feedPart(before) === "down" || feedPart(before) !== feedPart(after));
      if (feedMoved && attempt < 5) continue;
      expect(after).toBe(before);
      return;
    }
  });
});

describe("Database.dataVersion on a SQLite file", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "hki-data-version-"));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("moves when another process or connection commits to the same file", async () => {
    const path = join(dir, "admin.sqlite");
    const database = openDatabase({ kind: "sqlite", path });
    try {
      await migrateToLatest(database.db);
      expect(database.versionCoversOtherProcesses).toBe(true);
      const before = database.dataVersion();
      const other = new SQLite(path);
      other.prepare("insert into counters (name, value) values (?, ?)").run("written_elsewhere", 1);
      other.close();
      expect(database.dataVersion()).not.toBe(before);
    } finally {
      await database.close();
    }
  });
  it("sharedDataVersion: this process's writes at once, another connection's commit from the next turn of the event loop", async () => {
    const path = join(dir, "admin.sqlite");
    const database = openDatabase({ kind: "sqlite", path });
    try {
      await migrateToLatest(database.db);
      await new Promise((resolve) => setImmediate(resolve));
      const before = database.sharedDataVersion();
      const other = new SQLite(path);
      other.prepare("insert into counters (name, value) values (?, ?)").run("written_elsewhere", 1);
      other.close();
      // The reads begun in this turn share the lookup made at its start (decision 0021)…
      expect(database.sharedDataVersion()).toBe(before);
      expect(database.dataVersion()).not.toBe(before);
      // …and the next turn looks again.
      await new Promise((resolve) => setImmediate(resolve));
      const next = database.sharedDataVersion();
      expect(next).not.toBe(before);
      // This process's own write moves it at once, within the same turn.
      database.sqlite!.prepare("update counters set value = 2 where name = ?").run("written_elsewhere");
      expect(database.sharedDataVersion()).not.toBe(next);
    } finally {
      await database.close();
    }
  });
});
