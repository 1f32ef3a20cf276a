import type { Dispute, DisputeOutcome } from "../../platform/db/schema.ts";
import { type Executor, inTransaction } from "../../platform/db/executor.ts";
import { feeCents, refundOrderPart } from "./orders.ts";
import { addToPayoutAccount } from "./payouts.ts";

/**
 * Stripe disputes of a charge (docs/product.md "Disputes", docs/reliability.md "Refunds and
 * disputes"), attached to the order lines paid by the charge, kept in the same transaction as the
 * artists' balances:
 * - opened: the disputed amount is split over the lines pro rata to what each has paid (whole
 *   cents, the remainder a cent at a time to the lines in order); each line's artist share (what
 *   their earnings would lose if that part went back: the part less the fee on it, as the refund
 *   path computes it) is held out of their balance, so no payout includes it;
 * - won (or an inquiry closed): the hold is released, the balance as before;
 * - lost: the hold is released and each line's part goes back through the ledger's one refund
 *   path (`refundOrderPart`, refund id the dispute's), and Stripe's dispute fee is charged to the
 *   artists, split as the amount, when the 'Dispute fee paid by' setting says artist.
 * Every move is conditional on the outcome read (open → won | lost once), and an event older than
 * the state applied is stale, so a repeated or late event changes nothing.
 */

export interface DisputeFacts {
  id: string;
  chargeId: string;
  paymentIntentId: string | null;
  /** Stripe's status: warning_needs_response, warning_under_review, warning_closed, needs_response, under_review, won, lost. */
  status: string;
  reason: string;
  amountCents: number;
  currency: string;
  evidenceDueBy: string | null;
  /** Stripe's dispute fee (its balance transactions' fees). */
  feeCents: number;
  openedAt: string;
  /** When Stripe made the event: the state's time. */
  asOf: string;
}

export type DisputeChange = "opened" | "updated" | "won" | "lost" | "stale" | "no_order";

/** What a Stripe status means for the money: won/lost close it; an inquiry closed without a chargeback is won. */
export function outcomeOfStatus(status: string): DisputeOutcome {
  if (status === "won" || status === "warning_closed") return "won";
  if (status === "lost") return "lost";
  return "open";
}

/** `amount` split over `weights` pro rata in whole cents (the remainder a cent at a time to the first), each at most its weight. */
export function splitPro(amount: number, weights: readonly number[]): number[] {
  const total = weights.reduce((s, w) => s + w, 0);
  const capped = Math.min(amount, total);
  if (total <= 0) return weights.map(() => 0);
  const parts = weights.map((w) => Math.floor((capped * w) / total));
  let rest = capped - parts.reduce((s, p) => s + p, 0);
  for (let i = 0; rest > 0 && i < parts.length * 2; i++) {
    const k = i % parts.length;
    if (parts[k]! < weights[k]!) {
      parts[k]! += 1;
      rest -= 1;
    }
  }
  return parts;
}

/** What the artist's earnings lose when `part` of a line paid `gross` (fee at `rate`) goes back: as refundOrderPart moves them. */
export function artistShareOf(gross: number, fee: number, rate: number, part: number): number {
  const remaining = gross - part;
  return gross - fee - (remaining - feeCents(remaining, rate));
}

interface ChargeLine {
  id: string;
  vendor_id: string;
  gross_cents: number;
  fee_cents: number;
  fee_rate_basis_points: number;
  external_order_id: string | null;
}

async function linesOfCharge(trx: Executor, chargeId: string, paymentIntentId: string | null): Promise<ChargeLine[]> {
  let rows = await trx
    .selectFrom("orders")
    .select(["id", "vendor_id", "gross_cents", "fee_cents", "fee_rate_basis_points", "external_order_id"])
    .where("charge_id", "=", chargeId)
    .where("status", "=", "paid")
    .orderBy("external_line_id")
    .orderBy("id")
    .execute();
  if (rows.length === 0 && paymentIntentId !== null) {
    rows = await trx
      .selectFrom("orders")
      .select(["id", "vendor_id", "gross_cents", "fee_cents", "fee_rate_basis_points", "external_order_id"])
      .where("payment_intent_id", "=", paymentIntentId)
      .where("status", "=", "paid")
      .orderBy("external_line_id")
      .orderBy("id")
      .execute();
  }
  return rows.map((r) => ({ ...r, gross_cents: Number(r.gross_cents), fee_cents: Number(r.fee_cents), fee_rate_basis_points: Number(r.fee_rate_basis_points) }));
}

export function normaliseDispute(d: Dispute): Dispute {
  return { ...d, amount_cents: Number(d.amount_cents), fee_cents: Number(d.fee_cents) };
}

/**
 * Applies one state of a Stripe dispute: opens it (holding the artists' shares) the first time it
 * is seen, keeps its status and evidence date current, and closes it once (won: released; lost:
 * released and taken off through the refund path, the fee to the artists if `feePaidBy` says so).
 * `no_order` when the charge paid no order line of the panel that is still paid.
 */
