import type { Executor } from "../../platform/db/executor.ts";

/**
 * The top lists' reads (docs/decisions/0013-top-lists.md): one walk of the period totals' index
 * (period_days, gross_cents, id) backwards, LIMIT n, with the names joined by primary key. The
 * totals hold only non-internal vendors' sales and never a row at nothing.
 */

export function selectTopProducts(db: Executor, period: number, limit: number) {
  return db
    .selectFrom("product_period_totals as t")
    .innerJoin("products as p", "p.id", "t.product_id")
    .innerJoin("vendors as v", "v.id", "t.vendor_id")
    .select(["t.product_id", "p.name as product_name", "t.vendor_id", "v.name as vendor_name", "t.gross_cents", "t.orders", "t.units"])
    .where("t.period_days", "=", period)
    .orderBy("t.period_days", "desc")
    .orderBy("t.gross_cents", "desc")
    .orderBy("t.product_id", "desc")
    .limit(limit)
    .execute();
}

export function selectTopVendors(db: Executor, period: number, limit: number) {
  return db
    .selectFrom("vendor_period_totals as t")
    .innerJoin("vendors as v", "v.id", "t.vendor_id")
    .select(["t.vendor_id", "v.name as vendor_name", "v.slug as vendor_slug", "t.gross_cents", "t.orders", "t.units"])
    .where("t.period_days", "=", period)
    .orderBy("t.period_days", "desc")
    .orderBy("t.gross_cents", "desc")
    .orderBy("t.vendor_id", "desc")
    .limit(limit)
    .execute();
}
