import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { dashboardStatsSchema } from "../../../contract/dashboard.ts";
import { buildPlatformFixture, FIXTURE_NOW } from "../../testing/platform-figures-fixture.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { createVendor } from "../../domain/ledger/vendors.ts";
import { percentChange } from "./dashboard.queries.ts";

describe.each(testDatabaseKinds)("GET /api/admin/dashboard/stats (%s)", (kind) => {
  let ctx: TestContext;
  let admin: { token: string };

  beforeEach(async () => {
    ctx = await createTestContext(kind, { now: FIXTURE_NOW });
    admin = await ctx.createUser({ email: "boss@hki.global" });
  });
  afterEach(async () => {
    await ctx.close();
  });

  it("answers the hand-computed figures of the fixture", async () => {
    await buildPlatformFixture(ctx.database.db, ctx.clock);
    const res = await ctx.request("/api/admin/dashboard/stats", { token: admin.token });
    expect(res.status).toBe(200);
    const body = dashboardStatsSchema.parse(await res.json());
    expect(body).toEqual({
      totalVendors: 3,
      activeVendors: 2,
      // V1 29.99 + V3 49.99; V2's cancelled subscription does not recur.
      monthlyRecurring: 79.98,
      // P1 and P3; P2 is a draft.
      totalProducts: 2,
      // December so far: O2 5.00 + O4 0.90 (O1 at 23:59 on Nov 30 is last month, O3 refunded).
      platformFees: 5.9,
      // O2 200 + O4 60 (O3 refunded).
      todaySales: 260,
      // Nov 25 .. Dec 1: O1 100 + O2 200 + O4 60 (O7 cancelled, O5 on Nov 24 is outside).
      weekSales: 360,
      // The setting in force now, while the recorded fees above stay as they were charged.
      platformFeePercentage: 2.5,
      trends: {
        // 5.90 against Nov 1 (same days of the previous month): O6 1.00.
        platformFees: 490,
        // 260 against yesterday's 100.
        todaySales: 160,
        // 360 against Nov 18 .. Nov 24: O5 100.
        weekSales: 260,
      },
      recentActivity: [
        { type: "sale", name: "House Mug", timestamp: "2026-12-01T11:30:00.000Z" },
        { type: "product_added", name: "House Mug", timestamp: "2026-12-01T09:00:00.000Z" },
        { type: "vendor_joined", name: "HKI House", timestamp: "2026-12-01T08:00:00.000Z" },
        { type: "sale", name: "Sunset Canvas", timestamp: "2026-12-01T00:00:00.000Z" },
        { type: "sale", name: "Sunset Canvas", timestamp: "2026-11-30T23:59:00.000Z" },
        { type: "product_added", name: "Draft Sketch", timestamp: "2026-11-25T00:00:00.000Z" },
        { type: "sale", name: "Sunset Canvas", timestamp: "2026-11-24T12:00:00.000Z" },
        { type: "vendor_joined", name: "Beta Prints", timestamp: "2026-11-20T10:00:00.000Z" },
        { type: "sale", name: "Sunset Canvas", timestamp: "2026-11-01T05:00:00.000Z" },
        { type: "product_added", name: "Sunset Canvas", timestamp: "2026-11-01T00:00:00.000Z" },
        // Alpha Art (joined Oct 15) is the 11th event: cut by the limit of 10.
      ],
    });
  });

  it("moves the day and month windows with the clock: one minute earlier the 23:59 order is today's", async () => {
    await buildPlatformFixture(ctx.database.db, ctx.clock);
    ctx.clock.set("2026-11-30T23:59:30.000Z");
    const body = dashboardStatsSchema.parse(await (await ctx.request("/api/admin/dashboard/stats", { token: admin.token })).json());
    // Today is Nov 30: only O1 so far; December orders are in the future and not counted.
    expect(body.todaySales).toBe(100);
    // November fees up to today: O6 1.00 + O5 1.50 + O1 1.50.
    expect(body.platformFees).toBe(4);
    // Nov 24 .. Nov 30: O5 + O1.
    expect(body.weekSales).toBe(200);
    // Events after "now" are not recent activity yet.
    expect(body.recentActivity[0]).toEqual({ type: "sale", name: "Sunset Canvas", timestamp: "2026-11-30T23:59:00.000Z" });
    expect(body.recentActivity.every((e) => e.timestamp <= "2026-11-30T23:59:30.000Z")).toBe(true);
  });

  it("shows a change made through this process on the very next request, though answers are cached", async () => {
    await buildPlatformFixture(ctx.database.db, ctx.clock);
    const stats = async () => dashboardStatsSchema.parse(await (await ctx.request("/api/admin/dashboard/stats", { token: admin.token })).json());
    const before = await stats();
    // The fixed clock does not move: only the write can invalidate the cached answer.
    await createVendor(ctx.database.db, { name: "Fresh Studio", ownerName: "Fay", email: "fay@fresh.test", slug: "fresh-studio" }, ctx.clock);
    const after = await stats();
    expect(after.totalVendors).toBe(before.totalVendors + 1);
    expect(after.activeVendors).toBe(before.activeVendors + 1);
    expect(after.recentActivity[0]).toEqual({ type: "vendor_joined", name: "Fresh Studio", timestamp: FIXTURE_NOW });
    const fee = await ctx.request("/api/admin/settings", {
      token: admin.token,
      method: "PUT",
      json: { platform_fee_percentage: "3" },
    });
    expect(fee.status).toBe(200);
    expect((await stats()).platformFeePercentage).toBe(3);
  });

  it("answers zeros and an empty activity list on an empty platform, with the default fee setting", async () => {
    const body = dashboardStatsSchema.parse(await (await ctx.request("/api/admin/dashboard/stats", { token: admin.token })).json());
    expect(body).toMatchObject({
      totalVendors: 0,
      activeVendors: 0,
      monthlyRecurring: 0,
      totalProducts: 0,
      platformFees: 0,
      todaySales: 0,
      weekSales: 0,
      recentActivity: [],
      platformFeePercentage: 1.5,
      trends: { platformFees: null, todaySales: null, weekSales: null },
    });
  });

  it("is admin-only", async () => {
    expect((await ctx.request("/api/admin/dashboard/stats")).status).toBe(401);
    const user = await ctx.createUser({ email: "someone@example.com" });
    expect((await ctx.request("/api/admin/dashboard/stats", { token: user.token })).status).toBe(403);
  });
});

describe("percentChange", () => {
  it("rounds to one decimal and has no value against an empty previous period", () => {
    expect(percentChange(150, 100)).toBe(50);
    expect(percentChange(1, 3)).toBe(-66.7);
    expect(percentChange(0, 100)).toBe(-100);
    expect(percentChange(100, 0)).toBeNull();
  });
});
