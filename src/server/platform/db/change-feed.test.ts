import { randomBytes } from "node:crypto";
import pg from "pg";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FEED_APPLICATION_NAME } from "./change-feed.ts";
import { type Database, openDatabase } from "./connect.ts";
import { migrateToLatest } from "./migrate.ts";

/**
 * The PostgreSQL change feed (docs/decisions/0014-caches-across-replicas.md): another connection's
 * commits move this process's data version; work that changed nothing or was rolled back does not;
 * while the listening connection is lost, the version never repeats (caches bypassed) until the
 * feed listens again. Polls up to a bound; no timing is asserted.
 */
const url = process.env.TEST_DATABASE_URL;
const BOUND_MS = 5000;

async function until(check: () => boolean | Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + BOUND_MS;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return false;
}

describe.runIf(url)("change feed (postgres)", () => {
  let schema: string;
  let database: Database;
  let other: pg.Client;

  beforeEach(async () => {
    schema = `t_${randomBytes(6).toString("hex")}`;
    other = new pg.Client({ connectionString: url });
    await other.connect();
    await other.query(`create schema ${schema}`);
    database = openDatabase({ kind: "postgres", url: url!, searchPath: schema });
    await migrateToLatest(database.db);
    expect(database.versionCoversOtherProcesses).toBe(false);
    await database.watchOtherProcesses();
    expect(database.versionCoversOtherProcesses).toBe(true);
    await other.query(`set search_path = ${schema}`);
  });
  afterEach(async () => {
    await database.close();
    await other.query(`drop schema if exists ${schema} cascade`);
    await other.end();
  });

  it("moves on another connection's commit, not on its rolled-back or empty statements", async () => {
    let before = database.dataVersion();
    await other.query("insert into counters (name, value) values ('feed_test', 1)");
    expect(await until(() => database.dataVersion() !== before)).toBe(true);

    // Nothing changed: an update matching no row, a rolled-back insert. A committed write after
    // them is the marker: once it shows, any notification of the first two would have shown too.
    await until(async () => {
      const v = database.dataVersion();
      await new Promise((resolve) => setTimeout(resolve, 50));
      return database.dataVersion() === v;
    });
    before = database.dataVersion();
    await other.query("update counters set value = 2 where name = 'no_such_counter'");
    await other.query("begin");
    await other.query("insert into counters (name, value) values ('rolled_back', 1)");
    await other.query("rollback");
    await sql`select 1`.execute(database.db); // a round trip on this side: notifications sent before it have arrived
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(database.dataVersion()).toBe(before);
  });

  it("bypasses caches while its connection is lost, and listens again by itself", async () => {
    const { rows } = await other.query<{ pid: number }>(`select pid from pg_stat_activity where application_name = $1`, [`${FEED_APPLICATION_NAME}:${schema}`]);
    expect(rows).toHaveLength(1);
    await other.query("select pg_terminate_backend($1)", [rows[0]!.pid]);
    expect(await until(() => !database.versionCoversOtherProcesses)).toBe(true);
    // Down: no two reads share a version, so nothing cached can be served.
    expect(database.dataVersion()).not.toBe(database.dataVersion());
    // It listens again by itself, with a version no earlier cache entry holds.
    expect(await until(() => database.versionCoversOtherProcesses)).toBe(true);
    const before = database.dataVersion();
    await other.query("insert into counters (name, value) values ('after_reconnect', 1)");
    expect(await until(() => database.dataVersion() !== before)).toBe(true);
  });
});
