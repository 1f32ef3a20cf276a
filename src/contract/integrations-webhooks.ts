import { z } from "zod";
import { forbiddenIdentityCharacter } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";

/**
 * Decisions out (docs/integration.md "Webhooks"): the panel tells the storefront what it decided by
 * signed webhooks (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`). Each
 * event is recorded in the transaction of the decision it reports and delivered at least once to
 * every enabled endpoint subscribed to its type. Body: `{id, type, createdAt, data}`.
 */

/** Every event type an endpoint may subscribe to (`webhook.test` is sent only by 'Send test'). */
export const WEBHOOK_EVENT_TYPES = [
  "artist.status_changed",
  "artist.deleted",
  "product.status_changed",
  "featured_artist.changed",
  "settings.changed",
  "announcement.published",
  "announcement.withdrawn",
  "payout.paid",
  "payout.failed",
  "order.refunded",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** A type of event out, the test one included. */
export type EventOutType = WebhookEventType | "webhook.test";

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  "artist.status_changed": "An artist enabled, disabled or suspended, or its application decided",
  "artist.deleted": "An artist deleted",
  "product.status_changed": "A product hidden or restored, waiting for review, approved or rejected",
  "featured_artist.changed": "The featured artist or the next one changed",
  "settings.changed": "Public settings changed (maintenance mode, announcement, fees, product limit)",
  "announcement.published": "An announcement put on artists' dashboards",
  "announcement.withdrawn": "An announcement taken off artists' dashboards",
  "payout.paid": "A payout paid",
  "payout.failed": "A payout failed",
  "order.refunded": "An order refunded from the panel",
};

/** The settings the storefront acts on; `settings.changed` carries these only. */
export const PUBLIC_SETTING_KEYS = [
  "maintenance_mode",
  "announcement_message",
  "monthly_subscription_fee",
  "platform_fee_percentage",
  "shipping_handling_fee",
  "minimum_payout_amount",
  "max_products_per_vendor",
] as const;

/** The retry schedule after a failed attempt (each ±20 % jitter): about a day in all. */
export const WEBHOOK_RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 14_400_000, 43_200_000] as const;
/** Attempts of one delivery: the first and one per retry delay. */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;
/** How long the previous secret keeps signing beside the new one after a rotation. */
export const WEBHOOK_PREVIOUS_SECRET_HOURS = 24;
/** An endpoint whose every attempt failed for this many days is disabled. */
export const WEBHOOK_FAILING_DAYS = 3;
export const MAX_WEBHOOK_ENDPOINTS = 20;
export const MAX_WEBHOOK_URL_LENGTH = 2000;
export const MAX_WEBHOOK_DESCRIPTION_LENGTH = 200;
export const MAX_WEBHOOK_DELIVERIES_PAGE = 100;

// --- The events' data (documented in /api/openapi.json through the endpoints' examples and docs/integration.md) ---

/** An artist as every event names it: the panel's id and the storefront's (null when it did not come from the storefront). */
const artistRef = { vendorId: z.string(), artistId: z.string().nullable() };

/**
 * `status`: active, inactive (disabled or suspended), pending (an application waiting),
 * changes_requested (the artist is asked to change its application: `reason` says what) or rejected;
 * `reason`: what the artist is told (null when the operator gave none, as for an enable without a note).
 */
