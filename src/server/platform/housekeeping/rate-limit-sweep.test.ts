import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JobWorker } from "../jobs/job-worker.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { RATE_LIMIT_SWEEP_CHUNK, RATE_LIMIT_SWEEP_JOB, registerRateLimitSweep } from "./rate-limit-sweep.ts";
import { RATE_LIMIT_MAX_WINDOW_MS } from "../http/rate-limiter.ts";

/** Issue 15 finding 8: rate_limits rows used to live for ever. */
describe.each(testDatabaseKinds)("rate_limits sweep (%s)", (kind) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext(kind);
  });
  afterEach(async () => {
    await ctx.close();
  });

  it("deletes every counter whose window is over, in chunks, by a scheduled job; live counters stay", async () => {
    const now = ctx.clock.now().getTime();
    const expired = 2 * RATE_LIMIT_SWEEP_CHUNK + 500;
    const rows = Array.from({ length: expired }, (_, i) => ({ bucket: `signin-ip:old-${i}`, window_started_at: now - RATE_LIMIT_MAX_WINDOW_MS - 1 - i, count: 3 }));
    for (let i = 0; i < rows.length; i += 500)
      await ctx.database.db
        .insertInto("rate_limits")
        .values(rows.slice(i, i + 500))
        .execute();
    await ctx.deps.limiter.hit("signin-ip:live", { limit: 60, windowMs: 15 * 60_000 });
    await ctx.database.db
      .insertInto("rate_limits")
      .values({ bucket: "signin-acct:recent", window_started_at: now - RATE_LIMIT_MAX_WINDOW_MS + 60_000, count: 9 })
      .execute();
    await ctx.database.db
      .insertInto("error_log_drops")
      .values([
        { hour: "2026-11-01T00", level: "warning", count: 5 },
        { hour: "2026-11-22T11", level: "warning", count: 2 },
      ])
      .execute();

    const worker = new JobWorker(ctx.database, ctx.clock);
    registerRateLimitSweep(worker, ctx.deps);
    await worker.enqueueDueSchedules();
    expect(await worker.runOnce()).toBe(true);
    const job = await ctx.database.db.selectFrom("jobs").selectAll().where("kind", "=", RATE_LIMIT_SWEEP_JOB).executeTakeFirstOrThrow();
    expect(job.status).toBe("completed");
    expect(JSON.parse(job.result!)).toEqual({ deleted: expired, dropHours: 1 });
    // Progress is reported after every chunk (their sizes adapt to the machine): the last one is the total.
    expect(JSON.parse(job.progress!)).toEqual({ deleted: expired });
    const left = await ctx.database.db.selectFrom("rate_limits").select("bucket").orderBy("bucket").execute();
    expect(left.map((r) => r.bucket)).toEqual(["signin-acct:recent", "signin-ip:live"]);
    expect(await ctx.database.db.selectFrom("error_log_drops").select("hour").execute()).toEqual([{ hour: "2026-11-22T11" }]);
    // Once per period, whatever the number of processes: the same slot is not queued twice.
    await worker.enqueueDueSchedules();
    expect(await worker.runOnce()).toBe(false);
  });

  it("refuses a rule whose window the sweep would cut short", async () => {
    await expect(ctx.deps.limiter.hit("x:y", { limit: 1, windowMs: RATE_LIMIT_MAX_WINDOW_MS + 1 })).rejects.toThrow(/at most/);
  });
});
