import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { topProductsResponseSchema, topVendorsResponseSchema } from "../../../contract/analytics.ts";
import { cancelOrder, placeOrder, refundOrder } from "../../domain/ledger/orders.ts";
import { createProduct } from "../../domain/ledger/products.ts";
import { compareRollups } from "../../domain/ledger/recompute.ts";
import { createVendor, deleteVendorCascade } from "../../domain/ledger/vendors.ts";
import { createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";

/**
 * The top lists (docs/product.md §18.2) equal a computation over the raw rows, whatever the mix of
 * orders, refunds, cancellations, deletions and days passing (the windows rolling forward, by a
 * day or past a whole window): paid orders of non-internal vendors in the last N UTC days, summed
 * per product and per vendor, ranked by revenue (ties: the greater id first), the first `limit`.
 */
const START = Date.UTC(2026, 0, 1, 12);
const DAY = 86_400_000;

type Step =
  { op: "order"; product: number; quantity: number; daysAgo: number; price: number } | { op: "refund" | "cancel"; pick: number } | { op: "days"; n: number } | { op: "delete"; vendor: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    arbitrary: fc.record({
      op: fc.constant("order" as const),
      product: fc.nat(50),
      quantity: fc.integer({ min: 1, max: 4 }),
      daysAgo: fc.integer({ min: 0, max: 100 }),
      price: fc.constantFrom(0, 500, 1250, 999),
    }),
    weight: 8,
  },
  fc.record({ op: fc.constantFrom("refund" as const, "cancel" as const), pick: fc.nat(200) }),
  { arbitrary: fc.record({ op: fc.constant("days" as const), n: fc.constantFrom(1, 1, 2, 8, 40, 95) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant("delete" as const), vendor: fc.nat(6) }), weight: 1 },
);