export const artistStatusChangedSchema = z.object({
  ...artistRef,
  status: z.enum(["active", "inactive", "suspended", "pending", "changes_requested", "rejected"]),
  reason: z.string().nullable(),
});
export const artistDeletedSchema = z.object(artistRef);
export const productStatusChangedSchema = z.object({
  productId: z.string(),
  externalProductId: z.string().nullable(),
  ...artistRef,
  /**
   * hidden: taken off the storefront by an operator (reason: what the artist is shown); restored: no
   * longer hidden, shown as its artist has it; pending_review: a new listing waiting in the Review
   * queue, not to be shown yet; approved: reviewed and shown as its artist has it; rejected: refused
   * in review, never shown (reason: what the artist is shown).
   */
  status: z.enum(["hidden", "restored", "pending_review", "approved", "rejected"]),
  reason: z.string().nullable(),
});
const featuredSlotRef = z.object({ ...artistRef, startsAt: z.string(), endsAt: z.string() }).nullable();
export const featuredArtistChangedSchema = z.object({ current: featuredSlotRef, next: featuredSlotRef });
/** `changes`: each public setting (PUBLIC_SETTING_KEYS) that changed, with its new value as the settings keep it. */
export const settingsChangedSchema = z.object({ changes: z.record(z.string(), z.string()) });
export const announcementPublishedSchema = z.object({
  announcementId: z.string(),
  title: z.string(),
  message: z.string(),
  /** The message rendered and sanitised. */
  html: z.string(),
  /** Which artists see it on their dashboard: all, the active or the inactive ones. */
  audience: z.enum(["all", "active", "inactive"]),
  publishedAt: z.string(),
  showUntil: z.string().nullable(),
});
export const announcementWithdrawnSchema = z.object({ announcementId: z.string(), withdrawnAt: z.string() });
export const payoutEventSchema = z.object({ ...artistRef, payoutId: z.string(), amountCents: z.number().int(), transferId: z.string().optional(), reason: z.string().optional() });

/** A refund made from the panel (docs/integration.md "Webhooks"): what went back on which lines; `nettedFromNextPayout` when the artist had already been paid for the line. */
export const orderRefundedOutSchema = z.object({
  /** The panel's refund id (also the refund's `metadata.refund_id` at Stripe). */
  refundId: z.string(),
  stripeRefundId: z.string(),
  /** The storefront's order id; null for an order recorded without one. */
  orderId: z.string().nullable(),
  paymentIntentId: z.string(),
  amountCents: z.number().int(),
  reason: z.string(),
  lines: z.array(
    z.object({
      orderLineId: z.string(),
      lineId: z.string().nullable(),
      ...artistRef,
      amountCents: z.number().int(),
      nettedFromNextPayout: z.boolean(),
    }),
  ),
});

export type ArtistStatusChanged = z.infer<typeof artistStatusChangedSchema>;
export type ArtistDeleted = z.infer<typeof artistDeletedSchema>;
export type ProductStatusChanged = z.infer<typeof productStatusChangedSchema>;
export type FeaturedArtistChanged = z.infer<typeof featuredArtistChangedSchema>;
export type SettingsChanged = z.infer<typeof settingsChangedSchema>;
export type AnnouncementPublished = z.infer<typeof announcementPublishedSchema>;
export type AnnouncementWithdrawn = z.infer<typeof announcementWithdrawnSchema>;
export type PayoutEvent = z.infer<typeof payoutEventSchema>;
export type OrderRefundedOut = z.infer<typeof orderRefundedOutSchema>;

/** The `data` of each type. */
export interface EventOutData {
  "artist.status_changed": ArtistStatusChanged;
  "artist.deleted": ArtistDeleted;
  "product.status_changed": ProductStatusChanged;
  "featured_artist.changed": FeaturedArtistChanged;
  "settings.changed": SettingsChanged;
  "announcement.published": AnnouncementPublished;
  "announcement.withdrawn": AnnouncementWithdrawn;
  "payout.paid": PayoutEvent;
  "payout.failed": PayoutEvent;
  "order.refunded": OrderRefundedOut;
  "webhook.test": Record<string, never>;
}

/** The body of every webhook: the event's id (also `webhook-id`), its type, when the decision was taken, and its data. */
export interface EventOutBody<T extends EventOutType = EventOutType> {
  id: string;
  type: T;
  createdAt: string;
  data: EventOutData[T];
}

// --- Endpoints and deliveries ---

export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES, { error: `must be one of ${WEBHOOK_EVENT_TYPES.join(", ")}` });

const urlSchema = z
  .string({ error: "must be a URL" })
  .trim()
  .min(1, "is required")
  .max(MAX_WEBHOOK_URL_LENGTH, `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`)
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: "custom", message: "must be an http(s) URL such as https://shop.example.com/webhooks/hki" });
      return;
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") ctx.addIssue({ code: "custom", message: "must be an http(s) URL such as https://shop.example.com/webhooks/hki" });
    else if (url.username || url.password) ctx.addIssue({ code: "custom", message: "must not contain a user name or password (the signature proves who sent it)" });
    else if (url.hash) ctx.addIssue({ code: "custom", message: "must not contain a #fragment" });
  });

