import type { CheckRefundResponse, CreateRefundRequest, CreateRefundResponse, PanelRefund } from "../../../contract/orders.ts";
import { recordAudit } from "../../domain/audit/audit-log.ts";
import { markRefundFailed, markRefundSucceeded, markRefundUnknown, notePendingAtStripe, RefundExceedsPaid, type RefundLineInput, reserveRefund } from "../../domain/ledger/refunds.ts";
import { newId } from "../../platform/db/ids.ts";
import { HttpError, invalidField, notFound } from "../../platform/http/http-error.ts";
import type { Actor } from "../../platform/identity/actor.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { type RefundProvider, RefundProviderError } from "../../platform/stripe/stripe-refunds.ts";
import { refundProviderFor } from "./refund-provider.ts";
import { settleRefund } from "./refund-settle.ts";
import { findRefund, findRefundableLine, type RefundableLine, type RefundWithLines, readRefundableLines, readRefundLines } from "./refunds.queries.ts";

const dollars = (cents: number) => cents / 100;
const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** What a line can still be refunded: what stays paid less what refunds in progress hold. */
export const refundableCents = (l: Pick<RefundableLine, "status" | "gross_cents" | "refund_reserved_cents">) => (l.status === "paid" ? Math.max(0, l.gross_cents - l.refund_reserved_cents) : 0);

export function toPanelRefund({ refund: r, lines }: RefundWithLines): PanelRefund {
  return {
    id: r.id,
    status: r.status,
    amount: dollars(r.amount_cents),
    reason: r.reason,
    stripeRefundId: r.stripe_refund_id,
    failureReason: r.failure_reason,
    checkedAt: r.checked_at,
    createdByEmail: r.created_by_email,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    lines: lines.map((l) => ({ orderId: l.order_id, amount: dollars(l.amount_cents) })),
  };
}

/**
 * Refunds from the panel (docs/product.md "Refunds from the panel"): one Stripe refund on the
 * order's payment intent per request, its idempotency key the refund's id, the amount reserved on
 * each line first; the outcome recorded through the ledger (domain/ledger/refunds.ts), an unknown
 * one settled by listing at Stripe (refund-settle.ts), at once and by the scheduled settle.
 */
export class RefundsService {
  private readonly provider: RefundProvider | null;

  constructor(
    private readonly deps: Pick<AppDeps, "database" | "clock" | "config" | "fetchImpl">,
    provider?: RefundProvider | null,
  ) {
    this.provider = provider === undefined ? refundProviderFor(deps) : provider;
  }

  private get db() {
    return this.deps.database.db;
  }

  /** The lines asked (or every line with something left), each with its amount; 400/409 naming the input at fault. */
  private planLines(all: RefundableLine[], request: CreateRefundRequest): RefundLineInput[] {
    if (request.lines === undefined) {
      const whole = all.filter((l) => refundableCents(l) > 0).map((l) => ({ orderId: l.id, amountCents: refundableCents(l) }));
      if (whole.length === 0) throw new HttpError(409, "nothing_to_refund", "Nothing is left to refund on this order");
      return whole;
    }
    return request.lines.map((asked, i) => {
      const line = all.find((l) => l.id === asked.orderId);
      if (!line) throw invalidField(`lines.${i}.orderId`, "is not a line of this order");
      const left = refundableCents(line);
      const amount = asked.amountCents ?? left;
      if (left === 0 || amount > left) {
        const problem = left === 0 ? "has nothing left to refund" : `exceeds the ${usd(left)} left to refund`;
        throw new HttpError(409, "exceeds_paid", `Line ${line.external_line_id ?? line.id} ${problem}`, {}, { [`lines.${i}.${asked.amountCents === undefined ? "orderId" : "amountCents"}`]: problem });
      }
      return { orderId: line.id, amountCents: amount };
    });
  }

  async create(actor: Actor, lineId: string, request: CreateRefundRequest): Promise<CreateRefundResponse> {
    const line = await findRefundableLine(this.db, lineId);
    if (!line) throw notFound("Order not found");
    if (!this.provider) throw new HttpError(422, "payment_provider_not_configured", "Payment provider not configured");
    if (line.payment_intent_id === null) {
      throw new HttpError(409, "no_payment_recorded", "The storefront did not name this order's Stripe payment (paymentIntentId): refund it in Stripe's dashboard");
    }
    const paymentIntentId = line.payment_intent_id;
    const all = (line.external_order_id === null ? [line] : await readRefundableLines(this.db, line.external_order_id)).filter((l) => l.payment_intent_id === paymentIntentId);
    const lines = this.planLines(all, request);
    const id = newId();
    const now = this.deps.clock.now().toISOString();
    const amountCents = lines.reduce((s, l) => s + l.amountCents, 0);
    try {
      await this.db.transaction().execute(async (trx) => {
        await reserveRefund(trx, {
          id,
          paymentIntentId,
          externalOrderId: line.external_order_id,
          reason: request.reason,
          createdBy: actor.user.id,
          createdByEmail: actor.user.email,
          createdAt: now,
          lines,
        });
        await recordAudit(
          trx,
          {
            actor,
            action: "order.refund",
            target: { type: "order", id: lineId, label: `${line.external_order_id ?? lineId} ${usd(amountCents)}` },
            after: { refundStatus: "pending" },
            details: { refundId: id, paymentIntentId, amountCents, reason: request.reason, lines: lines.map((l) => ({ orderId: l.orderId, amountCents: l.amountCents })) },
          },
          this.deps.clock,
        );
      });
    } catch (err) {
      if (err instanceof RefundExceedsPaid) {
        const i = Math.max(0, request.lines?.findIndex((l) => l.orderId === err.orderId) ?? 0);
        throw new HttpError(409, "exceeds_paid", "Another refund of this order took part of what was left: reload and try again", {}, { [`lines.${i}.orderId`]: "has less left to refund than asked" });
      }
      throw err;
    }
    const message = await this.askStripe(id, paymentIntentId, amountCents, line.external_order_id, request.reason);
    const stored = await findRefund(this.db, id);
    const lineRows = lines.map((l) => ({ order_id: l.orderId, amount_cents: l.amountCents }));
    return { refund: toPanelRefund({ refund: stored!, lines: lineRows }), message };
  }

