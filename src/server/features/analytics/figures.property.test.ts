import fc from "fast-check";
import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { ANALYTICS_PERIODS } from "../../../contract/analytics.ts";
import type { RecentActivity } from "../../../contract/dashboard.ts";
import { fixedClock } from "../../platform/clock.ts";
import type { DB } from "../../platform/db/schema.ts";
import { cancelOrder, placeOrder, refundOrder } from "../../domain/ledger/orders.ts";
import { createProduct, setProductStatus } from "../../domain/ledger/products.ts";
import { testBackends } from "../../testing/test-databases.ts";
import { createVendor, deleteVendorCascade, setVendorActive } from "../../domain/ledger/vendors.ts";
import { readDashboardStats } from "../dashboard/dashboard.queries.ts";
import { readAnalytics } from "./analytics.queries.ts";
import { addDays } from "../../domain/ledger/platform-days.queries.ts";

/**
 * The endpoint level of the rollup property (the ledger's own test proves rollups equal a
 * recomputation; this one proves the dashboard and analytics read them right): after a random
 * mix of writes over ~100 days crossing month boundaries, every figure equals the same figure
 * computed naively from the raw rows.
 */
const NOW = new Date("2026-12-02T10:00:00.000Z");
const START = Date.UTC(2026, 7, 20); // Aug 20: the 90-day window and three month ends are covered.
const SPAN_MINUTES = Math.floor((NOW.getTime() - START) / 60_000);
const time = (minute: number) => new Date(START + minute * 60_000).toISOString();

type Command =
  | { op: "vendor"; active: boolean; minute: number }
  | { op: "product"; pick: number; listed: boolean; minute: number }
  | { op: "order"; pick: number; quantity: number; rate: number; minute: number }
  | { op: "refund" | "cancel" | "delete" | "toggle" | "unlist"; pick: number };

const minute = fc.oneof(
  fc.integer({ min: 0, max: SPAN_MINUTES }),
  // The last two weeks, so today, yesterday, this week and the one before (and the month's
  // first day) get sales, and the edges of every window are hit.
  { arbitrary: fc.integer({ min: SPAN_MINUTES - 14 * 1440, max: SPAN_MINUTES }), weight: 3 },
);
const pick = fc.nat(1000);
const command: fc.Arbitrary<Command> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant("vendor" as const), active: fc.boolean(), minute }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant("product" as const), pick, listed: fc.boolean(), minute }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant("order" as const), pick, quantity: fc.integer({ min: 1, max: 3 }), rate: fc.constantFrom(100, 150, 250), minute }), weight: 8 },
  { arbitrary: fc.record({ op: fc.constantFrom("refund" as const, "cancel" as const, "delete" as const, "toggle" as const, "unlist" as const), pick }), weight: 2 },
);

async function idsOf(db: Kysely<DB>, table: "vendors" | "products" | "orders"): Promise<string[]> {
  return (await db.selectFrom(table).select("id").orderBy("id").execute()).map((r) => r.id);
}
const at = <T>(xs: T[], i: number): T | undefined => (xs.length ? xs[i % xs.length] : undefined);

async function run(db: Kysely<DB>, cmd: Command, n: number): Promise<void> {
  const clock = fixedClock(NOW);
  switch (cmd.op) {
    case "vendor":
      await createVendor(db, { name: `V${n}`, ownerName: "O", email: `v${n}@x.test`, slug: `v${n}`, isActive: cmd.active, joinedAt: time(cmd.minute) }, clock);
      return;
    case "product": {
      const v = at(await idsOf(db, "vendors"), cmd.pick);
      if (v) await createProduct(db, { vendorId: v, name: `P${n}`, priceCents: 1000 + n, status: cmd.listed ? "listed" : "draft", createdAt: time(cmd.minute) }, clock);
      return;
    }
    case "order": {
      const p = at(await idsOf(db, "products"), cmd.pick);
      if (!p) return;
      const { vendor_id } = await db.selectFrom("products").select("vendor_id").where("id", "=", p).executeTakeFirstOrThrow();
      await placeOrder(db, { vendorId: vendor_id, productId: p, quantity: cmd.quantity, feeRateBasisPoints: cmd.rate, createdAt: time(cmd.minute) }, clock);
      return;
    }
    case "refund":
    case "cancel": {
      const paid = (await db.selectFrom("orders").select("id").where("status", "=", "paid").orderBy("id").execute()).map((r) => r.id);
      const o = at(paid, cmd.pick);
      if (o) await (cmd.op === "refund" ? refundOrder : cancelOrder)(db, o, clock);
      return;
    }
    case "delete": {
      const v = at(await idsOf(db, "vendors"), cmd.pick);
      if (v) await deleteVendorCascade(db, v);
      return;
    }
    case "toggle": {
      const v = at(await idsOf(db, "vendors"), cmd.pick);
      if (!v) return;
      const row = await db.selectFrom("vendors").select("is_active").where("id", "=", v).executeTakeFirstOrThrow();
      await setVendorActive(db, v, row.is_active === 0, clock);
      return;
    }
    case "unlist": {
      const p = at(await idsOf(db, "products"), cmd.pick);
      if (p) await setProductStatus(db, p, "draft");
      return;
    }
  }
}

