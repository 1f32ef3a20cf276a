import Stripe from "stripe";

/**
 * Stripe's webhooks, verified with Stripe's own SDK (docs/integration.md "Stripe's and Clerk's
 * webhooks"): the `Stripe-Signature` header is an HMAC of the body exactly as Stripe sent it, under
 * the endpoint's signing secret (STRIPE_WEBHOOK_SECRET), with a timestamp Stripe's tolerance holds to
 * 5 minutes of this machine's clock, so a captured delivery cannot be replayed later.
 */

/** Stripe's own tolerance, in seconds: a signature older (or newer) than this is refused. */
export const STRIPE_SIGNATURE_TOLERANCE_SECONDS = 300;

export type VerifiedStripeEvent = { ok: true; event: Stripe.Event } | { ok: false; reason: string };

/** The event the signed text holds when its signature verifies; otherwise why not (Stripe's words). */
export async function verifyStripeEvent(text: string, signature: string | undefined, secret: string): Promise<VerifiedStripeEvent> {
  if (!signature) return { ok: false, reason: "missing: events are accepted only as Stripe signs them" };
  try {
    return { ok: true, event: await Stripe.webhooks.constructEventAsync(text, signature, secret, STRIPE_SIGNATURE_TOLERANCE_SECONDS) };
  } catch (err) {
    if (err instanceof Stripe.errors.StripeSignatureVerificationError) return { ok: false, reason: err.message };
    // The SDK parses the body only after the signature verified: a signed body that is not JSON.
    if (err instanceof SyntaxError) return { ok: false, reason: "the signed body is not JSON" };
    throw err;
  }
}
