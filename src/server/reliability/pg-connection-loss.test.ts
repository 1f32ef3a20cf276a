import pg from "pg";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext } from "../testing/test-app.ts";

/**
 * PostgreSQL backends killed under the app (pg_terminate_backend, as a failover or an admin would):
 * the process survives, requests caught in the cut answer 503, and the next ones succeed at once.
 * A full PostgreSQL restart is in `npm run test:faults`.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)("PostgreSQL connection loss", () => {
  let ctx: TestContext;
  let headers: Record<string, string>;
  let admin: pg.Client;
  beforeAll(async () => {
    ctx = await createTestContext("postgres", { seedDemo: true });
    headers = { ...(await ctx.createUser({ email: "pg-admin@hki.global" })).headers, "content-type": "application/json" };
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await ctx.close();
  });

  /** The backend pids of this app's pool (not other tests' backends in the same server). */
  async function poolPids(): Promise<number[]> {
    const rows = await Promise.all(Array.from({ length: 10 }, () => sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.05)`.execute(ctx.database.db)));
    return [...new Set(rows.map((r) => r.rows[0]!.pid))];
  }

  let n = 0;
  function traffic(): Promise<number> {
    n += 1;
    const write = n % 2 === 0;
    return Promise.resolve(ctx.app.request("/api/admin/settings", write ? { method: "PUT", headers, body: JSON.stringify({ announcement_message: `pg ${n}` }) } : { headers })).then(async (res) => {
      await res.text();
      return res.status;
    });
  }

  it("answers 503 only for requests caught in the cut, and succeeds again at once", async () => {
    const statuses: number[] = [];
    for (let round = 0; round < 3; round++) {
      const pids = await poolPids();
      expect(pids.length).toBeGreaterThan(0);
      // Traffic in flight while the backends are terminated.
      const inFlight = Array.from({ length: 20 }, () => traffic());
      await admin.query("select pg_terminate_backend(pid) from unnest($1::int[]) as pid", [pids]);
      const during = await Promise.all([...inFlight, ...Array.from({ length: 20 }, () => traffic())]);
      statuses.push(...during);
      for (const status of during) expect([200, 503]).toContain(status);
      // Recovery: the very next requests succeed.
      const after = await Promise.all(Array.from({ length: 10 }, () => traffic()));
      expect(after).toEqual(Array(10).fill(200));
    }
    console.log(`[pg-loss] ${statuses.filter((s) => s === 503).length} of ${statuses.length} requests in the cuts answered 503, the rest 200`);
  }, 60_000);
});
