import type { Executor } from "../../platform/db/executor.ts";

/**
 * Additive upserts into the rollup tables. Each call adds deltas (negative to take a refund, a
 * cancellation or a deletion back out), creating the row at the deltas when missing, with
 * `insert ... on conflict do update` which SQLite and PostgreSQL both understand.
 */

export interface SalesDeltas {
  grossCents?: number;
  orders?: number;
  feesCents?: number;
  itemsSold?: number;
}

export interface PlatformDayDeltas extends SalesDeltas {
  newVendors?: number;
  newProducts?: number;
  /** Gross of orders refunded that day (counted on the refund's day). */
  refundsCents?: number;
  /** Payouts paid that day. */
  payoutsCents?: number;
  /** Monthly fees of subscriptions started that day minus those cancelled that day. */
  mrrChangeCents?: number;
}

export interface VendorTotalsDeltas extends SalesDeltas {
  listedProducts?: number;
  visits?: number;
}

function isZero(d: object): boolean {
  return Object.values(d).every((v) => v === undefined || v === 0);
}

/**
 * Per-day platform totals: sales of paid orders plus vendors joined and products created that day,
 * refunds, payouts and the change of monthly recurring revenue that day.
 */
export async function addToDailyPlatformTotals(db: Executor, day: string, d: PlatformDayDeltas): Promise<void> {
  if (isZero(d)) return;
  await db
    .insertInto("daily_platform_totals")
    .values({
      day,
      gross_cents: d.grossCents ?? 0,
      orders: d.orders ?? 0,
      fees_cents: d.feesCents ?? 0,
      items_sold: d.itemsSold ?? 0,
      new_vendors: d.newVendors ?? 0,
      new_products: d.newProducts ?? 0,
      refunds_cents: d.refundsCents ?? 0,
      payouts_cents: d.payoutsCents ?? 0,
      mrr_change_cents: d.mrrChangeCents ?? 0,
    })
    .onConflict((oc) =>
      oc.column("day").doUpdateSet((eb) => ({
        gross_cents: eb("daily_platform_totals.gross_cents", "+", eb.ref("excluded.gross_cents")),
        orders: eb("daily_platform_totals.orders", "+", eb.ref("excluded.orders")),
        fees_cents: eb("daily_platform_totals.fees_cents", "+", eb.ref("excluded.fees_cents")),
        items_sold: eb("daily_platform_totals.items_sold", "+", eb.ref("excluded.items_sold")),
        new_vendors: eb("daily_platform_totals.new_vendors", "+", eb.ref("excluded.new_vendors")),
        new_products: eb("daily_platform_totals.new_products", "+", eb.ref("excluded.new_products")),
        refunds_cents: eb("daily_platform_totals.refunds_cents", "+", eb.ref("excluded.refunds_cents")),
        payouts_cents: eb("daily_platform_totals.payouts_cents", "+", eb.ref("excluded.payouts_cents")),
        mrr_change_cents: eb("daily_platform_totals.mrr_change_cents", "+", eb.ref("excluded.mrr_change_cents")),
      })),
    )
    .execute();
}

/** Per-vendor per-day sales of paid orders (vendor sales charts, conversion by period). */
export async function addToDailyVendorTotals(db: Executor, vendorId: string, day: string, d: SalesDeltas): Promise<void> {
  if (isZero(d)) return;
  await db
    .insertInto("daily_vendor_totals")
    .values({
      vendor_id: vendorId,
      day,
      gross_cents: d.grossCents ?? 0,
      orders: d.orders ?? 0,
      fees_cents: d.feesCents ?? 0,
      items_sold: d.itemsSold ?? 0,
    })
    .onConflict((oc) =>
      oc.columns(["vendor_id", "day"]).doUpdateSet((eb) => ({
        gross_cents: eb("daily_vendor_totals.gross_cents", "+", eb.ref("excluded.gross_cents")),
        orders: eb("daily_vendor_totals.orders", "+", eb.ref("excluded.orders")),
        fees_cents: eb("daily_vendor_totals.fees_cents", "+", eb.ref("excluded.fees_cents")),
        items_sold: eb("daily_vendor_totals.items_sold", "+", eb.ref("excluded.items_sold")),
      })),
    )
    .execute();
}

/**
 * Lifetime per-vendor totals. `saleAt`, when given, moves last_sale_at forward if it is newer
 * (a CASE rather than max()/greatest(), which differ between SQLite and PostgreSQL).
 */
export async function addToVendorTotals(db: Executor, vendorId: string, d: VendorTotalsDeltas, saleAt?: string): Promise<void> {
  if (isZero(d) && saleAt === undefined) return;
  await db
    .insertInto("vendor_totals")
    .values({
      vendor_id: vendorId,
      listed_products: d.listedProducts ?? 0,
      gross_cents: d.grossCents ?? 0,
      orders: d.orders ?? 0,
      fees_cents: d.feesCents ?? 0,
      items_sold: d.itemsSold ?? 0,
      visits: d.visits ?? 0,
      last_sale_at: saleAt ?? null,
    })
    .onConflict((oc) =>
      oc.column("vendor_id").doUpdateSet((eb) => ({
        listed_products: eb("vendor_totals.listed_products", "+", eb.ref("excluded.listed_products")),
        gross_cents: eb("vendor_totals.gross_cents", "+", eb.ref("excluded.gross_cents")),
        orders: eb("vendor_totals.orders", "+", eb.ref("excluded.orders")),
        fees_cents: eb("vendor_totals.fees_cents", "+", eb.ref("excluded.fees_cents")),
        items_sold: eb("vendor_totals.items_sold", "+", eb.ref("excluded.items_sold")),
        visits: eb("vendor_totals.visits", "+", eb.ref("excluded.visits")),
        last_sale_at: eb
          .case()
          .when(eb.or([eb("vendor_totals.last_sale_at", "is", null), eb("vendor_totals.last_sale_at", "<", eb.ref("excluded.last_sale_at"))]))
          .then(eb.ref("excluded.last_sale_at"))
          .else(eb.ref("vendor_totals.last_sale_at"))
          .end(),
      })),
    )
    .execute();
}

/**
 * Sets last_sale_at to the newest paid order of the vendor, after the newest one was refunded or
 * cancelled. Walks orders_vendor_created_idx backwards from the newest order: an index seek.
 */
export async function refreshLastSaleAt(db: Executor, vendorId: string): Promise<void> {
  const newest = await db.selectFrom("orders").select("created_at").where("vendor_id", "=", vendorId).where("status", "=", "paid").orderBy("created_at", "desc").limit(1).executeTakeFirst();
  await db
    .updateTable("vendor_totals")
    .set({ last_sale_at: newest?.created_at ?? null })
    .where("vendor_id", "=", vendorId)
    .execute();
}
