import Stripe from "stripe";
import { secretPrefix, stripeHostOptions } from "./stripe-check.ts";

/**
 * Stripe Connect for payouts (docs/product.md §15), through the official SDK: transfers to a
 * vendor's connected account, listing a run's transfers (to settle unknown outcomes and to
 * reconcile), and reading that account's status. The SDK never retries on its own
 * (maxNetworkRetries 0): the payout run decides, paced, with the same idempotency key.
 */

export const STRIPE_PAYOUT_TIMEOUT_MS = 20_000;

export interface TransferRequest {
  amountCents: number;
  currency: string;
  /** The connected account, acct_… */
  destination: string;
  /** The run's id: Stripe groups a run's transfers under it. */
  transferGroup: string;
  /** Derived from the payout id (and attempt): a repeated call answers the same transfer. */
  idempotencyKey: string;
  metadata: Record<string, string>;
}

export type TransferOutcome =
  /** The transfer exists (made now, or replayed for the same key). */
  | { kind: "paid"; transferId: string }
  /** Stripe refused it: nothing was transferred; the message is Stripe's. */
  | { kind: "failed"; message: string }
  /** Try again later with the same key: rate limited (429), Stripe's own error (5xx), a concurrent
   * request with the key, or no answer in time (then Stripe may have made the transfer). */
  | { kind: "retry"; message: string; retryAfterMs: number | null; outcomeUnknown: boolean }
  /** The key itself is refused (401/403): no transfer can succeed; the run stops. */
  | { kind: "abort"; message: string };

/** A transfer as Stripe lists it. */
export interface TransferFacts {
  id: string;
  amountCents: number;
  currency: string;
  destination: string | null;
  transferGroup: string | null;
  metadata: Record<string, string>;
  /** Unix seconds. */
  created: number;
}

export interface TransferListRequest {
  /** The run's id (every transfer of a run carries it); unset: every run's. */
  transferGroup?: string | undefined;
  /** Only transfers created at or after this time (Unix seconds; Stripe's `created[gte]`). */
  createdGte?: number | undefined;
  /** Only transfers to this connected account. */
  destination?: string | undefined;
  /** The last transfer of the previous page (Stripe's `starting_after`). */
  startingAfter?: string | undefined;
  /** 1–100 (Stripe's page size). */
  limit?: number;
}

export interface ConnectedAccountFacts {
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  detailsSubmitted: boolean;
  currentlyDue: string[];
  pastDue: string[];
  disabledReason: string | null;
}

/** What a payout run and the account refresh need of a payment provider (tests may fake it). */
export interface PayoutProvider {
  createTransfer(request: TransferRequest): Promise<TransferOutcome>;
  /** One page of `transfers.list`, newest first. Throws ProviderError when Stripe cannot answer or refuses. */
  listTransfers(request: TransferListRequest): Promise<{ transfers: TransferFacts[]; hasMore: boolean }>;
  /** Throws ProviderError when Stripe cannot answer or refuses. */
  retrieveAccount(accountId: string): Promise<ConnectedAccountFacts>;
}

export class ProviderError extends Error {
  constructor(
    message: string,
    /** Stripe answered that the account does not exist. */
    readonly notFound = false,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}

/** What the panel keeps of a connected account as Stripe states it (an answer of accounts.retrieve, or an account.updated event's object). */
export function connectedAccountFactsOf(account: Pick<Stripe.Account, "charges_enabled" | "payouts_enabled" | "details_submitted" | "requirements">): ConnectedAccountFacts {
  const req = account.requirements;
  return {
    chargesEnabled: account.charges_enabled === true,
    payoutsEnabled: account.payouts_enabled === true,
    detailsSubmitted: account.details_submitted === true,
    currentlyDue: req?.currently_due ?? [],
    pastDue: req?.past_due ?? [],
    disabledReason: req?.disabled_reason ?? null,
  };
}

/** The account's status from Stripe's facts: active when it can take charges and payouts, restricted when Stripe disabled it, pending otherwise. */
export function accountStatusOf(facts: ConnectedAccountFacts): "active" | "pending" | "restricted" {
  if (facts.disabledReason && !facts.disabledReason.startsWith("requirements.pending")) return "restricted";
  if (facts.pastDue.length > 0) return "restricted";
  if (facts.chargesEnabled && facts.payoutsEnabled) return "active";
  return "pending";
}

export interface StripePayoutsOptions {
  secretKey: string;
  apiBase?: string | undefined;
  timeoutMs?: number;
  fetchImpl?: typeof fetch | undefined;
}

export class StripePayouts implements PayoutProvider {
  private readonly stripe: Stripe;

  constructor(private readonly options: StripePayoutsOptions) {
    this.stripe = new Stripe(options.secretKey, {
      maxNetworkRetries: 0,
      timeout: options.timeoutMs ?? STRIPE_PAYOUT_TIMEOUT_MS,
      telemetry: false,
      ...stripeHostOptions(options.apiBase),
      ...(options.fetchImpl ? { httpClient: Stripe.createFetchHttpClient(options.fetchImpl) } : {}),
    });
  }

