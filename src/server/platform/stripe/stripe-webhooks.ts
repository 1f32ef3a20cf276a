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

/**
 * The event the signed text holds when its signature verifies under one of `secrets` (Stripe gives
 * each endpoint its own: the account's, the connected accounts'); otherwise why not (Stripe's words).
 */
export async function verifyStripeEvent(text: string, signature: string | undefined, secrets: readonly string[]): Promise<VerifiedStripeEvent> {
  if (!signature) return { ok: false, reason: "missing: events are accepted only as Stripe signs them" };
  let refusal: VerifiedStripeEvent = { ok: false, reason: "no signing secret" };
  for (const secret of secrets) {
    try {
      return { ok: true, event: await Stripe.webhooks.constructEventAsync(text, signature, secret, STRIPE_SIGNATURE_TOLERANCE_SECONDS) };
    } catch (err) {
      // The SDK parses the body only after the signature verified: a signed body that is not JSON.
      if (err instanceof SyntaxError) return { ok: false, reason: "the signed body is not JSON" };
      if (!(err instanceof Stripe.errors.StripeSignatureVerificationError)) throw err;
      if (refusal.ok === false && refusal.reason === "no signing secret") refusal = { ok: false, reason: err.message };
    }
  }
  return refusal;
}
