import type { Executor } from "../../platform/db/executor.ts";

/**
 * The rows behind an artist's statement (docs/product.md §15.8): the artist's order lines with
 * their refunds, payouts, dispute lines and subscriptions, each read through the artist's own
 * indexes (orders by vendor, payouts by vendor, dispute lines by vendor, subscriptions by vendor).
 */

export interface StatementOrderRow {
  id: string;
  created_at: string;
  updated_at: string;
  status: "paid" | "refunded" | "cancelled";
  product_name: string;
  quantity: number;
  gross_cents: number;
  fee_cents: number;
  fee_rate_basis_points: number;
  external_order_id: string | null;
  external_line_id: string | null;
}

export interface StatementRefundRow {
  id: string;
  order_id: string;
  external_refund_id: string;
  amount_cents: number;
  refunded_at: string;
  netted_payout_id: string | null;
}

export async function readArtistOrders(db: Executor, vendorId: string): Promise<StatementOrderRow[]> {
  const rows = await db
    .selectFrom("orders")
    .select(["id", "created_at", "updated_at", "status", "product_name", "quantity", "gross_cents", "fee_cents", "fee_rate_basis_points", "external_order_id", "external_line_id"])
    .where("vendor_id", "=", vendorId)
    .execute();
  return rows.map((r) => ({ ...r, quantity: Number(r.quantity), gross_cents: Number(r.gross_cents), fee_cents: Number(r.fee_cents), fee_rate_basis_points: Number(r.fee_rate_basis_points) }));
}

export async function readArtistRefunds(db: Executor, vendorId: string): Promise<StatementRefundRow[]> {
  const rows = await db
    .selectFrom("order_refunds as r")
    .innerJoin("orders as o", "o.id", "r.order_id")
    .select(["r.id", "r.order_id", "r.external_refund_id", "r.amount_cents", "r.refunded_at", "r.netted_payout_id"])
    .where("o.vendor_id", "=", vendorId)
    .execute();
  return rows.map((r) => ({ ...r, amount_cents: Number(r.amount_cents) }));
}

export async function readArtistPayouts(db: Executor, vendorId: string) {
  const rows = await db
    .selectFrom("payouts")
    .select(["id", "status", "amount_cents", "reversed_cents", "stripe_transfer_id", "created_at", "updated_at", "paid_at", "failure_reason"])
    .where("vendor_id", "=", vendorId)
    .execute();
  return rows.map((r) => ({ ...r, amount_cents: Number(r.amount_cents), reversed_cents: Number(r.reversed_cents ?? 0) }));
}

export async function readArtistDisputeLines(db: Executor, vendorId: string) {
  const rows = await db
    .selectFrom("dispute_lines as l")
    .innerJoin("disputes as d", "d.id", "l.dispute_id")
    .select(["d.id", "d.outcome", "d.reason", "d.opened_at", "d.closed_at", "d.external_order_id", "l.order_id", "l.held_cents", "l.fee_cents"])
    .where("l.vendor_id", "=", vendorId)
    .execute();
  return rows.map((r) => ({ ...r, held_cents: Number(r.held_cents), fee_cents: Number(r.fee_cents) }));
}

export async function readArtistSubscriptions(db: Executor, vendorId: string) {
  const rows = await db.selectFrom("subscriptions").select(["id", "plan", "monthly_fee_cents", "started_at", "cancelled_at"]).where("vendor_id", "=", vendorId).execute();
  return rows.map((r) => ({ ...r, monthly_fee_cents: Number(r.monthly_fee_cents) }));
}