  /**
   * 'Check with Stripe' on a refund whose outcome is not recorded (pending or unknown; docs/product.md
   * "Refunds from the panel"): the payment intent's refunds listed by the one settle
   * (refund-settle.ts), never a second refund; one audit row of the operator's whatever the answer.
   */
  async check(actor: Actor, id: string): Promise<CheckRefundResponse> {
    const current = await findRefund(this.db, id);
    if (!current) throw notFound("Refund not found");
    if (!this.provider) throw new HttpError(422, "payment_provider_not_configured", "Payment provider not configured");
    if (current.status !== "pending" && current.status !== "unknown") {
      throw new HttpError(409, "refund_settled", `Only a refund whose outcome is not recorded yet can be checked with Stripe (this one ${current.status === "succeeded" ? "succeeded" : "failed"})`);
    }
    let result;
    try {
      result = await settleRefund(this.deps, this.provider, current, this.deps.config.payoutUnknownWindowMs, { actor });
    } catch (err) {
      if (err instanceof RefundProviderError) throw new HttpError(502, "payment_provider_error", `Stripe could not answer (${err.message}): nothing changed, try again later`);
      throw err;
    }
    const lines = await readRefundLines(this.db, id);
    return { refund: toPanelRefund({ refund: result.refund, lines }), outcome: result.outcome, message: result.message };
  }

  /** The one call to Stripe for a refund and what its answer records; an answer without a definite outcome is settled by listing, never by asking again. */
  private async askStripe(id: string, paymentIntentId: string, amountCents: number, externalOrderId: string | null, reason: string): Promise<string> {
    const provider = this.provider!;
    const outcome = await provider.createRefund({
      paymentIntentId,
      amountCents,
      refundId: id,
      metadata: { ...(externalOrderId ? { order_id: externalOrderId } : {}), reason: reason.slice(0, 500) },
    });
    const at = () => this.deps.clock.now().toISOString();
    if (outcome.kind === "refused") {
      await markRefundFailed(this.db, id, `Stripe: ${outcome.message}`, at());
      return `Stripe refused the refund: ${outcome.message}. Nothing went back.`;
    }
    if (outcome.kind === "made" && outcome.state === "failed") {
      await markRefundFailed(this.db, id, `Stripe: the refund ${outcome.stripeRefundId} failed${outcome.message ? ` (${outcome.message})` : ""}`, at());
      return `Stripe's refund ${outcome.stripeRefundId} failed: nothing went back.`;
    }
    if (outcome.kind === "made" && outcome.state === "pending") {
      await notePendingAtStripe(this.db, id, outcome.stripeRefundId, at());
      return `Stripe took the refund ${outcome.stripeRefundId} of ${usd(amountCents)} and is finishing it; the panel records it once Stripe lists it as done.`;
    }
    if (outcome.kind === "made") {
      try {
        await markRefundSucceeded(this.db, id, outcome.stripeRefundId, at());
        return `Refunded ${usd(amountCents)}: Stripe refund ${outcome.stripeRefundId}.`;
      } catch {
        // Stripe made it; recording it failed here (a conflicting write): the scheduled settle finds it at Stripe and records it.
        await markRefundUnknown(this.db, id, "Stripe made the refund; recording it failed and is done by the next check", at());
        return `Stripe made the refund ${outcome.stripeRefundId}; the panel records it at its next check with Stripe.`;
      }
    }
    await markRefundUnknown(this.db, id, outcome.message, at());
    const unknown = await findRefund(this.db, id);
    try {
      const settled = await settleRefund(this.deps, provider, unknown!, this.deps.config.payoutUnknownWindowMs, "none");
      if (settled.outcome === "succeeded") return `Stripe's answer was lost (${outcome.message}), but it lists the refund: refunded ${usd(amountCents)}.`;
    } catch (err) {
      if (!(err instanceof RefundProviderError)) throw err;
    }
    return `Stripe gave no definite answer (${outcome.message}): the refund may have been made. The panel asks Stripe which refunds this payment has and records the answer; it never refunds again.`;
  }
}
