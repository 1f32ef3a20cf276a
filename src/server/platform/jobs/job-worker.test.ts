import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { JobQueue } from "./job-queue.ts";
import { inJobSlice } from "./job-slice.ts";
import { JobWorker } from "./job-worker.ts";

describe.each(testDatabaseKinds)("background jobs (%s)", (kind) => {
  let ctx: TestContext;
  let queue: JobQueue;
  beforeEach(async () => {
    ctx = await createTestContext(kind);
    queue = new JobQueue(ctx.database, ctx.clock);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const worker = (options = {}) => new JobWorker(ctx.database, ctx.clock, { leaseMs: 30_000, retryBaseMs: 1_000, ...options });

  it("runs a job once even when two workers reach for it at the same time", async () => {
    let runs = 0;
    const [a, b] = [worker(), worker()];
    for (const w of [a, b]) w.register("count", async () => ({ run: ++runs }));
    const id = (await queue.enqueue("count", {}))!;
    const took = await Promise.all([a.runOnce(), b.runOnce()]);
    expect(took.filter(Boolean)).toHaveLength(1);
    expect(runs).toBe(1);
    const job = await queue.get(id);
    expect(job).toMatchObject({ status: "completed", attempts: 1, lease_owner: null });
    expect(JSON.parse(job!.result!)).toEqual({ run: 1 });
  });

  it("lets another worker take over a job whose worker died, once its lease has expired", async () => {
    const dead = worker();
    let resolveStuck: () => void = () => undefined;
    dead.register("resume", () => new Promise((resolve) => (resolveStuck = () => resolve("never counted"))));
    const id = (await queue.enqueue("resume", { step: 1 }))!;
    void dead.runOnce();
    await expect.poll(async () => (await queue.get(id))?.status).toBe("running");

    const survivor = worker();
    const seen: unknown[] = [];
    survivor.register("resume", async ({ payload }) => {
      seen.push(payload);
      return "done";
    });
    expect(await survivor.runOnce()).toBe(false); // the lease still holds
    ctx.clock.advance(31_000);
    expect(await survivor.runOnce()).toBe(true);
    expect(seen).toEqual([{ step: 1 }]);
    const job = await queue.get(id);
    expect(job).toMatchObject({ status: "completed", attempts: 2 });
    // The first worker waking up late cannot overwrite the survivor's outcome.
    resolveStuck();
    await new Promise((r) => setTimeout(r, 20));
    expect(JSON.parse((await queue.get(id))!.result!)).toBe("done");
  });

  it("retries a failing job later, then gives up as failed with the last error", async () => {
    const w = worker();
    let attempts = 0;
    w.register("flaky", async () => {
      attempts += 1;
      throw new Error(`attempt ${attempts} failed`);
    });
    const id = (await queue.enqueue("flaky", {}, { maxAttempts: 2 }))!;
    expect(await w.runOnce()).toBe(true);
    expect(await queue.get(id)).toMatchObject({ status: "queued", error: "attempt 1 failed" });
    expect(await w.runOnce()).toBe(false); // not due yet
    ctx.clock.advance(1_001);
    expect(await w.runOnce()).toBe(true);
    expect(await queue.get(id)).toMatchObject({ status: "failed", error: "attempt 2 failed", attempts: 2 });
  });

  it("cancels a queued job at once and a running one at its next check", async () => {
    const w = worker();
    const queued = (await queue.enqueue("steps", {}))!;
    expect(await queue.cancel(queued)).toMatchObject({ status: "canceled" });

    const done: number[] = [];
    let cancelNow: () => Promise<unknown> = async () => undefined;
    w.register("steps", async ({ shouldStop }) => {
      for (let step = 1; step <= 5; step++) {
        if (await shouldStop()) break;
        done.push(step);
        if (step === 2) await cancelNow();
      }
      return { done: done.length };
    });
    const running = (await queue.enqueue("steps", {}))!;
    cancelNow = () => queue.cancel(running);
    expect(await w.runOnce()).toBe(true);
    expect(done).toEqual([1, 2]);
    expect(await queue.get(running)).toMatchObject({ status: "canceled" });
  });

  it("enqueues a scheduled job once per period, whatever the number of processes", async () => {
    const [a, b] = [worker(), worker()];
    for (const w of [a, b]) w.schedule("daily", 24 * 3600_000);
    await Promise.all([a.enqueueDueSchedules(), b.enqueueDueSchedules(), a.enqueueDueSchedules()]);
    const count = async () => (await ctx.database.db.selectFrom("jobs").select("id").where("kind", "=", "daily").execute()).length;
    expect(await count()).toBe(1);
    ctx.clock.advance(24 * 3600_000);
    await Promise.all([a.enqueueDueSchedules(), b.enqueueDueSchedules()]);
    expect(await count()).toBe(2);
  });

  it("hands a long sliced job over as soon as another job is due: the other runs next, the sliced one continues after", async () => {
    const w = worker();
    const ran: string[] = [];
    let steps = 0;
    // A sweep of 400 steps of a few milliseconds each, in a 60 s slice: it would finish in one run.
    w.register("sweep", (context) =>
      inJobSlice(
        context,
        { db: ctx.database.db, clock: ctx.clock },
        async (shouldStop) => {
          ran.push("sweep");
          for (;;) {
            steps++;
            await new Promise((resolve) => setTimeout(resolve, 5));
            if (steps >= 400) return { stopped: false };
            if (await shouldStop()) return { stopped: true };
          }
        },
        60_000,
      ),
    );
    w.register("deliver", async () => void ran.push("deliver"));
    await queue.enqueue("sweep", {});
    const sweeping = w.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await queue.enqueue("deliver", {});
    await sweeping;
    expect(steps).toBeGreaterThan(1);
    expect(steps).toBeLessThan(400);
    await w.runOnce();
    await w.runOnce();
    expect(ran).toEqual(["sweep", "deliver", "sweep"]);
  });

  it("keeps progress where the screens can read it", async () => {
    const w = worker();
    w.register("progress", async ({ reportProgress }) => {
      await reportProgress({ done: 3, total: 10 });
      return null;
    });
    const id = (await queue.enqueue("progress", {}))!;
    await w.runOnce();
    expect(JSON.parse((await queue.get(id))!.progress!)).toEqual({ done: 3, total: 10 });
  });
});
