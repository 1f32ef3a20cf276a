import type { Kysely } from "kysely";
import type { Clock } from "../platform/clock.ts";
import type { DB } from "../platform/db/schema.ts";
import { cancelOrder, placeOrder, refundOrder } from "../domain/ledger/orders.ts";
import { createProduct } from "../domain/ledger/products.ts";
import { cancelSubscription, startSubscription } from "../domain/ledger/subscriptions.ts";
import { createVendor } from "../domain/ledger/vendors.ts";

/**
 * A small fixed platform for the dashboard and analytics tests, written through the ledger (so the
 * rollups are the real ones), with "now" = FIXTURE_NOW, the first day of a month. The expected
 * figures in the tests are computed by hand from the list below:
 *
 * vendors   V1 Alpha Art   active            joined 2026-10-15T09:00Z
 *           V2 Beta Prints inactive          joined 2026-11-20T10:00Z
 *           V3 HKI House   active, internal  joined 2026-12-01T08:00Z
 * products  P1 Sunset Canvas (V1) listed $100 created 2026-11-01T00:00Z
 *           P2 Draft Sketch  (V1) draft  $50  created 2026-11-25T00:00Z
 *           P3 House Mug     (V3) listed $20  created 2026-12-01T09:00Z
 * subs      V1 $29.99 active, V2 $19.99 cancelled, V3 $49.99 active
 * orders    O6 P1 $100    2026-11-01T05:00Z fee 1.0 % = $1.00
 *           O5 P1 $100    2026-11-24T12:00Z fee 1.5 % = $1.50
 *           O7 P1 $100    2026-11-28T10:00Z cancelled
 *           O1 P1 $100    2026-11-30T23:59Z fee 1.5 % = $1.50   (one minute before the month ends)
 *           O2 P1 2×$100  2026-12-01T00:00Z fee 2.5 % = $5.00   (the first instant of the month)
 *           O3 P3 $20     2026-12-01T11:00Z refunded
 *           O4 P3 3×$20   2026-12-01T11:30Z fee 1.5 % = $0.90   (an internal vendor's sale)
 * and finally the fee setting is changed to 2.5 %, which must not change any recorded fee.
 */
export const FIXTURE_NOW = "2026-12-01T12:00:00.000Z";

export async function buildPlatformFixture(db: Kysely<DB>, clock: Clock): Promise<void> {
  const v1 = await createVendor(db, { name: "Alpha Art", ownerName: "Ann", email: "ann@alpha.test", slug: "alpha-art", joinedAt: "2026-10-15T09:00:00Z" }, clock);
  const v2 = await createVendor(db, { name: "Beta Prints", ownerName: "Ben", email: "ben@beta.test", slug: "beta-prints", isActive: false, joinedAt: "2026-11-20T10:00:00Z" }, clock);
  const v3 = await createVendor(db, { name: "HKI House", ownerName: "HKI", email: "house@hki.global", slug: "hki-house", isInternal: true, joinedAt: "2026-12-01T08:00:00Z" }, clock);
  const p1 = await createProduct(db, { vendorId: v1.id, name: "Sunset Canvas", priceCents: 10_000, createdAt: "2026-11-01T00:00:00Z" }, clock);
  await createProduct(db, { vendorId: v1.id, name: "Draft Sketch", priceCents: 5_000, status: "draft", createdAt: "2026-11-25T00:00:00Z" }, clock);
  const p3 = await createProduct(db, { vendorId: v3.id, name: "House Mug", priceCents: 2_000, createdAt: "2026-12-01T09:00:00Z" }, clock);

  await startSubscription(db, { vendorId: v1.id, plan: "monthly", monthlyFeeCents: 2999, startedAt: "2026-10-15T09:00:00Z" }, clock);
  const s2 = await startSubscription(db, { vendorId: v2.id, plan: "monthly", monthlyFeeCents: 1999, startedAt: "2026-11-20T10:00:00Z" }, clock);
  await cancelSubscription(db, s2.id, clock, "2026-11-21T10:00:00Z");
  await startSubscription(db, { vendorId: v3.id, plan: "monthly", monthlyFeeCents: 4999, startedAt: "2026-12-01T08:00:00Z" }, clock);

  const order = (productId: string, vendorId: string, quantity: number, feeRateBasisPoints: number, createdAt: string) =>
    placeOrder(db, { vendorId, productId, quantity, feeRateBasisPoints, createdAt }, clock);
  await order(p1.id, v1.id, 1, 100, "2026-11-01T05:00:00Z");
  await order(p1.id, v1.id, 1, 150, "2026-11-24T12:00:00Z");
  const o7 = await order(p1.id, v1.id, 1, 150, "2026-11-28T10:00:00Z");
  await cancelOrder(db, o7.id, clock);
  await order(p1.id, v1.id, 1, 150, "2026-11-30T23:59:00Z");
  await order(p1.id, v1.id, 2, 250, "2026-12-01T00:00:00Z");
  const o3 = await order(p3.id, v3.id, 1, 150, "2026-12-01T11:00:00Z");
  await refundOrder(db, o3.id, clock);
  await order(p3.id, v3.id, 3, 150, "2026-12-01T11:30:00Z");

  await db.updateTable("platform_settings").set({ value: "2.5" }).where("key", "=", "platform_fee_percentage").execute();
}
