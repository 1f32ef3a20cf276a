import Stripe from "stripe";
import { secretPrefix, stripeHostOptions } from "./stripe-check.ts";
import { STRIPE_PAYOUT_TIMEOUT_MS } from "./stripe-payouts.ts";

/**
 * Stripe's Refunds API for refunds from the panel (docs/product.md "Refunds from the panel"),
 * through the official SDK: a refund on the order's payment intent, with the panel's refund id as
 * the idempotency key and as `metadata.refund_id`, and the payment intent's refunds listed to
 * settle an unknown outcome. The SDK never retries on its own (maxNetworkRetries 0): a refund
 * whose answer was lost is settled by listing, never by asking again.
 */

export interface RefundRequest {
  paymentIntentId: string;
  amountCents: number;
  /** The panel's refund id: the idempotency key and `metadata.refund_id`. */
  refundId: string;
  /** Kept in the refund's metadata (Stripe's `reason` takes only its own three words). */
  metadata: Record<string, string>;
}

/** Stripe's state of a refund as the panel reads it. */
export type StripeRefundState = "succeeded" | "pending" | "failed";

export type RefundOutcome =
  /** Stripe made the refund (now, or replayed for the same key): succeeded, or still pending at the card network. */
  | { kind: "made"; stripeRefundId: string; state: StripeRefundState; message: string | null }
  /** Stripe refused it: nothing was refunded; the message is Stripe's. */
  | { kind: "refused"; message: string }
  /** No definite answer (a 5xx, a timeout, a lost connection): Stripe may have made the refund. */
  | { kind: "unknown"; message: string };

/** A refund as Stripe lists it. */
export interface RefundFacts {
  id: string;
  amountCents: number;
  paymentIntentId: string | null;
  state: StripeRefundState;
  failureReason: string | null;
  metadata: Record<string, string>;
  /** Unix seconds. */
  created: number;
}

/** What refunds need of a payment provider (tests may fake it). */
export interface RefundProvider {
  createRefund(request: RefundRequest): Promise<RefundOutcome>;
  /** Every refund of one payment intent (all pages). Throws RefundProviderError when Stripe cannot answer. */
  listRefunds(paymentIntentId: string): Promise<RefundFacts[]>;
}

export class RefundProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RefundProviderError";
  }
}

/** Stripe's refund status in the panel's three words: `requires_action` is still on its way, `canceled` is refused. */
export function refundStateOf(status: string | null | undefined): StripeRefundState {
  if (status === "succeeded") return "succeeded";
  if (status === "failed" || status === "canceled") return "failed";
  return "pending";
}

export interface StripeRefundsOptions {
  secretKey: string;
  apiBase?: string | undefined;
  timeoutMs?: number;
  fetchImpl?: typeof fetch | undefined;
}

export class StripeRefunds implements RefundProvider {
  private readonly stripe: Stripe;

  constructor(private readonly options: StripeRefundsOptions) {
    this.stripe = new Stripe(options.secretKey, {
      maxNetworkRetries: 0,
      timeout: options.timeoutMs ?? STRIPE_PAYOUT_TIMEOUT_MS,
      telemetry: false,
      ...stripeHostOptions(options.apiBase),
      ...(options.fetchImpl ? { httpClient: Stripe.createFetchHttpClient(options.fetchImpl) } : {}),
    });
  }

  async createRefund(request: RefundRequest): Promise<RefundOutcome> {
    try {
      const refund = await this.stripe.refunds.create(
        { payment_intent: request.paymentIntentId, amount: request.amountCents, metadata: { ...request.metadata, refund_id: request.refundId } },
        { idempotencyKey: request.refundId },
      );
      return { kind: "made", stripeRefundId: refund.id, state: refundStateOf(refund.status), message: refund.failure_reason ?? null };
    } catch (err) {
      const message = this.describe(err);
      if (err instanceof Stripe.errors.StripeError && !(err instanceof Stripe.errors.StripeConnectionError)) {
        const status = err.statusCode ?? 0;
        // A 4xx is Stripe's definite no (nothing refunded), but for a rate limit or anything about
        // the key (a concurrent request with it, or a clash): the key's first request may have made it.
        const aboutTheKey = err instanceof Stripe.errors.StripeIdempotencyError || status === 409 || status === 429;
        if (status >= 400 && status < 500 && !aboutTheKey) return { kind: "refused", message };
      }
      return { kind: "unknown", message };
    }
  }

  async listRefunds(paymentIntentId: string): Promise<RefundFacts[]> {
    const out: RefundFacts[] = [];
    let startingAfter: string | undefined;
    for (;;) {
      let page: Stripe.ApiList<Stripe.Refund>;
      try {
        page = await this.stripe.refunds.list({ payment_intent: paymentIntentId, limit: 100, ...(startingAfter ? { starting_after: startingAfter } : {}) });
      } catch (err) {
        throw new RefundProviderError(this.describe(err));
      }
      for (const r of page.data) {
        out.push({
          id: r.id,
          amountCents: r.amount,
          paymentIntentId: typeof r.payment_intent === "string" ? r.payment_intent : (r.payment_intent?.id ?? null),
          state: refundStateOf(r.status),
          failureReason: r.failure_reason ?? null,
          metadata: { ...(r.metadata ?? {}) },
          created: r.created,
        });
      }
      const last = page.data.at(-1);
      if (!page.has_more || !last) return out;
      startingAfter = last.id;
    }
  }

  private describe(err: unknown): string {
    const message = err instanceof Error ? err.message : String(err);
    const key = this.options.secretKey;
    return message.split(key).join(`${secretPrefix(key)}…`);
  }
}