  async createTransfer(request: TransferRequest): Promise<TransferOutcome> {
    try {
      const transfer = await this.stripe.transfers.create(
        {
          amount: request.amountCents,
          currency: request.currency,
          destination: request.destination,
          transfer_group: request.transferGroup,
          metadata: request.metadata,
        },
        { idempotencyKey: request.idempotencyKey },
      );
      return { kind: "paid", transferId: transfer.id };
    } catch (err) {
      return this.outcomeOf(err);
    }
  }

  async listTransfers(request: TransferListRequest): Promise<{ transfers: TransferFacts[]; hasMore: boolean }> {
    try {
      const page = await this.stripe.transfers.list({
        ...(request.transferGroup ? { transfer_group: request.transferGroup } : {}),
        ...(request.createdGte !== undefined ? { created: { gte: request.createdGte } } : {}),
        ...(request.destination ? { destination: request.destination } : {}),
        ...(request.startingAfter ? { starting_after: request.startingAfter } : {}),
        limit: request.limit ?? 100,
      });
      return {
        hasMore: page.has_more,
        transfers: page.data.map((t) => ({
          id: t.id,
          amountCents: t.amount,
          currency: t.currency,
          destination: typeof t.destination === "string" ? t.destination : (t.destination?.id ?? null),
          transferGroup: t.transfer_group ?? null,
          metadata: { ...(t.metadata ?? {}) },
          created: t.created,
        })),
      };
    } catch (err) {
      throw new ProviderError(this.describe(err));
    }
  }

  async retrieveAccount(accountId: string): Promise<ConnectedAccountFacts> {
    try {
      return connectedAccountFactsOf(await this.stripe.accounts.retrieve(accountId));
    } catch (err) {
      const notFound = err instanceof Stripe.errors.StripeError && (err.code === "resource_missing" || err.statusCode === 404);
      throw new ProviderError(this.describe(err), notFound);
    }
  }

  private outcomeOf(err: unknown): TransferOutcome {
    const message = this.describe(err);
    if (err instanceof Stripe.errors.StripeConnectionError) return { kind: "retry", message, retryAfterMs: null, outcomeUnknown: true };
    if (err instanceof Stripe.errors.StripeAuthenticationError || err instanceof Stripe.errors.StripePermissionError) return { kind: "abort", message };
    if (err instanceof Stripe.errors.StripeError) {
      const status = err.statusCode ?? 0;
      const retryAfter = Number(err.headers?.["retry-after"]);
      const retryAfterMs = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : null;
      if (err instanceof Stripe.errors.StripeRateLimitError || status === 429) return { kind: "retry", message, retryAfterMs, outcomeUnknown: false };
      if (err instanceof Stripe.errors.StripeIdempotencyError || status === 409) return { kind: "retry", message, retryAfterMs, outcomeUnknown: true };
      if (status >= 500 || status === 0) return { kind: "retry", message, retryAfterMs, outcomeUnknown: true };
      return { kind: "failed", message };
    }
    // Anything else (a bug, a broken answer): Stripe may or may not have acted.
    return { kind: "retry", message, retryAfterMs: null, outcomeUnknown: true };
  }

  private describe(err: unknown): string {
    const message = err instanceof Error ? err.message : String(err);
    const key = this.options.secretKey;
    return message.split(key).join(`${secretPrefix(key)}…`);
  }
}

/**
 * Every transfer the filter selects (a run's, to one destination, created since a time), all
 * pages, each page call waiting for its slot of the pacer. Throws ProviderError as `listTransfers` does.
 */
export async function listAllTransfers(
  provider: PayoutProvider,
  pacer: Pacer,
  filter: { transferGroup?: string | undefined; destination?: string | undefined; createdGte?: number | undefined },
): Promise<TransferFacts[]> {
  const out: TransferFacts[] = [];
  let startingAfter: string | undefined;
  for (;;) {
    await pacer.slot();
    const page = await provider.listTransfers({ ...filter, startingAfter, limit: 100 });
    out.push(...page.transfers);
    const last = page.transfers.at(-1);
    if (!page.hasMore || !last) return out;
    startingAfter = last.id;
  }
}

/**
 * Spaces calls out to at most `perSecond` (STRIPE_MAX_RPS): each caller waits for its slot, so
 * concurrent senders together keep the pace, and a burst never exceeds it.
 */
export class Pacer {
  private next = 0;
  private readonly intervalMs: number;

  constructor(
    perSecond: number,
    private readonly now: () => number = () => performance.now(),
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    this.intervalMs = 1000 / Math.max(0.001, perSecond);
  }

  async slot(): Promise<void> {
    const t = this.now();
    const at = Math.max(t, this.next);
    this.next = at + this.intervalMs;
    if (at > t) await this.sleep(at - t);
  }

  /** Pushes every later slot back (after a 429, so the pace slows for everyone). */
  pause(ms: number): void {
    this.next = Math.max(this.next, this.now() + ms);
  }
}