const eventsSchema = z
  .array(webhookEventTypeSchema, { error: `must be a list of event types (${WEBHOOK_EVENT_TYPES.join(", ")})` })
  .min(1, "choose at least one event type")
  .max(WEBHOOK_EVENT_TYPES.length, "names an event type twice")
  .refine((events) => new Set(events).size === events.length, "names an event type twice");

const descriptionSchema = z
  .string({ error: "must be a string" })
  .trim()
  .max(MAX_WEBHOOK_DESCRIPTION_LENGTH, `must be at most ${MAX_WEBHOOK_DESCRIPTION_LENGTH} characters`)
  .superRefine((value, ctx) => {
    const found = forbiddenIdentityCharacter(value);
    if (found) ctx.addIssue({ code: "custom", message: `must not contain control, invisible or direction-changing characters (found ${found})` });
  });

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  /** Why it is disabled: by an admin, the receiver answered 410 Gone, or every attempt failed for 3 days. */
  disabledReason: z.enum(["admin", "gone", "failing"]).nullable(),
  disabledAt: z.string().nullable(),
  /** The first failed attempt since the last success; null while deliveries succeed. */
  failingSince: z.string().nullable(),
  lastSuccessAt: z.string().nullable(),
  /** Until when the previous secret still signs beside the current one (after a rotation); null when it does not. */
  previousSecretExpiresAt: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const createWebhookEndpointRequestSchema = z.strictObject({ url: urlSchema, events: eventsSchema, description: descriptionSchema.optional() });
export type CreateWebhookEndpointRequest = z.infer<typeof createWebhookEndpointRequestSchema>;

export const updateWebhookEndpointRequestSchema = z
  .strictObject({ url: urlSchema.optional(), events: eventsSchema.optional(), enabled: z.boolean({ error: "must be true or false" }).optional(), description: descriptionSchema.optional() })
  .refine((body) => Object.values(body).some((v) => v !== undefined), "name at least one of url, events, enabled, description");
export type UpdateWebhookEndpointRequest = z.infer<typeof updateWebhookEndpointRequestSchema>;

/** An endpoint with its signing secret: answered by creation and rotation only, never again. */
export const webhookEndpointWithSecretSchema = z.object({
  endpoint: webhookEndpointSchema,
  /** `whsec_` and the base64 of 32 random bytes, as Standard Webhooks libraries take it. */
  secret: z.string(),
});
export type WebhookEndpointWithSecret = z.infer<typeof webhookEndpointWithSecretSchema>;

export const webhookEndpointsResponseSchema = z.object({ items: z.array(webhookEndpointSchema) });
export type WebhookEndpointsResponse = z.infer<typeof webhookEndpointsResponseSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const webhookDeliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  /** pending: waiting for its first or next attempt; delivered: a 2xx came back; failed: given up (after every retry, or the endpoint answered 410). */
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  lastAttemptAt: z.string().nullable(),
  /** The HTTP status of the last attempt; null when it got no answer (timeout, refused connection) or none was made. */
  lastStatusCode: z.number().int().nullable(),
  lastDurationMs: z.number().int().nullable(),
  lastError: z.string().nullable(),
  /** The start of the last answer's body (at most 1 kB). */
  lastResponseBody: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveriesQuerySchema = z.object({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES, { error: "must be pending, delivered or failed" }).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_WEBHOOK_DELIVERIES_PAGE).default(20),
  cursor: z.string().max(300).optional(),
});
export type WebhookDeliveriesQuery = z.infer<typeof webhookDeliveriesQuerySchema>;

export const webhookDeliveriesResponseSchema = z.object({
  /** Newest first. */
  deliveries: z.array(webhookDeliverySchema),
  nextCursor: z.string().nullable(),
});
export type WebhookDeliveriesResponse = z.infer<typeof webhookDeliveriesResponseSchema>;

const endpointIdParams = z.object({ id: z.string() });
const deliveryParams = z.object({ id: z.string(), deliveryId: z.string() });

