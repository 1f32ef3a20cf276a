import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { salesResponseSchema, topProductsResponseSchema, topVendorsResponseSchema } from "../../../contract/analytics.ts";
import { placeOrder, refundOrder } from "../../domain/ledger/orders.ts";
import { PERIOD_WINDOW_DAYS, type PeriodWindowDays, periodRollIsSmall, periodWindowEnds, rollPeriodWindows, shiftDay } from "../../domain/ledger/period-totals.ts";
import { createProduct } from "../../domain/ledger/products.ts";
import { createVendor } from "../../domain/ledger/vendors.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { AnalyticsService } from "./analytics.service.ts";

/**
 * The top lists' "large read" branch (analytics.service.ts windowEnd): a read that finds the windows
 * further behind today than it may move itself (READ_ROLL_MAX_ROWS product days; 3 here) answers
 * from the windows as they stand, naming the days they cover. Its answer equals a computation over
 * the raw orders of exactly those days, and once the job has rolled, over the last days to today.
 * The 365-day sales by day (the widest sales read) equal the raw orders per day too.
 */
const WINDOWS_END = "2026-05-20";
const TODAY = "2026-05-26";

describe.each(testDatabaseKinds)("top lists answered from windows behind today (%s)", (kind) => {
  let ctx: TestContext;

  beforeEach(async () => {
    ctx = await createTestContext(kind, { now: `${WINDOWS_END}T12:00:00.000Z` });
    const { db } = ctx.database;
    const products: Array<{ id: string; vendorId: string }> = [];
    for (let v = 0; v < 4; v++) {
      const vendor = await createVendor(db, { name: `Studio ${v}`, ownerName: "O", email: `s${v}@x.com`, slug: `s-${v}`, isInternal: v === 3, joinedAt: "2025-01-01T00:00:00.000Z" }, ctx.clock);
      for (let k = 0; k < 3; k++)
        products.push({ id: (await createProduct(db, { vendorId: vendor.id, name: `P${v}.${k}`, priceCents: 100, createdAt: "2025-01-01T00:00:00.000Z" }, ctx.clock)).id, vendorId: vendor.id });
    }
    const sell = async (day: string, i: number) => {
      const p = products[(i * 5) % products.length]!;
      const o = await placeOrder(
        db,
        { vendorId: p.vendorId, productId: p.id, quantity: 1 + (i % 3), grossCents: 100 * (1 + ((i * 13) % 17)), feeRateBasisPoints: 150, createdAt: `${day}T0${i % 10}:00:00.000Z` },
        ctx.clock,
      );
      if (i % 9 === 0) await refundOrder(db, o.id, ctx.clock);
    };
    // Sales over the 120 days up to the windows' end, the windows rolled to it; then six days more the windows do not hold yet.
    for (let d = 119; d >= 0; d--) for (let i = 0; i < 1 + (d % 3); i++) await sell(shiftDay(WINDOWS_END, -d), d * 3 + i);
    await rollPeriodWindows(db, WINDOWS_END);
    ctx.clock.set(`${TODAY}T12:00:00.000Z`);
    for (let d = 1; d <= 6; d++) for (let i = 0; i < 3; i++) await sell(shiftDay(WINDOWS_END, d), 1000 + d * 3 + i);
  }, 180_000);
  afterEach(async () => {
    await ctx.close();
  });

  /** Paid orders of non-internal vendors in [from, to], per product and per vendor, ranked as the top lists rank. */
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

  async function expectTopEqualsRaw(service: AnalyticsService, days: PeriodWindowDays, to: string) {
    const top = topProductsResponseSchema.parse(await service.topProducts(days, 50));
    const vendors = topVendorsResponseSchema.parse(await service.topVendors(days, 50));
    const raw = await rawTop(shiftDay(to, -(days - 1)), to);
    expect({ from: top.from, to: top.to }).toEqual({ from: shiftDay(to, -(days - 1)), to });
    expect(vendors.to).toBe(to);
    expect(top.products.map((p) => ({ id: p.productId, revenue: p.revenue, orders: p.orders, units: p.units }))).toEqual(raw.products);
    expect(vendors.vendors.map((v) => ({ id: v.vendorId, revenue: v.revenue, orders: v.orders, units: v.units }))).toEqual(raw.vendors);
    expect(top.products.length).toBeGreaterThan(0);
  }

  it("answers each period from the windows as they stand, equal to the raw orders of the days it names; after the roll, up to today", { timeout: 180_000 }, async () => {
    const service = new AnalyticsService({ database: ctx.database, clock: ctx.clock }, 3);
    // The move is too large for a read: the read must not roll, and must say which days it covers.
    expect(await periodRollIsSmall(ctx.database.db, TODAY, 3)).toBe(false);
    for (const days of PERIOD_WINDOW_DAYS) await expectTopEqualsRaw(service, days, WINDOWS_END);
    expect([...(await periodWindowEnds(ctx.database.db)).values()]).toEqual([WINDOWS_END, WINDOWS_END, WINDOWS_END]);
    // The job catches up; the same reads then cover the days to today.
    await rollPeriodWindows(ctx.database.db, TODAY, { chunkRows: 2 });
    for (const days of PERIOD_WINDOW_DAYS) await expectTopEqualsRaw(service, days, TODAY);
  });

  it("365-day sales by day: every day of the year, each equal to the paid orders of that day (every store)", { timeout: 180_000 }, async () => {
    const service = new AnalyticsService({ database: ctx.database, clock: ctx.clock });
    const sales = salesResponseSchema.parse(await service.sales(365, "day"));
    expect(sales.buckets).toHaveLength(365);
    expect(sales.to).toBe(TODAY);
    const orders = await ctx.database.db.selectFrom("orders").select(["gross_cents", "created_at", "status"]).where("status", "=", "paid").execute();
    const byDay = new Map<string, { revenue: number; orders: number }>();
    for (const o of orders) {
      const t = byDay.get(o.created_at.slice(0, 10)) ?? { revenue: 0, orders: 0 };
      byDay.set(o.created_at.slice(0, 10), { revenue: t.revenue + Number(o.gross_cents), orders: t.orders + 1 });
    }
    for (const b of sales.buckets) {
      const t = byDay.get(b.start) ?? { revenue: 0, orders: 0 };
      expect({ day: b.start, revenue: b.revenue, orders: b.orders }).toEqual({ day: b.start, revenue: t.revenue / 100, orders: t.orders });
    }
    expect(sales.totals.orders).toBe(orders.length);
  });
});
