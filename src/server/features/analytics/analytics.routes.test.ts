import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { analyticsResponseSchema } from "../../../contract/analytics.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { buildPlatformFixture, FIXTURE_NOW } from "../../testing/platform-figures-fixture.ts";

describe.each(testDatabaseKinds)("GET /api/admin/analytics (%s)", (kind) => {
  let ctx: TestContext;
  let token: string;

  const get = async (query: string) => ctx.request(`/api/admin/analytics${query}`, { token });
  const read = async (query: string) => {
    const res = await get(query);
    expect(res.status).toBe(200);
    return analyticsResponseSchema.parse(await res.json());
  };
  const sum = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) * 100) / 100;

  beforeEach(async () => {
    ctx = await createTestContext(kind, { now: FIXTURE_NOW });
    token = (await ctx.createUser({ email: "boss@hki.global" })).token;
    await buildPlatformFixture(ctx.database.db, ctx.clock);
  });
  afterEach(async () => {
    await ctx.close();
  });

  it("7 days: one entry per day oldest first, zeros included, split at midnight UTC", async () => {
    const body = await read("?days=7");
    const zero = (date: string) => ({ date, total_revenue: 0, total_orders: 0, total_fees: 0 });
    expect(body.metrics).toEqual([
      zero("2026-11-25"),
      zero("2026-11-26"),
      zero("2026-11-27"),
      // O7 was cancelled.
      zero("2026-11-28"),
      zero("2026-11-29"),
      // O1 at 23:59.
      { date: "2026-11-30", total_revenue: 100, total_orders: 1, total_fees: 1.5 },
      // O2 at 00:00 (charged 2.5 %) and O4 (internal vendor); O3 refunded.
      { date: "2026-12-01", total_revenue: 260, total_orders: 2, total_fees: 5.9 },
    ]);
    // December: V3 joined; P3 created. Totals count every vendor and every product (drafts too).
    expect(body.vendorStats).toEqual({ total_vendors: 3, active_vendors: 2, new_vendors: 1 });
    expect(body.productStats).toEqual({ total_products: 3, new_products: 1 });
    expect(body.platformFeePercentage).toBe(2.5);
  });

  it("30 days is the default and covers Nov 2 .. Dec 1", async () => {
    const explicit = await read("?days=30");
    expect(await read("")).toEqual(explicit);
    expect(explicit.metrics).toHaveLength(30);
    expect(explicit.metrics[0]?.date).toBe("2026-11-02");
    expect(explicit.metrics.at(-1)?.date).toBe("2026-12-01");
    // O5 + O1 + O2 + O4; O6 (Nov 1) is outside the window.
    expect(sum(explicit.metrics.map((m) => m.total_revenue))).toBe(460);
    expect(sum(explicit.metrics.map((m) => m.total_orders))).toBe(4);
    expect(sum(explicit.metrics.map((m) => m.total_fees))).toBe(8.9);
  });

  it("90 days starts on Sep 3 and includes November 1st", async () => {
    const body = await read("?days=90");
    expect(body.metrics).toHaveLength(90);
    expect(body.metrics[0]?.date).toBe("2026-09-03");
    expect(sum(body.metrics.map((m) => m.total_revenue))).toBe(560);
    expect(sum(body.metrics.map((m) => m.total_fees))).toBe(9.9);
    // New this month stays the calendar month's, whatever the period.
    expect(body.vendorStats.new_vendors).toBe(1);
  });

  it("new this month is November's on Nov 30", async () => {
    ctx.clock.set("2026-11-30T12:00:00.000Z");
    const body = await read("?days=7");
    // V2 joined in November (V3 joins tomorrow but the counter already counts it as a vendor).
    expect(body.vendorStats.new_vendors).toBe(1);
    // P1 and P2 were created in November.
    expect(body.productStats.new_products).toBe(2);
    expect(body.metrics.at(-1)).toEqual({ date: "2026-11-30", total_revenue: 100, total_orders: 1, total_fees: 1.5 });
  });

  it.each(["?days=14", "?days=abc", "?days=", "?days=7&days=30"])("rejects %s with a 400 naming days", async (query) => {
    const res = await get(query);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/^days:/);
  });

  it("is admin-only", async () => {
    expect((await ctx.request("/api/admin/analytics?days=7")).status).toBe(401);
    const user = await ctx.createUser({ email: "someone@example.com" });
    expect((await ctx.request("/api/admin/analytics?days=7", { token: user.token })).status).toBe(403);
  });
});
