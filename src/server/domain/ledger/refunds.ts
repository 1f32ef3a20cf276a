import type { Refund } from "../../platform/db/schema.ts";
import { type Executor, inTransaction } from "../../platform/db/executor.ts";
import { artistIdsOf, recordEventOut } from "../outbox/events-out.ts";
import { LedgerError } from "./ledger-error.ts";
import { refundOrderPart } from "./orders.ts";

/**
 * Refunds asked from the panel (docs/product.md "Refunds from the panel", docs/reliability.md
 * "Refunds and disputes"). A refund moves `pending → succeeded | failed | unknown`, `unknown →
 * succeeded | failed`:
 * - `reserveRefund` stores it pending and reserves each line's amount with one conditional update
 *   (`gross_cents - refund_reserved_cents >= amount`), so refunds of one order asked at once can
 *   never together exceed what was paid: the second finds too little left and is refused;
 * - `markRefundSucceeded` releases the reservation and takes the money off through the ledger's
 *   one refund path (`refundOrderPart`: the artist's earnings and the platform's fee), and records
 *   `order.refunded` out, all in one transaction;
 * - `markRefundFailed` (Stripe refused, or listed none past the window) releases the reservation;
 * - `markRefundUnknown`: Stripe may have made it; the reservation stays until Stripe is asked.
 * Every move is conditional on the status read, so doing it twice changes nothing the second time.
 */

export interface RefundLineInput {
  /** The panel's order line. */
  orderId: string;
  amountCents: number;
}

export interface NewRefund {
  id: string;
  paymentIntentId: string;
  externalOrderId: string | null;
  reason: string;
  createdBy: string | null;
  createdByEmail: string;
  createdAt: string;
  lines: RefundLineInput[];
}

/** A line has less left to refund than asked (another refund holds or took it): nothing was stored (409). */
export class RefundExceedsPaid extends LedgerError {
  constructor(
    readonly orderId: string,
    amountCents: number,
  ) {
    super("invalid_state", `Line ${orderId} has less than ${amountCents} cents left to refund`);
  }
}

export function normaliseRefund(r: Refund): Refund {
  return { ...r, amount_cents: Number(r.amount_cents), state_version: Number(r.state_version) };
}

/**
 * Stores a pending refund and reserves each line's amount. A line that is not paid, or has less
 * left than asked (what is paid less what other refunds in progress hold), is refused
 * (RefundExceedsPaid, naming the line) and nothing is stored.
 */
export async function reserveRefund(db: Executor, refund: NewRefund): Promise<Refund> {
  if (refund.lines.length === 0) throw new LedgerError("invalid_input", "A refund needs at least one line");
  for (const l of refund.lines) if (!Number.isInteger(l.amountCents) || l.amountCents <= 0) throw new LedgerError("invalid_input", "Each line's amount must be a positive number of cents");
  return inTransaction(db, async (trx) => {
    for (const l of refund.lines) {
      const reserved = await trx
        .updateTable("orders")
        .set((eb) => ({ refund_reserved_cents: eb("refund_reserved_cents", "+", l.amountCents) }))
        .where("id", "=", l.orderId)
        .where("status", "=", "paid")
        .where((eb) => eb(eb("gross_cents", "-", eb.ref("refund_reserved_cents")), ">=", l.amountCents))
        .executeTakeFirst();
      if (Number(reserved.numUpdatedRows) !== 1) throw new RefundExceedsPaid(l.orderId, l.amountCents);
    }
    const row: Refund = {
      id: refund.id,
      payment_intent_id: refund.paymentIntentId,
      external_order_id: refund.externalOrderId,
      amount_cents: refund.lines.reduce((s, l) => s + l.amountCents, 0),
      reason: refund.reason,
      status: "pending",
      stripe_refund_id: null,
      failure_reason: null,
      created_by: refund.createdBy,
      created_by_email: refund.createdByEmail,
      created_at: refund.createdAt,
      updated_at: refund.createdAt,
      checked_at: null,
      state_version: 0,
    };
    await trx.insertInto("refunds").values(row).execute();
    await trx
      .insertInto("refund_lines")
      .values(refund.lines.map((l) => ({ refund_id: refund.id, order_id: l.orderId, amount_cents: l.amountCents })))
      .execute();
    return row;
  });
}

/** The state version a settle read before asking Stripe: a late answer must not undo a later move. */
export interface RefundReading {
  stateVersion: number;
}

async function moveRefund(db: Executor, id: string, from: Refund["status"][], to: Refund["status"], set: Partial<Refund>, now: string, reading?: RefundReading): Promise<Refund | null> {
  let update = db
    .updateTable("refunds")
    .set((eb) => ({ ...set, status: to, updated_at: now, state_version: eb("state_version", "+", 1) }))
    .where("id", "=", id)
    .where("status", "in", from);
  if (reading) update = update.where("state_version", "=", reading.stateVersion);
  const row = await update.returningAll().executeTakeFirst();
  return row ? normaliseRefund(row) : null;
}

async function releaseReservations(trx: Executor, refundId: string): Promise<Array<{ order_id: string; amount_cents: number }>> {
  const lines = (await trx.selectFrom("refund_lines").select(["order_id", "amount_cents"]).where("refund_id", "=", refundId).orderBy("order_id").execute()).map((l) => ({
    ...l,
    amount_cents: Number(l.amount_cents),
  }));
  for (const l of lines) {
    await trx
      .updateTable("orders")
      .set((eb) => ({ refund_reserved_cents: eb("refund_reserved_cents", "-", l.amount_cents) }))
      .where("id", "=", l.order_id)
      .execute();
  }
  return lines;
}

