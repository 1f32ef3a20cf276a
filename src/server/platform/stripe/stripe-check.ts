import Stripe from "stripe";
import type { Clock } from "../clock.ts";

export interface PaymentCheckResult {
  works: boolean;
  /** Why the check failed; null when it worked. Never contains the secret key. */
  error: string | null;
  /** When the answer was obtained (answers are cached, so it may be up to the TTL old). */
  checkedAt: string;
}

export interface StripeCheckOptions {
  secretKey: string | undefined;
  /** e.g. "http://127.0.0.1:12111" for a local fake; unset means Stripe's own API. */
  apiBase?: string | undefined;
  clock: Clock;
  /** Per-call limit, so a slow Stripe cannot hold the health page. */
  timeoutMs?: number;
  /** How long an answer (good or bad) is reused, so refreshing the page cannot hammer Stripe. */
  ttlMs?: number;
  /** Routes the SDK through fetch instead of Node's http (used when the app is given a fetch). */
  fetchImpl?: typeof fetch | undefined;
}

export const STRIPE_CHECK_TIMEOUT_MS = 3000;
export const STRIPE_CHECK_TTL_MS = 60_000;
export const STRIPE_KEY_MISSING = "Stripe secret key not configured";

/** Host, port and protocol options of the SDK for a configured API base. */
export function stripeHostOptions(apiBase: string | undefined): Pick<Stripe.StripeConfig, "host" | "port" | "protocol"> {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, protocol, port: url.port || (protocol === "http" ? 80 : 443) };
}

/**
 * The health page's payment-provider check: one authenticated read (the account balance) through
 * the official SDK, no retries, a short timeout, the answer cached for a minute and shared by
 * concurrent callers.
 */
export class StripeHealthCheck {
  private readonly timeoutMs: number;
  private readonly ttlMs: number;
  private readonly stripe: Stripe | null;
  private cached: { result: PaymentCheckResult; expiresAt: number } | null = null;
  private inFlight: Promise<PaymentCheckResult> | null = null;

  constructor(private readonly options: StripeCheckOptions) {
    this.timeoutMs = options.timeoutMs ?? STRIPE_CHECK_TIMEOUT_MS;
    this.ttlMs = options.ttlMs ?? STRIPE_CHECK_TTL_MS;
    this.stripe = options.secretKey
      ? new Stripe(options.secretKey, {
          maxNetworkRetries: 0,
          timeout: this.timeoutMs,
          telemetry: false,
          ...stripeHostOptions(options.apiBase),
          ...(options.fetchImpl ? { httpClient: Stripe.createFetchHttpClient(options.fetchImpl) } : {}),
        })
      : null;
  }

  async check(): Promise<PaymentCheckResult> {
    const now = this.options.clock.now();
    if (!this.stripe) return { works: false, error: STRIPE_KEY_MISSING, checkedAt: now.toISOString() };
    if (this.cached && this.cached.expiresAt > now.getTime()) return this.cached.result;
    this.inFlight ??= this.call(this.stripe).finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async call(stripe: Stripe): Promise<PaymentCheckResult> {
    let result: PaymentCheckResult;
    try {
      await stripe.balance.retrieve();
      result = { works: true, error: null, checkedAt: this.options.clock.now().toISOString() };
    } catch (err) {
      result = { works: false, error: this.describe(err), checkedAt: this.options.clock.now().toISOString() };
    }
    this.cached = { result, expiresAt: this.options.clock.now().getTime() + this.ttlMs };
    return result;
  }

  private describe(err: unknown): string {
    let message: string;
    if (err instanceof Stripe.errors.StripeConnectionError) {
      message = `Could not reach Stripe within ${this.timeoutMs} ms: ${err.message}`;
    } else if (err instanceof Stripe.errors.StripeError) {
      message = err.statusCode ? `${err.message} (HTTP ${err.statusCode})` : err.message;
    } else {
      message = err instanceof Error ? err.message : String(err);
    }
    // Stripe masks keys in its messages; a fake or proxy might not, so the key is removed here too.
    const key = this.options.secretKey;
    return key ? message.split(key).join(`${secretPrefix(key)}…`) : message;
  }
}

/** The first few characters of a secret ("sk_test", "sk_live"), never enough to use it. */
export function secretPrefix(secret: string | undefined): string | null {
  if (!secret) return null;
  return secret.slice(0, Math.min(7, Math.floor(secret.length / 3)));
}
