import type { Executor } from "../../platform/db/executor.ts";
import type { Refund } from "../../platform/db/schema.ts";
import { normaliseRefund } from "../../domain/ledger/refunds.ts";

/** The SQL of refunds from the panel (docs/product.md "Refunds from the panel"); the ledger writes them (domain/ledger/refunds.ts). */

/** A line of a storefront order as a refund needs it. */
export interface RefundableLine {
  id: string;
  vendor_id: string;
  status: "paid" | "refunded" | "cancelled";
  gross_cents: number;
  refund_reserved_cents: number;
  payment_intent_id: string | null;
  external_order_id: string | null;
  external_line_id: string | null;
  created_at: string;
}

const LINE_COLUMNS = ["id", "vendor_id", "status", "gross_cents", "refund_reserved_cents", "payment_intent_id", "external_order_id", "external_line_id", "created_at"] as const;

const normaliseLine = (r: RefundableLine): RefundableLine => ({ ...r, gross_cents: Number(r.gross_cents), refund_reserved_cents: Number(r.refund_reserved_cents) });

export async function findRefundableLine(db: Executor, id: string): Promise<RefundableLine | undefined> {
  const row = await db.selectFrom("orders").select(LINE_COLUMNS).where("id", "=", id).executeTakeFirst();
  return row ? normaliseLine(row) : undefined;
}

/** Every line of one storefront order, through its index (migration 023). */
export async function readRefundableLines(db: Executor, externalOrderId: string): Promise<RefundableLine[]> {
  const rows = await db.selectFrom("orders").select(LINE_COLUMNS).where("external_order_id", "=", externalOrderId).orderBy("external_line_id").orderBy("id").execute();
  return rows.map(normaliseLine);
}

export async function findRefund(db: Executor, id: string): Promise<Refund | undefined> {
  const row = await db.selectFrom("refunds").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? normaliseRefund(row) : undefined;
}

export interface RefundWithLines {
  refund: Refund;
  lines: Array<{ order_id: string; amount_cents: number }>;
}

/** The panel's refunds of one payment intent (its index), newest first, each with its lines. */
export async function readRefundsOfPayment(db: Executor, paymentIntentId: string): Promise<RefundWithLines[]> {
  const refunds = (await db.selectFrom("refunds").selectAll().where("payment_intent_id", "=", paymentIntentId).orderBy("created_at", "desc").orderBy("id", "desc").limit(200).execute()).map(
    normaliseRefund,
  );
  if (refunds.length === 0) return [];
  const lines = await db
    .selectFrom("refund_lines")
    .select(["refund_id", "order_id", "amount_cents"])
    .where(
      "refund_id",
      "in",
      refunds.map((r) => r.id),
    )
    .execute();
  return refunds.map((refund) => ({
    refund,
    lines: lines.filter((l) => l.refund_id === refund.id).map((l) => ({ order_id: l.order_id, amount_cents: Number(l.amount_cents) })),
  }));
}

/** The lines of one panel refund. */
export async function readRefundLines(db: Executor, refundId: string): Promise<RefundWithLines["lines"]> {
  const rows = await db.selectFrom("refund_lines").select(["order_id", "amount_cents"]).where("refund_id", "=", refundId).orderBy("order_id").execute();
  return rows.map((l) => ({ order_id: l.order_id, amount_cents: Number(l.amount_cents) }));
}

/** Refunds whose outcome is not settled (pending or unknown), by id after `after`, up to `limit`. */
export async function unsettledRefunds(db: Executor, after: string | null, limit: number): Promise<Refund[]> {
  let q = db.selectFrom("refunds").selectAll().where("status", "in", ["pending", "unknown"]);
  if (after !== null) q = q.where("id", ">", after);
  return (await q.orderBy("id").limit(limit).execute()).map(normaliseRefund);
}

/** The order line's part refunds with who made them from the panel and whether they were netted. */
export interface LineRefundRow {
  external_refund_id: string;
  amount_cents: number;
  refunded_at: string;
  reason: string | null;
  panel_refund_id: string | null;
  netted_payout_id: string | null;
  created_by_email: string | null;
}

export async function readLineRefunds(db: Executor, orderId: string): Promise<LineRefundRow[]> {
  const rows = await db
    .selectFrom("order_refunds as r")
    .leftJoin("refunds as p", "p.id", "r.panel_refund_id")
    .select(["r.external_refund_id", "r.amount_cents", "r.refunded_at", "r.reason", "r.panel_refund_id", "r.netted_payout_id", "p.created_by_email"])
    .where("r.order_id", "=", orderId)
    .orderBy("r.refunded_at")
    .orderBy("r.id")
    .execute();
  return rows.map((r) => ({ ...r, amount_cents: Number(r.amount_cents) }));
}

export interface LineDisputeRow {
  id: string;
  status: string;
  outcome: "open" | "won" | "lost";
  reason: string;
  amount_cents: number;
  line_amount_cents: number;
  held_cents: number;
  fee_cents: number;
  evidence_due_by: string | null;
  opened_at: string;
  closed_at: string | null;
}

/** The disputes of one order line (its index), newest first. */
export async function readLineDisputes(db: Executor, orderId: string): Promise<LineDisputeRow[]> {
  const rows = await db
    .selectFrom("dispute_lines as l")
    .innerJoin("disputes as d", "d.id", "l.dispute_id")
    .select(["d.id", "d.status", "d.outcome", "d.reason", "d.amount_cents", "l.amount_cents as line_amount_cents", "l.held_cents", "l.fee_cents", "d.evidence_due_by", "d.opened_at", "d.closed_at"])
    .where("l.order_id", "=", orderId)
    .orderBy("d.opened_at", "desc")
    .execute();
  return rows.map((r) => ({ ...r, amount_cents: Number(r.amount_cents), line_amount_cents: Number(r.line_amount_cents), held_cents: Number(r.held_cents), fee_cents: Number(r.fee_cents) }));
}
