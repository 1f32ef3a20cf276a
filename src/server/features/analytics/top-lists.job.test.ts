import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { placeOrder } from "../../domain/ledger/orders.ts";
import { createProduct } from "../../domain/ledger/products.ts";
import { createVendor } from "../../domain/ledger/vendors.ts";
import { JobWorker } from "../../platform/jobs/job-worker.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { topListsJobs } from "./top-lists.job.ts";

describe.each(testDatabaseKinds)("the top lists' roll job (%s)", (kind) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext(kind, { now: "2026-11-22T23:55:00.000Z" });
  });
  afterEach(async () => {
    await ctx.close();
  });

  const windows = async () => (await ctx.database.db.selectFrom("period_windows").select(["period_days", "last_day"]).orderBy("period_days").execute()).map((r) => [Number(r.period_days), r.last_day]);

  it("is scheduled, and moves every window to today after midnight, taking the day that left out", async () => {
    const { db } = ctx.database;
    const worker = new JobWorker(ctx.database, ctx.clock, { pollMs: 10 });
    topListsJobs(worker, ctx.deps);
    const v = await createVendor(db, { name: "Ada", ownerName: "A", email: "a@x.com", slug: "ada", joinedAt: "2026-01-01T00:00:00.000Z" }, ctx.clock);
    const p = await createProduct(db, { vendorId: v.id, name: "Print", priceCents: 1000, createdAt: "2026-01-01T00:00:00.000Z" }, ctx.clock);
    await placeOrder(db, { vendorId: v.id, productId: p.id, quantity: 1, feeRateBasisPoints: 150, createdAt: "2026-11-16T10:00:00.000Z" }, ctx.clock);

    await worker.enqueueDueSchedules();
    expect(await worker.runOnce()).toBe(true);
    expect(await windows()).toEqual([
      [7, "2026-11-22"],
      [30, "2026-11-22"],
      [90, "2026-11-22"],
    ]);
    const seven = () => db.selectFrom("product_period_totals").select("gross_cents").where("period_days", "=", 7).execute();
    expect((await seven()).map((r) => Number(r.gross_cents))).toEqual([1000]);

    // After midnight the next slot's run moves them; Nov 16 has left the 7 days (Nov 17 .. 23).
    ctx.clock.set("2026-11-23T00:05:00.000Z");
    await worker.enqueueDueSchedules();
    expect(await worker.runOnce()).toBe(true);
    expect(await windows()).toEqual([
      [7, "2026-11-23"],
      [30, "2026-11-23"],
      [90, "2026-11-23"],
    ]);
    expect(await seven()).toEqual([]);
    expect(await db.selectFrom("product_period_totals").select("period_days").where("period_days", "=", 30).execute()).toHaveLength(1);
  });

  it("works in slices: a run that used its slice queues its continuation, and the windows end where one long run would", async () => {
    const { db } = ctx.database;
    const worker = new JobWorker(ctx.database, ctx.clock, { pollMs: 10 });
    // A slice of 0 ms: every run stops after its first chunk and hands over.
    topListsJobs(worker, ctx.deps, { sliceMs: 0 });
    const v = await createVendor(db, { name: "Ada", ownerName: "A", email: "a@x.com", slug: "ada", joinedAt: "2026-01-01T00:00:00.000Z" }, ctx.clock);
    const p = await createProduct(db, { vendorId: v.id, name: "Print", priceCents: 1000, createdAt: "2026-01-01T00:00:00.000Z" }, ctx.clock);
    await placeOrder(db, { vendorId: v.id, productId: p.id, quantity: 1, feeRateBasisPoints: 150, createdAt: "2026-11-16T10:00:00.000Z" }, ctx.clock);
    await worker.enqueueDueSchedules();
    for (let run = 0; run < 20 && (await worker.runOnce()); run++);

    const runs = await db.selectFrom("jobs").select(["status", "result"]).where("kind", "=", "top-lists.roll").execute();
    expect(runs.length).toBeGreaterThan(1);
    expect(runs.every((r) => r.status === "completed")).toBe(true);
    expect(runs.filter((r) => !(JSON.parse(r.result!) as { continued: boolean }).continued)).toHaveLength(1);
    expect(await windows()).toEqual([
      [7, "2026-11-22"],
      [30, "2026-11-22"],
      [90, "2026-11-22"],
    ]);
    expect((await db.selectFrom("product_period_totals").select("gross_cents").where("period_days", "=", 7).execute()).map((r) => Number(r.gross_cents))).toEqual([1000]);
  });
});
