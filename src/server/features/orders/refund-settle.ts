import type { AppDeps } from "../../platform/request/app-env.ts";
import { recordAudit } from "../../domain/audit/audit-log.ts";
import { inTransaction } from "../../platform/db/executor.ts";
import type { Refund } from "../../platform/db/schema.ts";
import type { Actor } from "../../platform/identity/actor.ts";
import { markRefundChecked, markRefundFailed, markRefundSucceeded, notePendingAtStripe } from "../../domain/ledger/refunds.ts";
import { type RefundFacts, type RefundProvider, RefundProviderError } from "../../platform/stripe/stripe-refunds.ts";
import { findRefund, unsettledRefunds } from "./refunds.queries.ts";

/**
 * Settling refunds whose outcome is not recorded (docs/reliability.md "Refunds and disputes").
 * Stripe keeps a request's answer under its idempotency key, a 500 included, so asking again
 * cannot settle a refund that Stripe made but answered with a 5xx (or never answered): only asking
 * what exists can. Every refund carries the panel's refund id as `metadata.refund_id`, so listing
 * the payment intent's refunds finds it. Never a second refund: the panel asks Stripe to refund
 * once per refund id, and a refund found absent is failed (the operator may ask a new one).
 */

export type RefundSettleOutcome = "succeeded" | "failed" | "unsettled";

export interface RefundSettleResult {
  outcome: RefundSettleOutcome;
  message: string;
  refund: Refund;
}

/** Stripe's refund for this panel refund, if it lists one (the oldest, should there be several). */
function refundOf(r: Refund, listed: RefundFacts[]): RefundFacts | undefined {
  return listed.filter((f) => f.metadata.refund_id === r.id).sort((a, b) => a.created - b.created || a.id.localeCompare(b.id))[0];
}

const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * Which audit row a settle writes: none (the settle at once after the request, whose own row
 * stands), one system row when it settles the refund (the scheduled settle), or one row of the
 * operator's 'Check with Stripe' whatever the answer.
 */
export type RefundSettleAudit = "none" | "when-settled" | { actor: Actor };

/**
 * Asks Stripe about one pending or unknown refund and records the answer:
 * - Stripe lists a refund carrying its id: succeeded (through the ledger), failed (Stripe's
 *   reason), or still pending at Stripe (its id noted);
 * - it lists none and the last move is older than `windowMs`: failed, the reservation released,
 *   written only if the refund is still at the state version read before the list was asked;
 * - it lists none yet within the window: unchanged (a list can lag a create).
 * `audit` says which audit row it writes (RefundSettleAudit), in the same transaction as the move.
 * Only ever lists: never asks Stripe to refund. Throws RefundProviderError when Stripe cannot
 * answer (nothing is changed then).
 */
export async function settleRefund(deps: Pick<AppDeps, "database" | "clock">, provider: RefundProvider, refund: Refund, windowMs: number, audit: RefundSettleAudit): Promise<RefundSettleResult> {
  const now = deps.clock.now();
  const at = now.toISOString();
  const listed = await provider.listRefunds(refund.payment_intent_id);
  const found = refundOf(refund, listed);
  const sinceLastMove = now.getTime() - Date.parse(refund.updated_at);
  return inTransaction(deps.database.db, async (trx) => {
    let outcome: RefundSettleOutcome = "unsettled";
    let message: string;
    if (found?.state === "succeeded") {
      const moved = await markRefundSucceeded(trx, refund.id, found.id, at);
      outcome = moved ? "succeeded" : "unsettled";
      message = moved ? `Stripe made the refund ${found.id} of ${usd(found.amountCents)}` : "The refund changed meanwhile";
    } else if (found?.state === "failed") {
      const moved = await markRefundFailed(trx, refund.id, `Stripe: the refund ${found.id} failed${found.failureReason ? ` (${found.failureReason})` : ""}`, at);
      outcome = moved ? "failed" : "unsettled";
      message = moved ? `Stripe's refund ${found.id} failed: nothing went back` : "The refund changed meanwhile";
    } else if (found) {
      await notePendingAtStripe(trx, refund.id, found.id, at);
      message = `Stripe is still finishing the refund ${found.id}`;
    } else if (sinceLastMove >= windowMs) {
      const reason = `Stripe has no refund for this request (checked ${at}): nothing went back`;
      const moved = await markRefundFailed(trx, refund.id, reason, at, { stateVersion: refund.state_version });
      outcome = moved ? "failed" : "unsettled";
      message = moved ? reason : "The refund changed meanwhile";
    } else {
      await markRefundChecked(trx, refund.id, at);
      message = `Stripe lists no refund for this request yet; it is checked again after ${new Date(Date.parse(refund.updated_at) + windowMs).toISOString()}`;
    }
    const after = (await findRefund(trx, refund.id)) ?? refund;
    const byOperator = typeof audit === "object";
    if (byOperator || (audit === "when-settled" && outcome !== "unsettled")) {
      await recordAudit(
        trx,
        {
          actor: byOperator ? audit.actor : null,
          action: byOperator ? "refund.check" : "refund.settle",
          target: { type: "refund", id: refund.id, label: `${refund.external_order_id ?? refund.payment_intent_id} ${usd(refund.amount_cents)}` },
          before: { status: refund.status },
          after: { status: after.status, stripeRefundId: after.stripe_refund_id },
          details: { outcome, message, paymentIntentId: refund.payment_intent_id, amountCents: refund.amount_cents, ...(found ? { stripeRefundId: found.id } : {}) },
        },
        deps.clock,
      );
    }
    return { outcome, message, refund: after };
  });
}

export interface RefundSettleSummary {
  checked: number;
  succeeded: number;
  failed: number;
  unsettled: number;
  errors: number;
  lastError: string | null;
}

/**
 * Settles every pending or unknown refund as far as Stripe can say now (the scheduled job). A
 * refund whose request is still being answered is left alone by the window. Stops after a few
 * failed calls in a row (Stripe is down: the next scheduled settle continues).
 */
export async function settleRefunds(
  deps: Pick<AppDeps, "database" | "clock">,
  provider: RefundProvider,
  options: { windowMs: number; shouldStop?: () => Promise<boolean> },
): Promise<RefundSettleSummary> {
  const summary: RefundSettleSummary = { checked: 0, succeeded: 0, failed: 0, unsettled: 0, errors: 0, lastError: null };
  let after: string | null = null;
  let failuresInARow = 0;
  for (;;) {
    const page = await unsettledRefunds(deps.database.db, after, 100);
    if (page.length === 0) return summary;
    for (const r of page) {
      after = r.id;
      if (options.shouldStop && (await options.shouldStop())) return summary;
      summary.checked += 1;
      try {
        const result = await settleRefund(deps, provider, r, options.windowMs, "when-settled");
        failuresInARow = 0;
        summary[result.outcome] += 1;
      } catch (err) {
        if (!(err instanceof RefundProviderError)) throw err;
        summary.errors += 1;
        summary.unsettled += 1;
        summary.lastError = err.message;
        if (++failuresInARow >= 3) return summary;
      }
    }
  }
}