export const createWebhookEndpointEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/integrations/webhooks",
  area: "integrations",
  access: { roles: ["admin"] },
  stepUp: true,
  summary: "Add a webhook endpoint; its signing secret is in this answer only",
  description:
    "The panel signs every delivery with the secret (Standard Webhooks). Outside development the URL must be https and may not point at a private, loopback or link-local address (checked again on the address each delivery connects to).",
  body: createWebhookEndpointRequestSchema,
  bodyExample: { url: "https://shop.example.com/webhooks/hki", events: ["artist.status_changed", "product.status_changed"], description: "Storefront (production)" },
  success: { status: 201, description: "The endpoint and its secret (shown once)", schema: webhookEndpointWithSecretSchema },
  errors: [409],
  invalidates: ["integrations"],
});

export const listWebhookEndpointsEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/integrations/webhooks",
  area: "integrations",
  access: "staff",
  summary: "The webhook endpoints: address, event types, enabled or why not, failing since, last success",
  success: { status: 200, description: "Every endpoint, newest first", schema: webhookEndpointsResponseSchema },
});

export const updateWebhookEndpointEndpoint = defineEndpoint({
  method: "patch",
  path: "/api/admin/integrations/webhooks/{id}",
  area: "integrations",
  access: { roles: ["admin"] },
  summary: "Change an endpoint's URL, event types, description, or enable or disable it",
  description: "Enabling sends what waited while it was disabled; disabling holds its deliveries until it is enabled again.",
  params: endpointIdParams,
  body: updateWebhookEndpointRequestSchema,
  bodyExample: { enabled: false },
  success: { status: 200, description: "The endpoint as changed", schema: z.object({ endpoint: webhookEndpointSchema }) },
  errors: [404],
  invalidates: ["integrations", "dashboard"],
});

export const deleteWebhookEndpointEndpoint = defineEndpoint({
  method: "delete",
  path: "/api/admin/integrations/webhooks/{id}",
  area: "integrations",
  access: { roles: ["admin"] },
  summary: "Delete an endpoint and its delivery log; nothing more is sent to it",
  params: endpointIdParams,
  success: { status: 200, description: "The endpoint as it was", schema: z.object({ endpoint: webhookEndpointSchema }) },
  errors: [404],
  invalidates: ["integrations", "dashboard"],
});

export const rotateWebhookSecretEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/integrations/webhooks/{id}/rotate-secret",
  area: "integrations",
  access: { roles: ["admin"] },
  summary: "Replace an endpoint's signing secret; the old one keeps signing beside it for 24 hours",
  description: "For 24 hours every delivery carries two signatures in `webhook-signature` (the new secret's and the old one's), so the receiver can switch secrets without losing a delivery.",
  params: endpointIdParams,
  success: { status: 200, description: "The endpoint and its new secret (shown once)", schema: webhookEndpointWithSecretSchema },
  errors: [404],
  invalidates: ["integrations"],
});

export const testWebhookEndpointEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/integrations/webhooks/{id}/test",
  area: "integrations",
  access: { roles: ["admin"] },
  summary: "Send a `webhook.test` event to this endpoint only",
  params: endpointIdParams,
  success: { status: 201, description: "The delivery, queued", schema: z.object({ delivery: webhookDeliverySchema }) },
  errors: [404, 409],
  invalidates: ["integrations"],
});

export const listWebhookDeliveriesEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/integrations/webhooks/{id}/deliveries",
  area: "integrations",
  access: "staff",
  summary: "An endpoint's deliveries, newest first: event type, status, attempts, last HTTP status and duration, next attempt",
  params: endpointIdParams,
  query: webhookDeliveriesQuerySchema,
  success: { status: 200, description: "One page of deliveries", schema: webhookDeliveriesResponseSchema },
  errors: [404],
});

export const resendWebhookDeliveryEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/integrations/webhooks/{id}/deliveries/{deliveryId}/resend",
  area: "integrations",
  access: { roles: ["admin"] },
  summary: "Send a delivery's event to its endpoint again, as a new delivery",
  params: deliveryParams,
  success: { status: 201, description: "The new delivery, queued", schema: z.object({ delivery: webhookDeliverySchema }) },
  errors: [404, 409],
  invalidates: ["integrations"],
});
