import { z } from "zod";
import { MAX_PAGE_LIMIT } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";

/**
 * The providers' own webhooks coming in, and the log of everything that came in (docs/integration.md
 * "Stripe's and Clerk's webhooks"). Stripe and Clerk sign each event; the panel takes only what it
 * verifies against the endpoint's signing secret (STRIPE_WEBHOOK_SECRET, CLERK_WEBHOOK_SIGNING_SECRET),
 * stores each event once by its id, answers at once and processes it in the background: a
 * re-delivery changes nothing, an event older than the state already applied to its object
 * changes nothing, and a failed one can be retried from the Integrations screen.
 */

/** Stripe event types the panel acts on; every other type is stored and ignored. */
export const STRIPE_HANDLED_TYPES = ["account.updated", "transfer.reversed", "charge.dispute.created", "charge.dispute.updated", "charge.dispute.closed"] as const;
/** Clerk event types the panel acts on; every other type is stored and ignored. */
export const CLERK_HANDLED_TYPES = ["user.updated", "user.deleted"] as const;

export const INCOMING_SOURCES = ["storefront", "stripe", "clerk"] as const;
export type IncomingSource = (typeof INCOMING_SOURCES)[number];
export const INCOMING_SOURCE_LABELS: Record<IncomingSource, string> = { storefront: "Storefront", stripe: "Stripe", clerk: "Clerk" };

/**
 * What came of an event: `pending` (stored, waiting for its job), `processed` (applied), `ignored`
 * (a type the panel does not act on, or nothing of the panel's is concerned), `stale` (older than
 * the state already applied to the same thing: nothing changed) or `failed` (processing failed
 * every attempt: it can be retried). Storefront events (POST /api/events) are kept as processed or
 * stale; the ones refused were answered to their sender and are not kept.
 */
export const INCOMING_OUTCOMES = ["pending", "processed", "ignored", "stale", "failed"] as const;
export type IncomingOutcome = (typeof INCOMING_OUTCOMES)[number];
export const INCOMING_OUTCOME_LABELS: Record<IncomingOutcome, string> = { pending: "Pending", processed: "Processed", ignored: "Ignored", stale: "Stale", failed: "Failed" };

export const incomingEventSchema = z.object({
  /** Stripe and Clerk events: the panel's id of the record (retry takes it). Storefront events: the sender's event id. */
  id: z.string(),
  source: z.enum(INCOMING_SOURCES),
  /** The sender's id of the event (evt_…, msg_…, the storefront's id). */
  eventId: z.string(),
  type: z.string(),
  receivedAt: z.string(),
  outcome: z.enum(INCOMING_OUTCOMES),
  /** What processing did, or why it failed; null for storefront events and pending ones. */
  message: z.string().nullable(),
  /** Processing attempts so far (Stripe and Clerk events; 0 for storefront events, applied as they came). */
  attempts: z.number(),
  processedAt: z.string().nullable(),
  /** True when it can be retried (a failed Stripe or Clerk event). */
  retryable: z.boolean(),
});
export type IncomingEvent = z.infer<typeof incomingEventSchema>;

export const incomingEventsQuerySchema = z.strictObject({
  source: z.enum(INCOMING_SOURCES, { error: `must be one of ${INCOMING_SOURCES.join(", ")}` }).optional(),
  outcome: z.enum(INCOMING_OUTCOMES, { error: `must be one of ${INCOMING_OUTCOMES.join(", ")}` }).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(50),
  cursor: z.string().min(1).max(200).optional(),
});
export type IncomingEventsQuery = z.infer<typeof incomingEventsQuerySchema>;

