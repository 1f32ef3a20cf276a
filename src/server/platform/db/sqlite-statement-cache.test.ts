import SQLite from "better-sqlite3";
import { Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { RetryingSqliteDialect, STATEMENT_CACHE_SIZE } from "./sqlite-driver.ts";

/** The driver reuses prepared statements per SQL text (preparing is much of a small read's cost); reuse must never change an answer. */
describe("SQLite prepared-statement cache", () => {
  function open() {
    const sqlite = new SQLite(":memory:");
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- ad hoc tables
    return { sqlite, db: new Kysely<any>({ dialect: new RetryingSqliteDialect(sqlite) }) };
  }

  it("answers with the current parameters and sees schema changes on a reused statement", async () => {
    const { db } = open();
    await sql`create table t (id integer primary key, name text)`.execute(db);
    for (const [id, name] of [
      [1, "a"],
      [2, "b"],
    ] as const)
      await db.insertInto("t").values({ id, name }).execute();
    const byId = (id: number) => db.selectFrom("t").selectAll().where("id", "=", id).executeTakeFirst();
    expect(await byId(1)).toEqual({ id: 1, name: "a" });
    expect(await byId(2)).toEqual({ id: 2, name: "b" });
    await sql`alter table t add column extra text default 'x'`.execute(db);
    expect(await byId(2)).toEqual({ id: 2, name: "b", extra: "x" });
    await db.destroy();
  });

  it("stays correct past its bound (more distinct statements than it keeps)", async () => {
    const { db } = open();
    await sql`create table t (id integer primary key)`.execute(db);
    for (let i = 1; i <= STATEMENT_CACHE_SIZE + 20; i++) {
      // IN lists of every length: each one a distinct SQL text.
      const ids = Array.from({ length: i }, (_, k) => k + 1);
      await db.insertInto("t").values({ id: i }).execute();
      const rows = await db.selectFrom("t").select("id").where("id", "in", ids).execute();
      expect(rows.length).toBe(i);
    }
    const first = await db.selectFrom("t").select("id").where("id", "in", [1]).execute();
    expect(first).toEqual([{ id: 1 }]);
    await db.destroy();
  });
});
