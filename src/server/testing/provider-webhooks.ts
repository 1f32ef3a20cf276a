import Stripe from "stripe";
import { Webhook } from "svix";
import type { TestContext } from "./test-app.ts";

/**
 * Stripe's and Clerk's webhook deliveries for tests (never in the bundle: only *.test.ts files
 * import it), signed with the providers' own SDKs as they sign them: Stripe's test header
 * (`stripe.webhooks.generateTestHeaderString`) and Svix's signer (`Webhook.sign`).
 */

export const TEST_STRIPE_WEBHOOK_SECRET = "whsec_test_incoming_stripe_0123456789";
export const TEST_CLERK_WEBHOOK_SECRET = `whsec_${Buffer.from("test-incoming-clerk-signing-key!").toString("base64")}`;
/** The environment that configures both webhooks with the secrets above. */
export const WEBHOOK_ENV = { STRIPE_WEBHOOK_SECRET: TEST_STRIPE_WEBHOOK_SECRET, CLERK_WEBHOOK_SIGNING_SECRET: TEST_CLERK_WEBHOOK_SECRET };

let sequence = 0;
const unique = () => `${Date.now().toString(36)}${(++sequence).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A Stripe event as Stripe sends it: `created` in Unix seconds (the object's state at that time). */
export function stripeEvent(type: string, object: Record<string, unknown>, options: { id?: string; created: string }): Record<string, unknown> {
  return {
    id: options.id ?? `evt_${unique()}`,
    object: "event",
    api_version: "2025-10-29.clover",
    created: Math.floor(Date.parse(options.created) / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

/** A connected account as Stripe describes it in account.updated. */
export function stripeAccount(id: string, state: { chargesEnabled: boolean; payoutsEnabled: boolean; currentlyDue?: string[]; pastDue?: string[]; disabledReason?: string | null }) {
  return {
    id,
    object: "account",
    type: "express",
    charges_enabled: state.chargesEnabled,
    payouts_enabled: state.payoutsEnabled,
    details_submitted: true,
    requirements: { currently_due: state.currentlyDue ?? [], past_due: state.pastDue ?? [], eventually_due: [], disabled_reason: state.disabledReason ?? null },
  };
}

/** A transfer as Stripe describes it in transfer.reversed: `amountReversed` is everything reversed so far. */
export function stripeTransfer(id: string, amountCents: number, amountReversedCents: number, metadata: Record<string, string> = {}) {
  return {
    id,
    object: "transfer",
    amount: amountCents,
    amount_reversed: amountReversedCents,
    reversed: amountReversedCents >= amountCents,
    currency: "usd",
    destination: "acct_unused",
    metadata,
    reversals: { object: "list", data: [], has_more: false, total_count: 0, url: `/v1/transfers/${id}/reversals` },
  };
}

/** The Stripe-Signature header of `payload`, made by Stripe's SDK (timestamp: now, unless given in Unix seconds). */
export function stripeSignature(payload: string, options: { secret?: string; timestamp?: number } = {}): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? TEST_STRIPE_WEBHOOK_SECRET, ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}) });
}

/** POSTs a Stripe delivery: `payload` as it is sent, with the headers given (none signed unless asked). */
export function postStripe(ctx: TestContext, payload: string, headers: Record<string, string>): Promise<Response> {
  return ctx.request("/api/webhooks/stripe", { method: "POST", headers: { "content-type": "application/json; charset=utf-8", ...headers }, body: payload });
}

/** Delivers a Stripe event signed as Stripe signs it. */
export function deliverStripe(ctx: TestContext, event: Record<string, unknown>): Promise<Response> {
  const payload = JSON.stringify(event, null, 2);
  return postStripe(ctx, payload, { "stripe-signature": stripeSignature(payload) });
}

/** A Clerk event as Clerk sends it through Svix: `timestamp` in Unix milliseconds. */
export function clerkEvent(type: string, data: Record<string, unknown>, at: string): Record<string, unknown> {
  return { data, event_attributes: { http_request: { client_ip: "", user_agent: "" } }, instance_id: "ins_test", object: "event", timestamp: Date.parse(at), type };
}

/** A Clerk user as user.updated describes it, with one verified primary address. */
export function clerkUser(id: string, email: string, updatedAt: string): Record<string, unknown> {
  const emailId = `idn_${id}`;
  return {
    id,
    object: "user",
    email_addresses: [{ id: emailId, object: "email_address", email_address: email, verification: { status: "verified", strategy: "email_code" } }],
    primary_email_address_id: emailId,
    first_name: "Test",
    last_name: "User",
    public_metadata: {},
    updated_at: Date.parse(updatedAt),
  };
}

/** Svix's headers for `payload`, made by Svix's signer (at: now, unless given). */
export function clerkHeaders(payload: string, options: { secret?: string; messageId?: string; at?: Date } = {}): Record<string, string> {
  const messageId = options.messageId ?? `msg_${unique()}`;
  const at = options.at ?? new Date();
  return {
    "svix-id": messageId,
    "svix-timestamp": String(Math.floor(at.getTime() / 1000)),
    "svix-signature": new Webhook(options.secret ?? TEST_CLERK_WEBHOOK_SECRET).sign(messageId, at, payload),
  };
}

export function postClerk(ctx: TestContext, payload: string, headers: Record<string, string>): Promise<Response> {
  return ctx.request("/api/webhooks/clerk", { method: "POST", headers: { "content-type": "application/json", ...headers }, body: payload });
}

/** Delivers a Clerk event signed as Svix signs it (a fresh message id unless given). */
export function deliverClerk(ctx: TestContext, event: Record<string, unknown>, messageId?: string): Promise<Response> {
  const payload = JSON.stringify(event);
  return postClerk(ctx, payload, clerkHeaders(payload, messageId ? { messageId } : {}));
}

/** A dispute as Stripe describes it in charge.dispute.*: `evidenceDueBy` an ISO time; `feeCents` Stripe's fee in its balance transaction. */
export function stripeDispute(
  id: string,
  state: { charge: string; paymentIntent?: string | null; amountCents: number; status: string; reason?: string; evidenceDueBy?: string | null; created: string; feeCents?: number },
) {
  return {
    id,
    object: "dispute",
    amount: state.amountCents,
    currency: "usd",
    charge: state.charge,
    payment_intent: state.paymentIntent ?? null,
    status: state.status,
    reason: state.reason ?? "product_not_received",
    created: Math.floor(Date.parse(state.created) / 1000),
    evidence_details: { due_by: state.evidenceDueBy ? Math.floor(Date.parse(state.evidenceDueBy) / 1000) : null, has_evidence: false, past_due: false, submission_count: 0 },
    balance_transactions: state.feeCents === undefined ? [] : [{ id: `txn_${id}`, object: "balance_transaction", amount: -state.amountCents - state.feeCents, fee: state.feeCents }],
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
  };
}