export function applyDisputeState(db: Executor, facts: DisputeFacts, feePaidBy: "platform" | "artist", at: string): Promise<{ change: DisputeChange; dispute: Dispute | null }> {
  return inTransaction(db, async (trx) => {
    let current = await trx.selectFrom("disputes").selectAll().where("id", "=", facts.id).executeTakeFirst();
    if (current && current.as_of > facts.asOf) return { change: "stale" as const, dispute: normaliseDispute(current) };
    let change: DisputeChange = "updated";
    if (!current) {
      const lines = await linesOfCharge(trx, facts.chargeId, facts.paymentIntentId);
      if (lines.length === 0) return { change: "no_order" as const, dispute: null };
      const parts = splitPro(
        facts.amountCents,
        lines.map((l) => l.gross_cents),
      );
      const row: Dispute = {
        id: facts.id,
        charge_id: facts.chargeId,
        payment_intent_id: facts.paymentIntentId,
        external_order_id: lines[0]!.external_order_id,
        status: facts.status,
        outcome: "open",
        reason: facts.reason,
        amount_cents: facts.amountCents,
        currency: facts.currency,
        evidence_due_by: facts.evidenceDueBy,
        fee_cents: 0,
        fee_paid_by: null,
        opened_at: facts.openedAt,
        closed_at: null,
        as_of: facts.asOf,
      };
      await trx.insertInto("disputes").values(row).execute();
      for (const [i, l] of lines.entries()) {
        const part = parts[i]!;
        const held = part > 0 ? artistShareOf(l.gross_cents, l.fee_cents, l.fee_rate_basis_points, part) : 0;
        await trx.insertInto("dispute_lines").values({ dispute_id: facts.id, order_id: l.id, vendor_id: l.vendor_id, amount_cents: part, held_cents: held, lost_cents: 0, fee_cents: 0 }).execute();
        await addToPayoutAccount(trx, l.vendor_id, { heldCents: held });
        await trx.updateTable("orders").set({ dispute_open: 1 }).where("id", "=", l.id).execute();
      }
      current = row;
      change = "opened";
    } else {
      await trx.updateTable("disputes").set({ status: facts.status, reason: facts.reason, evidence_due_by: facts.evidenceDueBy, as_of: facts.asOf }).where("id", "=", facts.id).execute();
    }
    const target = outcomeOfStatus(facts.status);
    if (target !== "open") {
      const fee = target === "lost" ? facts.feeCents : 0;
      const closed = await trx
        .updateTable("disputes")
        .set({ outcome: target, status: facts.status, closed_at: at, fee_cents: fee, fee_paid_by: target === "lost" ? feePaidBy : null, as_of: facts.asOf })
        .where("id", "=", facts.id)
        .where("outcome", "=", "open")
        .executeTakeFirst();
      if (Number(closed.numUpdatedRows) === 1) {
        change = target;
        await closeLines(trx, facts.id, target, fee, feePaidBy, facts.reason, at);
      }
    }
    const after = await trx.selectFrom("disputes").selectAll().where("id", "=", facts.id).executeTakeFirstOrThrow();
    return { change, dispute: normaliseDispute(after) };
  });
}

async function closeLines(trx: Executor, disputeId: string, outcome: "won" | "lost", feeCentsTotal: number, feePaidBy: "platform" | "artist", reason: string, at: string): Promise<void> {
  const lines = (await trx.selectFrom("dispute_lines").selectAll().where("dispute_id", "=", disputeId).orderBy("order_id").execute()).map((l) => ({
    ...l,
    amount_cents: Number(l.amount_cents),
    held_cents: Number(l.held_cents),
  }));
  const fees =
    outcome === "lost" && feePaidBy === "artist"
      ? splitPro(
          feeCentsTotal,
          lines.map((l) => l.amount_cents),
        )
      : lines.map(() => 0);
  for (const [i, l] of lines.entries()) {
    await addToPayoutAccount(trx, l.vendor_id, { heldCents: -l.held_cents });
    const stillOpen = await trx
      .selectFrom("dispute_lines as o")
      .innerJoin("disputes as d", "d.id", "o.dispute_id")
      .select("d.id")
      .where("o.order_id", "=", l.order_id)
      .where("d.outcome", "=", "open")
      .limit(1)
      .executeTakeFirst();
    if (!stillOpen) await trx.updateTable("orders").set({ dispute_open: 0 }).where("id", "=", l.order_id).execute();
    if (outcome === "won") continue;
    const order = await trx.selectFrom("orders").select(["status", "gross_cents"]).where("id", "=", l.order_id).executeTakeFirst();
    const lost = order && order.status === "paid" ? Math.min(l.amount_cents, Number(order.gross_cents)) : 0;
    if (lost > 0) await refundOrderPart(trx, l.order_id, { refundId: disputeId, amountCents: lost, refundedAt: at, reason: `Dispute lost: ${reason}` });
    const fee = fees[i]!;
    if (fee > 0) await addToPayoutAccount(trx, l.vendor_id, { chargedCents: fee });
    await trx.updateTable("dispute_lines").set({ lost_cents: lost, fee_cents: fee }).where("dispute_id", "=", disputeId).where("order_id", "=", l.order_id).execute();
  }
}
