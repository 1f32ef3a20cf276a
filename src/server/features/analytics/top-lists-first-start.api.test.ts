import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { topProductsResponseSchema, topVendorsResponseSchema } from "../../../contract/analytics.ts";
import { PERIOD_WINDOW_DAYS, shiftDay } from "../../domain/ledger/period-totals.ts";
import { utcDay } from "../../platform/clock.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";

/**
 * Issue 32: right after a first start fills a new database with the demo data (SEED_DEMO), the
 * period totals behind the top lists do not exist yet. The first requests must answer the true
 * lists all the same (equal to a computation over the raw orders of the last 7, 30 and 90 days),
 * never an empty list while the totals are built in the background.
 */
describe.each(testDatabaseKinds)("top lists on a database just filled (%s)", (kind) => {
  let ctx: TestContext;
  let token: string;

  beforeAll(async () => {
    ctx = await createTestContext(kind, { seedDemo: true });
    token = (await ctx.createUser({ email: "first-start@hki.global", role: "admin" })).token;
  }, 240_000);
  afterAll(async () => {
    await ctx.close();
  });

  /** Paid orders of non-internal vendors in [from, to], summed per product and per vendor, ranked as the top lists rank (revenue, then the greater id). */
  async function rawTop(from: string, to: string) {
    const rows = await ctx.database.db
      .selectFrom("orders as o")
      .innerJoin("vendors as v", "v.id", "o.vendor_id")
      .select(["o.product_id", "o.vendor_id", "o.gross_cents", "o.quantity", "o.created_at", "o.status", "v.is_internal"])
      .execute();
    const products = new Map<string, { revenue: number; orders: number; units: number }>();
    const vendors = new Map<string, { revenue: number; orders: number; units: number }>();
    for (const r of rows) {
      const day = r.created_at.slice(0, 10);
      if (r.status !== "paid" || Number(r.is_internal) === 1 || day < from || day > to || r.product_id === null) continue;
      for (const [map, key] of [
        [products, r.product_id],
        [vendors, r.vendor_id],
      ] as const) {
        const t = map.get(key) ?? { revenue: 0, orders: 0, units: 0 };
        map.set(key, { revenue: t.revenue + Number(r.gross_cents), orders: t.orders + 1, units: t.units + Number(r.quantity) });
      }
    }
    const ranked = (map: Map<string, { revenue: number; orders: number; units: number }>) =>
      [...map].sort(([a, x], [b, y]) => y.revenue - x.revenue || (a < b ? 1 : -1)).map(([id, t]) => ({ id, revenue: t.revenue / 100, orders: t.orders, units: t.units }));
    return { products: ranked(products), vendors: ranked(vendors) };
  }

  it("answers the first top-vendors and top-products requests with the true lists, before any roll has run", { timeout: 120_000 }, async () => {
    // The state a first start leaves: orders written, no window built yet (the job has not run).
    expect(await ctx.database.db.selectFrom("period_windows").selectAll().execute()).toEqual([]);
    expect(await ctx.database.db.selectFrom("vendor_period_totals").selectAll().execute()).toEqual([]);
    const today = utcDay(ctx.clock.now());
    for (const days of PERIOD_WINDOW_DAYS) {
      const vendorsRes = await ctx.request(`/api/admin/analytics/top-vendors?days=${days}&limit=50`, { token });
      expect(vendorsRes.status).toBe(200);
      const vendors = topVendorsResponseSchema.parse(await vendorsRes.json());
      const productsRes = await ctx.request(`/api/admin/analytics/top-products?days=${days}&limit=50`, { token });
      expect(productsRes.status).toBe(200);
      const products = topProductsResponseSchema.parse(await productsRes.json());

      const from = shiftDay(today, -(days - 1));
      const raw = await rawTop(from, today);
      expect(raw.vendors.length, `demo sales in the last ${days} days`).toBeGreaterThan(0);
      expect({ from: vendors.from, to: vendors.to }).toEqual({ from, to: today });
      expect({ from: products.from, to: products.to }).toEqual({ from, to: today });
      expect(vendors.vendors.map((v) => ({ id: v.vendorId, revenue: v.revenue, orders: v.orders, units: v.units }))).toEqual(raw.vendors.slice(0, 50));
      expect(products.products.map((p) => ({ id: p.productId, revenue: p.revenue, orders: p.orders, units: p.units }))).toEqual(raw.products.slice(0, 50));
    }
  });
});
