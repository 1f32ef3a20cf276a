import { Webhook, WebhookVerificationError } from "svix";

/**
 * Clerk's webhooks, delivered by Svix and verified with the `svix` package (docs/integration.md
 * "Stripe's and Clerk's webhooks"): `svix-signature` is an HMAC of the message id, its timestamp
 * and the body exactly as sent, under the endpoint's signing secret (CLERK_WEBHOOK_SIGNING_SECRET,
 * `whsec_` and base64); Svix refuses a timestamp more than 5 minutes from this machine's clock, so
 * a captured delivery cannot be replayed later.
 */

export const CLERK_SIGNATURE_HEADERS = ["svix-id", "svix-timestamp", "svix-signature"] as const;

export type VerifiedClerkEvent = { ok: true; messageId: string; event: unknown } | { ok: false; header: string; reason: string };

/** The event the signed text holds when its signature verifies; otherwise which header is at fault and why. */
export function verifyClerkEvent(text: string, headers: Record<string, string | undefined>, secret: string): VerifiedClerkEvent {
  for (const name of CLERK_SIGNATURE_HEADERS) {
    if (!headers[name]) return { ok: false, header: name, reason: "missing: events are accepted only as Clerk signs them" };
  }
  const messageId = headers["svix-id"]!;
  try {
    const event = new Webhook(secret).verify(text, { "svix-id": messageId, "svix-timestamp": headers["svix-timestamp"]!, "svix-signature": headers["svix-signature"]! });
    return { ok: true, messageId, event };
  } catch (err) {
    if (err instanceof WebhookVerificationError) return { ok: false, header: /timestamp/i.test(err.message) ? "svix-timestamp" : "svix-signature", reason: err.message };
    if (err instanceof SyntaxError) return { ok: false, header: "svix-signature", reason: "the signed body is not JSON" };
    throw err;
  }
}