/**
 * The payout that carried a line to its artist: their first payout made at or after the sale that
 * took money out of the balance (paid, or on its way). Payouts pay the whole balance, so that one
 * included the sale; refunded afterwards, the artist's share comes off their next payout.
 */
export async function payoutThatCarried(
  db: Executor,
  vendorId: string,
  soldAt: string,
): Promise<{ id: string; stripe_transfer_id: string | null; status: string; paid_at: string | null } | undefined> {
  return db
    .selectFrom("payouts")
    .select(["id", "stripe_transfer_id", "status", "paid_at"])
    .where("vendor_id", "=", vendorId)
    .where("created_at", ">=", soldAt)
    .where("status", "in", ["pending", "processing", "unknown", "paid"])
    .orderBy("created_at")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
}

/**
 * pending | unknown → succeeded with Stripe's refund id: the reservation is released and each line
 * is refunded through the ledger (its gross, the platform's fee pro rata, the artist's earnings;
 * netted against the next payout when a payout already carried it), and `order.refunded` is
 * recorded out, in one transaction. A line whose refund the storefront already reported under the
 * same Stripe refund id is not refunded again; a line refunded meanwhile by other means is refunded
 * only up to what it still has paid. Null when the refund was not pending or unknown any more.
 */
export function markRefundSucceeded(db: Executor, refundId: string, stripeRefundId: string, at: string): Promise<Refund | null> {
  return inTransaction(db, async (trx) => {
    const refund = await moveRefund(trx, refundId, ["pending", "unknown"], "succeeded", { stripe_refund_id: stripeRefundId, failure_reason: null, checked_at: at }, at);
    if (!refund) return null;
    const lines = await releaseReservations(trx, refundId);
    const out: Array<{ orderId: string; lineId: string | null; vendorId: string; amountCents: number; nettedPayoutId: string | null }> = [];
    for (const l of lines) {
      const recorded = await trx.selectFrom("order_refunds").select("id").where("order_id", "=", l.order_id).where("external_refund_id", "=", stripeRefundId).executeTakeFirst();
      if (recorded) continue;
      const order = await trx.selectFrom("orders").select(["status", "gross_cents", "vendor_id", "created_at", "external_line_id"]).where("id", "=", l.order_id).executeTakeFirst();
      if (!order || order.status !== "paid") continue;
      const amount = Math.min(l.amount_cents, Number(order.gross_cents));
      if (amount <= 0) continue;
      const carried = await payoutThatCarried(trx, order.vendor_id, order.created_at);
      await refundOrderPart(trx, l.order_id, { refundId: stripeRefundId, amountCents: amount, refundedAt: at, reason: refund.reason, panelRefundId: refundId, nettedPayoutId: carried?.id ?? null });
      out.push({ orderId: l.order_id, lineId: order.external_line_id, vendorId: order.vendor_id, amountCents: amount, nettedPayoutId: carried?.id ?? null });
    }
    const artists = await artistIdsOf(
      trx,
      out.map((o) => o.vendorId),
    );
    await recordEventOut(
      trx,
      "order.refunded",
      {
        refundId,
        stripeRefundId,
        orderId: refund.external_order_id,
        paymentIntentId: refund.payment_intent_id,
        amountCents: out.reduce((s, o) => s + o.amountCents, 0),
        reason: refund.reason,
        lines: out.map((o) => ({
          orderLineId: o.orderId,
          lineId: o.lineId,
          vendorId: o.vendorId,
          artistId: artists.get(o.vendorId) ?? null,
          amountCents: o.amountCents,
          nettedFromNextPayout: o.nettedPayoutId !== null,
        })),
      },
      at,
    );
    return refund;
  });
}

/**
 * pending | unknown → failed: Stripe refused it, or listed no refund for it past the window. The
 * reservation is released (the amount can be refunded again, by a new refund with a new key).
 * With `reading`, only if the refund is still at the state version read before Stripe was asked.
 */
export function markRefundFailed(db: Executor, refundId: string, reason: string, at: string, reading?: RefundReading): Promise<Refund | null> {
  return inTransaction(db, async (trx) => {
    const refund = await moveRefund(trx, refundId, ["pending", "unknown"], "failed", { failure_reason: reason.slice(0, 500), checked_at: at }, at, reading);
    if (!refund) return null;
    await releaseReservations(trx, refundId);
    return refund;
  });
}

/** pending → unknown: no definite answer; the amount stays reserved until Stripe is asked. */
export function markRefundUnknown(db: Executor, refundId: string, reason: string, at: string): Promise<Refund | null> {
  return moveRefund(db, refundId, ["pending"], "unknown", { failure_reason: reason.slice(0, 500) }, at);
}

/** Stripe took the refund and has not finished it (card network): its id is kept, the refund stays pending until listed as done. */
export async function notePendingAtStripe(db: Executor, refundId: string, stripeRefundId: string, at: string): Promise<void> {
  await db.updateTable("refunds").set({ stripe_refund_id: stripeRefundId, checked_at: at }).where("id", "=", refundId).where("status", "in", ["pending", "unknown"]).execute();
}

/** Notes when Stripe was last asked about a refund (nothing else moves). */
export async function markRefundChecked(db: Executor, refundId: string, at: string): Promise<void> {
  await db.updateTable("refunds").set({ checked_at: at }).where("id", "=", refundId).execute();
}