export const incomingEventsResponseSchema = z.object({
  /** Newest received first. */
  items: z.array(incomingEventSchema),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type IncomingEventsResponse = z.infer<typeof incomingEventsResponseSchema>;

/** What both webhook endpoints answer once an event is verified and stored (or found stored before). */
export const webhookReceiptSchema = z.object({
  received: z.literal(true),
  /** True when this event id came before: it is not stored or processed again. */
  duplicate: z.boolean(),
});

/** The parts of a Stripe event the panel reads (the rest is kept as sent). */
const stripeEventSchema = z.object({
  id: z.string().describe("evt_…"),
  object: z.literal("event"),
  type: z.string().describe("e.g. account.updated, transfer.reversed"),
  created: z.number().describe("Unix seconds"),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

/** The parts of a Clerk event the panel reads (the rest is kept as sent). */
const clerkEventSchema = z.object({
  object: z.literal("event"),
  type: z.string().describe("e.g. user.updated, user.deleted"),
  timestamp: z.number().describe("Unix milliseconds"),
  data: z.record(z.string(), z.unknown()),
});

export const stripeWebhookEndpoint = defineEndpoint({
  method: "post",
  path: "/api/webhooks/stripe",
  area: "integrations",
  access: "public",
  summary: "Stripe's webhook: account.updated, transfer.reversed and charge.dispute.*, signed by Stripe",
  description:
    "Verified with Stripe's SDK against STRIPE_WEBHOOK_SECRET over the body exactly as sent (Stripe-Signature header, 5 minutes' tolerance); anything not verified is 400 and stored nowhere. Each event is stored once by its id and processed in the background: account.updated keeps the artist's payout account current, transfer.reversed puts the reversed amount back in the artist's balance, charge.dispute.created/updated/closed attach a dispute to the order its charge paid (the artists' shares held while open, released when won, taken off when lost); other types are stored and ignored. 503 while STRIPE_WEBHOOK_SECRET is not set. See docs/integration.md.",
  signedBody: {
    headers: ["stripe-signature"],
    schema: stripeEventSchema,
    example: {
      id: "evt_1PqB2cD3eF4gH5iJ",
      object: "event",
      type: "account.updated",
      created: 1795780800,
      data: { object: { id: "acct_1Nv0FGQ9RKHgCVdK", object: "account", charges_enabled: true, payouts_enabled: true } },
    },
  },
  success: { status: 200, description: "Verified and stored (or stored before)", schema: webhookReceiptSchema },
  errors: [400, 413, 415, 503],
});

export const clerkWebhookEndpoint = defineEndpoint({
  method: "post",
  path: "/api/webhooks/clerk",
  area: "integrations",
  access: "public",
  summary: "Clerk's webhook (through Svix): user.updated and user.deleted, signed by Clerk",
  description:
    "Verified with the svix package against CLERK_WEBHOOK_SIGNING_SECRET over the body exactly as sent (svix-id, svix-timestamp, svix-signature headers; 5 minutes' tolerance); anything not verified is 400 and stored nowhere. Each event is stored once by its svix-id and processed in the background: user.updated keeps staff and artists' e-mails current, user.deleted ends a staff member's access and puts an artist whose account was deleted in the attention inbox; other types are stored and ignored. 503 while CLERK_WEBHOOK_SIGNING_SECRET is not set. See docs/integration.md.",
  signedBody: {
    headers: ["svix-id", "svix-timestamp", "svix-signature"],
    schema: clerkEventSchema,
    example: { object: "event", type: "user.deleted", timestamp: 1795780800000, data: { id: "user_2abcDEF", object: "user", deleted: true } },
  },
  success: { status: 200, description: "Verified and stored (or stored before)", schema: webhookReceiptSchema },
  errors: [400, 413, 415, 503],
});

export const listIncomingEventsEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/integrations/incoming-events",
  area: "integrations",
  access: "staff",
  summary: "Everything that came in (storefront events, Stripe's and Clerk's webhooks) with its outcome, newest first",
  description: "Keyset pagination: every page costs the same at any depth. Filter by `source` and `outcome`.",
  query: incomingEventsQuerySchema,
  success: { status: 200, description: "The page and the next cursor", schema: incomingEventsResponseSchema },
  errors: [400],
});

export const retryIncomingEventEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/integrations/incoming-events/{id}/retry",
  area: "integrations",
  access: { roles: ["admin"] },
  summary: "Process a failed Stripe or Clerk event again",
  params: z.object({ id: z.string() }),
  success: { status: 200, description: "The event, pending again", schema: z.object({ event: incomingEventSchema }) },
  errors: [404, 409],
  invalidates: ["integrations", "financials", "vendors", "dashboard", "admin-users"],
});