/** Every figure computed the naive way, over all raw rows. */
async function naiveFigures(db: Kysely<DB>) {
  const vendors = await db.selectFrom("vendors").select(["id", "name", "is_active", "joined_at"]).execute();
  const products = await db.selectFrom("products").select(["id", "name", "status", "created_at"]).execute();
  const orders = await db.selectFrom("orders").select(["id", "product_name", "status", "gross_cents", "fee_cents", "created_at"]).execute();
  const paid = orders.filter((o) => o.status === "paid");
  const today = NOW.toISOString().slice(0, 10);
  const monthFrom = `${today.slice(0, 8)}01`;
  const dayOf = (iso: string) => iso.slice(0, 10);
  const sum = (rows: typeof paid, from: string, to: string, f: "gross_cents" | "fee_cents") =>
    rows.filter((o) => dayOf(o.created_at) >= from && dayOf(o.created_at) <= to).reduce((a, o) => a + Number(o[f]), 0);

  const rank = { sale: 0, product_added: 1, vendor_joined: 2 } as const;
  const events = [
    ...paid.map((o) => ({ type: "sale" as const, name: o.product_name, timestamp: o.created_at, id: o.id })),
    ...products.map((p) => ({ type: "product_added" as const, name: p.name, timestamp: p.created_at, id: p.id })),
    ...vendors.map((v) => ({ type: "vendor_joined" as const, name: v.name, timestamp: v.joined_at, id: v.id })),
  ]
    .sort((a, b) => b.timestamp.localeCompare(a.timestamp) || rank[a.type] - rank[b.type] || b.id.localeCompare(a.id))
    .slice(0, 10)
    .map(({ type, name, timestamp }): RecentActivity => ({ type, name, timestamp }));

  const metrics = (days: number) =>
    Array.from({ length: days }, (_, i) => addDays(today, i - (days - 1))).map((date) => ({
      date,
      total_revenue: sum(paid, date, date, "gross_cents") / 100,
      total_orders: paid.filter((o) => dayOf(o.created_at) === date).length,
      total_fees: sum(paid, date, date, "fee_cents") / 100,
    }));

  return {
    dashboard: {
      totalVendors: vendors.length,
      activeVendors: vendors.filter((v) => v.is_active === 1).length,
      totalProducts: products.filter((p) => p.status === "listed").length,
      platformFees: sum(paid, monthFrom, today, "fee_cents") / 100,
      todaySales: sum(paid, today, today, "gross_cents") / 100,
      weekSales: sum(paid, addDays(today, -6), today, "gross_cents") / 100,
      recentActivity: events,
    },
    metrics,
    vendorStats: {
      total_vendors: vendors.length,
      active_vendors: vendors.filter((v) => v.is_active === 1).length,
      new_vendors: vendors.filter((v) => dayOf(v.joined_at) >= monthFrom && dayOf(v.joined_at) <= today).length,
    },
    productStats: {
      total_products: products.length,
      new_products: products.filter((p) => dayOf(p.created_at) >= monthFrom && dayOf(p.created_at) <= today).length,
    },
  };
}

describe.each(testBackends())("dashboard and analytics figures equal a naive computation ($kind)", (backend) => {
  it("after any mix of vendors, products, orders, refunds, cancellations and deletions", { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 60 }), async (commands) => {
        const t = await backend.open();
        try {
          for (const [n, cmd] of commands.entries()) await run(t.db, cmd, n);
          const expected = await naiveFigures(t.db);
          const stats = await readDashboardStats(t.db, NOW);
          expect(stats).toMatchObject(expected.dashboard);
          for (const days of ANALYTICS_PERIODS) {
            const analytics = await readAnalytics(t.db, NOW, days);
            expect(analytics.metrics).toEqual(expected.metrics(days));
            expect(analytics.vendorStats).toEqual(expected.vendorStats);
            expect(analytics.productStats).toEqual(expected.productStats);
          }
        } finally {
          await t.close();
        }
      }),
      { numRuns: backend.kind === "sqlite" ? 40 : 10 },
    );
  });
});
