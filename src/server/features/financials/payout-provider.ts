import type { AppDeps } from "../../platform/request/app-env.ts";
import { type PayoutProvider, StripePayouts } from "../../platform/stripe/stripe-payouts.ts";

/** Stripe when STRIPE_SECRET_KEY is set (STRIPE_API_BASE for a local stand-in), otherwise none. */
export function payoutProviderFor(deps: Pick<AppDeps, "config" | "fetchImpl">): PayoutProvider | null {
  const { stripeSecretKey, stripeApiBase } = deps.config;
  if (!stripeSecretKey) return null;
  return new StripePayouts({ secretKey: stripeSecretKey, apiBase: stripeApiBase, fetchImpl: deps.fetchImpl });
}