describe.each(testDatabaseKinds)("top lists equal a computation over raw rows (%s)", (kind) => {
  it("for every period and limit", { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 40 }), fc.constantFrom(7, 30, 90), fc.integer({ min: 1, max: 6 }), async (steps, days, limit) => {
        const ctx = await createTestContext(kind, { now: new Date(START).toISOString() });
        try {
          const { db } = ctx.database;
          const vendors: string[] = [];
          const products: Array<{ id: string; vendorId: string }> = [];
          for (let i = 0; i < 6; i++) {
            const v = await createVendor(db, { name: `V${i}`, ownerName: "O", email: `v${i}@x.com`, slug: `v${i}`, isInternal: i === 5, joinedAt: "2025-01-01T00:00:00.000Z" }, ctx.clock);
            vendors.push(v.id);
            for (let k = 0; k < 3; k++)
              products.push({ id: (await createProduct(db, { vendorId: v.id, name: `P${i}.${k}`, priceCents: 1000, createdAt: "2025-01-01T00:00:00.000Z" }, ctx.clock)).id, vendorId: v.id });
          }
          let n = 0;
          for (const s of steps) {
            const now = ctx.clock.now().getTime();
            if (s.op === "order") {
              const live = await db.selectFrom("products").select(["id", "vendor_id"]).orderBy("id").execute();
              const p = live[s.product % Math.max(1, live.length)];
              if (!p) continue;
              await placeOrder(
                db,
                {
                  vendorId: p.vendor_id,
                  productId: p.id,
                  quantity: s.quantity,
                  unitPriceCents: s.price,
                  feeRateBasisPoints: 150,
                  createdAt: new Date(now - s.daysAgo * DAY - (n++ % 7) * 3_600_000).toISOString(),
                },
                ctx.clock,
              );
            } else if (s.op === "refund" || s.op === "cancel") {
              const paid = await db.selectFrom("orders").select("id").where("status", "=", "paid").orderBy("id").execute();
              const o = paid[s.pick % Math.max(1, paid.length)];
              if (o) await (s.op === "refund" ? refundOrder : cancelOrder)(db, o.id, ctx.clock);
            } else if (s.op === "days") {
              ctx.clock.advance(s.n * DAY);
              // Reading now and then moves the windows as a user would (the rest of the time the ledger keeps them).
              if (n++ % 2 === 0) await readTop(ctx, "top-products", days, limit);
            } else if (s.op === "delete") {
              const id = vendors[s.vendor % vendors.length]!;
              await deleteVendorCascade(db, id);
            }
          }

          // Expected, from the raw rows.
          const today = ctx.clock.now().toISOString().slice(0, 10);
          const from = new Date(Date.parse(`${today}T00:00:00.000Z`) - (days - 1) * DAY).toISOString().slice(0, 10);
          const rows = await db
            .selectFrom("orders")
            .innerJoin("vendors", "vendors.id", "orders.vendor_id")
            .innerJoin("products", "products.id", "orders.product_id")
            .select([
              "orders.product_id",
              "orders.vendor_id",
              "orders.gross_cents",
              "orders.quantity",
              "orders.created_at",
              "products.name as product_name",
              "vendors.name as vendor_name",
              "vendors.slug",
            ])
            .where("orders.status", "=", "paid")
            .where("vendors.is_internal", "=", 0)
            .execute();
          const byProduct = new Map<string, { productName: string; vendorId: string; vendorName: string; cents: number; orders: number; units: number }>();
          const byVendor = new Map<string, { vendorName: string; vendorSlug: string; cents: number; orders: number; units: number }>();
          for (const r of rows) {
            const day = r.created_at.slice(0, 10);
            if (day < from || day > today) continue;
            const p = byProduct.get(r.product_id!) ?? { productName: r.product_name, vendorId: r.vendor_id, vendorName: r.vendor_name, cents: 0, orders: 0, units: 0 };
            p.cents += Number(r.gross_cents);
            p.orders += 1;
            p.units += r.quantity;
            byProduct.set(r.product_id!, p);
            const v = byVendor.get(r.vendor_id) ?? { vendorName: r.vendor_name, vendorSlug: r.slug, cents: 0, orders: 0, units: 0 };
            v.cents += Number(r.gross_cents);
            v.orders += 1;
            v.units += r.quantity;
            byVendor.set(r.vendor_id, v);
          }
          const rank = <T extends { cents: number }>(m: Map<string, T>) => [...m].sort(([a, x], [b, y]) => y.cents - x.cents || (a < b ? 1 : -1)).slice(0, limit);
          const expectedProducts = rank(byProduct).map(([productId, p], i) => ({
            rank: i + 1,
            productId,
            productName: p.productName,
            vendorId: p.vendorId,
            vendorName: p.vendorName,
            revenue: p.cents / 100,
            orders: p.orders,
            units: p.units,
          }));
          const expectedVendors = rank(byVendor).map(([vendorId, v], i) => ({
            rank: i + 1,
            vendorId,
            vendorName: v.vendorName,
            vendorSlug: v.vendorSlug,
            revenue: v.cents / 100,
            orders: v.orders,
            units: v.units,
          }));

          const top = topProductsResponseSchema.parse(await readTop(ctx, "top-products", days, limit));
          expect(top).toEqual({ days, limit, from, to: today, products: expectedProducts });
          const topV = topVendorsResponseSchema.parse(await readTop(ctx, "top-vendors", days, limit));
          expect(topV.vendors).toEqual(expectedVendors);
          expect(await compareRollups(db)).toEqual([]);
        } finally {
          await ctx.close();
        }
      }),
      { numRuns: kind === "sqlite" ? 25 : 8 },
    );
  });
});

async function readTop(ctx: Awaited<ReturnType<typeof createTestContext>>, list: "top-products" | "top-vendors", days: number, limit: number): Promise<unknown> {
  const admin = await ctx.createUser({ email: `a${Math.random().toString(36).slice(2)}@hki.global` });
  const res = await ctx.request(`/api/admin/analytics/${list}?days=${days}&limit=${limit}`, { token: admin.token });
  expect(res.status).toBe(200);
  return res.json();
}
