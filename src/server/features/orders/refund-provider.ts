import type { AppDeps } from "../../platform/request/app-env.ts";
import { type RefundProvider, StripeRefunds } from "../../platform/stripe/stripe-refunds.ts";

/** Stripe when STRIPE_SECRET_KEY is set (STRIPE_API_BASE for a local stand-in), otherwise none: refunds then answer 422. */
export function refundProviderFor(deps: Pick<AppDeps, "config" | "fetchImpl">): RefundProvider | null {
  const { stripeSecretKey, stripeApiBase } = deps.config;
  if (!stripeSecretKey) return null;
  return new StripeRefunds({ secretKey: stripeSecretKey, apiBase: stripeApiBase, fetchImpl: deps.fetchImpl });
}
