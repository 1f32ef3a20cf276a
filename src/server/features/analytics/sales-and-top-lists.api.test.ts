import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { salesResponseSchema, topProductsResponseSchema, topVendorsResponseSchema } from "../../../contract/analytics.ts";
import { placeOrder, refundOrder } from "../../domain/ledger/orders.ts";
import { createProduct } from "../../domain/ledger/products.ts";
import { createVendor } from "../../domain/ledger/vendors.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";

// A Tuesday: the last 7 days run from Wednesday 2026-12-30 across the new year.
const NOW = "2027-01-05T10:00:00.000Z";

describe.each(testDatabaseKinds)("sales buckets and top lists (%s)", (kind) => {
  let ctx: TestContext;
  let token: string;
  let ids: { art: string; house: string; print: string; mug: string; houseTee: string };

  const read = async (path: string) => {
    const res = await ctx.request(path, { token });
    expect(res.status, await res.clone().text()).toBe(200);
    return res.json();
  };
  const order = (vendorId: string, productId: string, at: string, cents: number, quantity = 1) =>
    placeOrder(ctx.database.db, { vendorId, productId, quantity, grossCents: cents, feeRateBasisPoints: 150, createdAt: at }, ctx.clock);

  beforeEach(async () => {
    ctx = await createTestContext(kind, { now: NOW });
    token = (await ctx.createUser({ email: "boss@hki.global" })).token;
    const { db } = ctx.database;
    const art = await createVendor(db, { name: "Art Co", ownerName: "A", email: "a@x.com", slug: "art-co", joinedAt: "2026-01-01T00:00:00.000Z" }, ctx.clock);
    const house = await createVendor(db, { name: "House", ownerName: "H", email: "h@x.com", slug: "house", isInternal: true, joinedAt: "2026-01-01T00:00:00.000Z" }, ctx.clock);
    const print = await createProduct(db, { vendorId: art.id, name: "Print", priceCents: 1000, createdAt: "2026-01-02T00:00:00.000Z" }, ctx.clock);
    const mug = await createProduct(db, { vendorId: art.id, name: "Mug", priceCents: 1000, createdAt: "2026-01-02T00:00:00.000Z" }, ctx.clock);
    const houseTee = await createProduct(db, { vendorId: house.id, name: "House tee", priceCents: 1000, createdAt: "2026-01-02T00:00:00.000Z" }, ctx.clock);
    ids = { art: art.id, house: house.id, print: print.id, mug: mug.id, houseTee: houseTee.id };
    await order(art.id, print.id, "2026-02-10T08:00:00.000Z", 40_00);
    await order(art.id, print.id, "2026-12-29T12:00:00.000Z", 7_00);
    await order(art.id, print.id, "2026-12-31T23:59:59.999Z", 100_00, 2);
    await order(art.id, mug.id, "2027-01-01T00:00:00.000Z", 50_00);
    await order(house.id, houseTee.id, "2027-01-02T09:00:00.000Z", 999_00);
    const refunded = await order(art.id, mug.id, "2027-01-02T10:00:00.000Z", 80_00);
    await refundOrder(ctx.database.db, refunded.id, ctx.clock);
    await order(art.id, mug.id, "2027-01-04T12:00:00.000Z", 10_00);
    await order(art.id, mug.id, "2027-01-04T13:00:00.000Z", 20_00, 3);
  });
  afterEach(async () => {
    await ctx.close();
  });

  it("7 days by month: December's tail and January's start, internal sales counted as on the other figures", async () => {
    const body = salesResponseSchema.parse(await read("/api/admin/analytics/sales?days=7&groupBy=month"));
    expect(body).toMatchObject({ days: 7, groupBy: "month", from: "2026-12-30", to: "2027-01-05" });
    expect(body.buckets).toEqual([
      // Fees are 1.5 % of each order, rounded per order: 1.50; 0.75 + 14.99 + 0.15 + 0.30.
      { start: "2026-12-30", end: "2026-12-31", revenue: 100, orders: 1, fees: 1.5, averageOrderValue: 100 },
      { start: "2027-01-01", end: "2027-01-05", revenue: 1079, orders: 4, fees: 16.19, averageOrderValue: 269.75 },
    ]);
    expect(body.totals).toEqual({ revenue: 1179, orders: 5, fees: 17.69, averageOrderValue: 235.8 });
  });

  it("7 days by ISO week (Monday to Sunday), cut to the period", async () => {
    const body = salesResponseSchema.parse(await read("/api/admin/analytics/sales?days=7&groupBy=week"));
    expect(body.buckets.map((b) => [b.start, b.end, b.revenue, b.orders])).toEqual([
      ["2026-12-30", "2027-01-03", 1149, 3],
      ["2027-01-04", "2027-01-05", 30, 2],
    ]);
  });

  it("7 days by day: every day, empty ones as zeros; the refund never counts", async () => {
    const body = salesResponseSchema.parse(await read("/api/admin/analytics/sales?days=7"));
    expect(body.groupBy).toBe("day");
    expect(body.buckets.map((b) => [b.start, b.end, b.revenue, b.orders, b.averageOrderValue])).toEqual([
      ["2026-12-30", "2026-12-30", 0, 0, 0],
      ["2026-12-31", "2026-12-31", 100, 1, 100],
      ["2027-01-01", "2027-01-01", 50, 1, 50],
      ["2027-01-02", "2027-01-02", 999, 1, 999],
      ["2027-01-03", "2027-01-03", 0, 0, 0],
      ["2027-01-04", "2027-01-04", 30, 2, 15],
      ["2027-01-05", "2027-01-05", 0, 0, 0],
    ]);
  });

  it("365 days by month: 13 buckets across the year boundary, from a cut January to a cut January", async () => {
    const body = salesResponseSchema.parse(await read("/api/admin/analytics/sales?days=365&groupBy=month"));
    expect(body.from).toBe("2026-01-06");
    expect(body.buckets).toHaveLength(13);
    expect(body.buckets[0]).toMatchObject({ start: "2026-01-06", end: "2026-01-31", revenue: 0 });
    expect(body.buckets[1]).toMatchObject({ start: "2026-02-01", end: "2026-02-28", revenue: 40, orders: 1 });
    expect(body.buckets[11]).toMatchObject({ start: "2026-12-01", end: "2026-12-31", revenue: 107, orders: 2 });
    expect(body.buckets[12]).toMatchObject({ start: "2027-01-01", end: "2027-01-05", revenue: 1079, orders: 4 });
    expect(body.totals.revenue).toBe(1226);
  });

  it("refuses other periods and groupings, naming the input", async () => {
    for (const [query, message] of [
      ["?days=14", "days: must be 7, 30, 90 or 365"],
      ["?groupBy=year", "groupBy: must be day, week or month"],
    ] as const) {
      const res = await ctx.request(`/api/admin/analytics/sales${query}`, { token });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe(message);
    }
  });

  it("top products and vendors by revenue in the period, internal vendors left out", async () => {
    const products = topProductsResponseSchema.parse(await read("/api/admin/analytics/top-products?days=7"));
    expect(products).toEqual({
      days: 7,
      limit: 10,
      from: "2026-12-30",
      to: "2027-01-05",
      products: [
        { rank: 1, productId: ids.print, productName: "Print", vendorId: ids.art, vendorName: "Art Co", revenue: 100, orders: 1, units: 2 },
        { rank: 2, productId: ids.mug, productName: "Mug", vendorId: ids.art, vendorName: "Art Co", revenue: 80, orders: 3, units: 5 },
      ],
    });
    const vendors = topVendorsResponseSchema.parse(await read("/api/admin/analytics/top-vendors?days=30&limit=1"));
    expect(vendors.vendors).toEqual([{ rank: 1, vendorId: ids.art, vendorName: "Art Co", vendorSlug: "art-co", revenue: 187, orders: 5, units: 8 }]);
  });

  it("the windows follow the days: after midnight the day that left the period no longer counts", async () => {
    expect(topProductsResponseSchema.parse(await read("/api/admin/analytics/top-products?days=7")).products.map((p) => p.revenue)).toEqual([100, 80]);
    // Two days later the period is Jan 1 .. Jan 7: December 31st has left it.
    ctx.clock.set("2027-01-07T00:00:01.000Z");
    token = (await ctx.createUser({ email: "later@hki.global" })).token;
    expect(topProductsResponseSchema.parse(await read("/api/admin/analytics/top-products?days=7")).products.map((p) => [p.productName, p.revenue])).toEqual([["Mug", 80]]);
    await order(ids.art, ids.print, "2027-01-07T00:00:02.000Z", 500_00);
    expect(topProductsResponseSchema.parse(await read("/api/admin/analytics/top-products?days=7")).products.map((p) => [p.productName, p.revenue])).toEqual([
      ["Print", 500],
      ["Mug", 80],
    ]);
  });

  it("limit is 1–50 and days 7, 30 or 90", async () => {
    for (const query of ["?limit=0", "?limit=51", "?limit=abc", "?limit=1.5", "?days=365"]) {
      const res = await ctx.request(`/api/admin/analytics/top-vendors${query}`, { token });
      expect(res.status, query).toBe(400);
    }
    expect(((await (await ctx.request("/api/admin/analytics/top-products?limit=51", { token })).json()) as { error: { message: string } }).error.message).toBe(
      "limit: must be a whole number from 1 to 50",
    );
  });
});
