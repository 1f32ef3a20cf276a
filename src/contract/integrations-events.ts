import { z } from "zod";
import { forbiddenIdentityCharacter, identityTextSchema } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";
import { MAX_APPLICATION_IMAGES } from "./vendors.ts";

/**
 * The storefront's events (docs/integration.md): what happened on the storefront, sent in batches
 * to POST /api/events with an API key holding `events:write`. Each event is applied on its own,
 * atomically, and answered in order. Ids are the storefront's own strings; money is integer cents
 * (USD); times are ISO 8601 with a zone. Every `data` refuses keys it does not know.
 */

export const MAX_EVENTS_PER_BATCH = 500;
export const MAX_EXTERNAL_ID_LENGTH = 100;
/** The largest amount of money one field may hold: ten million dollars, in cents. */
export const MAX_CENTS = 1_000_000_000;
export const MAX_ORDER_LINES = 100;

/** A storefront id: 1–100 characters, not starting or ending with spaces, none of them control, invisible or direction-changing. */
export const externalIdSchema = z
  .string({ error: "must be a string" })
  .min(1, "is required")
  .max(MAX_EXTERNAL_ID_LENGTH, `must be at most ${MAX_EXTERNAL_ID_LENGTH} characters`)
  .superRefine((value, ctx) => {
    if (value.trim() !== value) ctx.addIssue({ code: "custom", message: "must not start or end with spaces" });
    const found = forbiddenIdentityCharacter(value);
    if (found) ctx.addIssue({ code: "custom", message: `must not contain control, invisible or direction-changing characters (found ${found})` });
  });

export const isoTimeSchema = z
  .string({ error: "must be an ISO 8601 time" })
  .max(40, "must be an ISO 8601 time")
  .pipe(z.iso.datetime({ offset: true, error: "must be an ISO 8601 time with a zone, e.g. 2026-11-22T12:00:00Z" }));

const centsSchema = z.number({ error: "must be a whole number of cents" }).int("must be a whole number of cents").min(0, "must not be negative").max(MAX_CENTS, `must be at most ${MAX_CENTS} cents`);
const positiveCentsSchema = centsSchema.refine((n) => n > 0, "must be more than 0");

const emailSchema = z.string({ error: "must be an e-mail address" }).trim().toLowerCase().max(320, "must be at most 320 characters").pipe(z.email("must be a valid e-mail address"));
const slugSchema = z
  .string({ error: "must be a string" })
  .max(100, "must be at most 100 characters")
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be lower-case letters, digits and single hyphens");
const colourSchema = z.string({ error: "must be a colour" }).regex(/^#[0-9a-fA-F]{6}$/, "must be a colour like #1a2b3c");
const plainText = (max: number) =>
  z
    .string({ error: "must be a string" })
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !s.includes("\u0000"), "must not contain NUL characters");

export const artistCustomizationSchema = z.strictObject({
  theme: z
    .string({ error: "must be a string" })
    .max(50, "must be at most 50 characters")
    .regex(/^[a-z0-9-]+$/, "must be lower-case letters, digits and hyphens")
    .optional(),
  primaryColor: colourSchema.optional(),
  secondaryColor: colourSchema.optional(),
  about: plainText(5000).optional(),
  /** Stored as written and sanitised on the way out, as every store's CSS (domain/customization/sanitize-customization.ts). */
  customCss: plainText(50_000).optional(),
  customHtml: plainText(50_000).nullable().optional(),
});

const webUrl = (what: string) =>
  z
    .string({ error: `must be ${what}` })
    .max(2000, "must be at most 2000 characters")
    .refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === "https:" || url.protocol === "http:") && !url.username && !url.password;
      } catch {
        return false;
      }
    }, `must be ${what}`);

/**
 * What an artist sends to apply (docs/integration.md "Applications"): kept with the artist and shown
 * in full on the Applications tab. Sample images must be on the storefront's own host (its
 * STOREFRONT_URL's origin): the panel shows no image from anywhere else.
 */
export const artistApplicationDataSchema = z.strictObject({
  portfolioUrl: webUrl("an http(s) URL"),
  statement: plainText(5000).refine((s) => s.trim() !== "", "is required"),
  sampleImageUrls: z
    .array(webUrl("an http(s) URL of an image on the storefront's host"), { error: "must be a list of image URLs" })
    .max(MAX_APPLICATION_IMAGES, `must hold at most ${MAX_APPLICATION_IMAGES} images`),
  referral: plainText(200).optional(),
});
export type ArtistApplicationData = z.infer<typeof artistApplicationDataSchema>;

export const artistDataSchema = z.strictObject({
  artistId: externalIdSchema,
  name: identityTextSchema({ max: 200, requiredMessage: "is required" }),
  ownerName: identityTextSchema({ max: 200, requiredMessage: "is required" }),
  email: emailSchema,
  slug: slugSchema,
  isInternal: z.boolean({ error: "must be true or false" }).optional(),
  joinedAt: isoTimeSchema.optional(),
  clerkUserId: externalIdSchema.optional(),
  stripeAccountId: z
    .string({ error: "must be a string" })
    .regex(/^acct_[A-Za-z0-9]{1,64}$/, "must be a Stripe account id (acct_…)")
    .optional(),
  customization: artistCustomizationSchema.optional(),
  /** The artist's application: with 'Artist approval' on, a new artist waits in the Applications queue (docs/integration.md). */
  application: artistApplicationDataSchema.optional(),
});
export type ArtistData = z.infer<typeof artistDataSchema>;

export const artistDeletedDataSchema = z.strictObject({ artistId: externalIdSchema });

export const STOREFRONT_PRODUCT_STATUSES = ["draft", "active", "archived"] as const;

export const productDataSchema = z.strictObject({
  productId: externalIdSchema,
  artistId: externalIdSchema,
  name: identityTextSchema({ max: 200, requiredMessage: "is required" }),
  priceCents: centsSchema,
  inventory: z.number({ error: "must be a whole number" }).int("must be a whole number").min(0, "must not be negative").max(10_000_000, "must be at most 10000000"),
  status: z.enum(STOREFRONT_PRODUCT_STATUSES, { error: `must be one of ${STOREFRONT_PRODUCT_STATUSES.join(", ")}` }),
});
export type ProductData = z.infer<typeof productDataSchema>;

export const productDeletedDataSchema = z.strictObject({ productId: externalIdSchema });

const orderLineSchema = z.strictObject({
  lineId: externalIdSchema,
  productId: externalIdSchema,
  artistId: externalIdSchema,
  quantity: z.number({ error: "must be a whole number" }).int("must be a whole number").min(1, "must be at least 1").max(10_000, "must be at most 10000"),
  unitPriceCents: centsSchema,
});

const optionalReference = z
  .string({ error: "must be a string" })
  .min(1, "must not be empty")
  .max(200, "must be at most 200 characters")
  .regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces")
  .optional();

export const orderPaidDataSchema = z.strictObject({
  orderId: externalIdSchema,
  customerEmail: emailSchema,
  paidAt: isoTimeSchema,
  paymentIntentId: optionalReference,
  chargeId: optionalReference,
  lines: z
    .array(orderLineSchema, { error: "must be a list of lines" })
    .min(1, "must hold at least one line")
    .max(MAX_ORDER_LINES, `must hold at most ${MAX_ORDER_LINES} lines`)
    .refine((lines) => new Set(lines.map((l) => l.lineId)).size === lines.length, "names a lineId twice"),
});
export type OrderPaidData = z.infer<typeof orderPaidDataSchema>;

export const orderRefundedDataSchema = z
  .strictObject({
    orderId: externalIdSchema,
    refundId: externalIdSchema,
    amountCents: positiveCentsSchema,
    lines: z
      .array(z.strictObject({ lineId: externalIdSchema, amountCents: positiveCentsSchema }), { error: "must be a list of lines" })
      .min(1, "must hold at least one line when given")
      .max(MAX_ORDER_LINES, `must hold at most ${MAX_ORDER_LINES} lines`)
      .refine((lines) => new Set(lines.map((l) => l.lineId)).size === lines.length, "names a lineId twice")
      .optional(),
    reason: plainText(500).optional(),
  })
  .superRefine((d, ctx) => {
    if (d.lines && d.lines.reduce((sum, l) => sum + l.amountCents, 0) !== d.amountCents) {
      ctx.addIssue({ code: "custom", path: ["lines"], message: "the lines' amounts must add up to amountCents" });
    }
  });
export type OrderRefundedData = z.infer<typeof orderRefundedDataSchema>;

export const subscriptionPaidDataSchema = z
  .strictObject({
    subscriptionId: externalIdSchema,
    artistId: externalIdSchema,
    periodStart: isoTimeSchema,
    periodEnd: isoTimeSchema,
    amountCents: centsSchema,
  })
  .superRefine((d, ctx) => {
    if (Date.parse(d.periodEnd) <= Date.parse(d.periodStart)) ctx.addIssue({ code: "custom", path: ["periodEnd"], message: "must be after periodStart" });
    else if (Date.parse(d.periodEnd) - Date.parse(d.periodStart) > 366 * 86_400_000) ctx.addIssue({ code: "custom", path: ["periodEnd"], message: "must be at most a year after periodStart" });
  });
export type SubscriptionPaidData = z.infer<typeof subscriptionPaidDataSchema>;

export const storeVisitsDataSchema = z.strictObject({
  artistId: externalIdSchema,
  day: z
    .string({ error: "must be a day (YYYY-MM-DD)" })
    .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a day (YYYY-MM-DD)")
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), "must be a real day (YYYY-MM-DD)"),
  visits: z.number({ error: "must be a whole number" }).int("must be a whole number").min(0, "must not be negative").max(1_000_000_000, "must be at most 1000000000"),
});
export type StoreVisitsData = z.infer<typeof storeVisitsDataSchema>;

export const errorReportedDataSchema = z.strictObject({
  level: z.enum(["error", "warning", "info"], { error: "must be error, warning or info" }),
  message: plainText(2000).refine((s) => s.trim() !== "", "is required"),
  endpoint: plainText(500).optional(),
  method: z
    .string({ error: "must be a string" })
    .regex(/^[A-Z]{1,10}$/, "must be an HTTP method such as GET")
    .optional(),
  statusCode: z.number({ error: "must be a whole number" }).int("must be a whole number").min(100, "must be an HTTP status").max(599, "must be an HTTP status").optional(),
  userEmail: plainText(320).optional(),
  ipAddress: plainText(100).optional(),
  userAgent: plainText(1000).optional(),
  stackTrace: plainText(20_000).optional(),
  context: z
    .record(z.string().max(100, "keys must be at most 100 characters"), z.unknown(), { error: "must be an object" })
    .refine((c) => JSON.stringify(c).length <= 10_000, "must be at most 10000 characters as JSON")
    .optional(),
});
export type ErrorReportedData = z.infer<typeof errorReportedDataSchema>;

/** Every event type and the schema of its `data`. */
export const STOREFRONT_EVENT_DATA = {
  "artist.created": artistDataSchema,
  "artist.updated": artistDataSchema,
  "artist.deleted": artistDeletedDataSchema,
  "product.created": productDataSchema,
  "product.updated": productDataSchema,
  "product.deleted": productDeletedDataSchema,
  "order.paid": orderPaidDataSchema,
  "order.refunded": orderRefundedDataSchema,
  "subscription.paid": subscriptionPaidDataSchema,
  "store.visits": storeVisitsDataSchema,
  "error.reported": errorReportedDataSchema,
} as const;
export type StorefrontEventType = keyof typeof STOREFRONT_EVENT_DATA;
export const STOREFRONT_EVENT_TYPES = Object.keys(STOREFRONT_EVENT_DATA) as StorefrontEventType[];

/**
 * One event as the envelope reads it: an id (needed to answer it) and no unknown keys; its type,
 * time and data are checked on their own, so a bad event is answered `rejected` and the others apply.
 */
const envelopeEventSchema = z.strictObject({
  id: externalIdSchema.describe("The sender's unique id of the event (1–100 characters): re-sending it is safe"),
  type: z.unknown().describe(`One of ${STOREFRONT_EVENT_TYPES.join(", ")}`),
  occurredAt: z.unknown().describe("When it happened on the storefront (ISO 8601 with a zone): an older update than the last applied is stale"),
  data: z.unknown().describe("The type's data: see the StorefrontEvent_* schemas and docs/integration.md"),
});

export const ingestEventsRequestSchema = z.strictObject({
  events: z.array(envelopeEventSchema, { error: "must be a list of events" }).min(1, "must hold at least one event").max(MAX_EVENTS_PER_BATCH, `must hold at most ${MAX_EVENTS_PER_BATCH} events`),
});
export type IngestEventsRequest = z.infer<typeof ingestEventsRequestSchema>;

export const EVENT_RESULT_STATUSES = ["applied", "duplicate", "stale", "rejected"] as const;
export type EventResultStatus = (typeof EVENT_RESULT_STATUSES)[number];

/**
 * Codes of a rejected event: invalid_input (fields names each one at fault, `data.` first for the
 * data's), unknown_artist and unknown_product (send again after the missing one), unknown_order,
 * id_reused (this id came before with another body), exceeds_paid (refunds beyond what was paid),
 * invalid_state (the panel cannot do it now, e.g. an artist with a payout being sent).
 */
export const EVENT_REJECTION_CODES = ["invalid_input", "unknown_artist", "unknown_product", "unknown_order", "id_reused", "exceeds_paid", "invalid_state"] as const;
export type EventRejectionCode = (typeof EVENT_REJECTION_CODES)[number];

export const eventResultSchema = z.object({
  id: z.string(),
  status: z.enum(EVENT_RESULT_STATUSES),
  error: z
    .object({
      code: z.enum(EVENT_REJECTION_CODES),
      message: z.string(),
      fields: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
});
export type EventResult = z.infer<typeof eventResultSchema>;

export const ingestEventsResponseSchema = z.object({ results: z.array(eventResultSchema) });
export type IngestEventsResponse = z.infer<typeof ingestEventsResponseSchema>;

export const ingestEventsEndpoint = defineEndpoint({
  method: "post",
  path: "/api/events",
  area: "integrations",
  access: "api-key",
  scope: "events:write",
  summary: "Send storefront events: each applied once, atomically, and answered in order",
  description:
    "Authorization: Bearer <API key with events:write>. 1–500 events, at most 1 MB. Each event is answered applied, duplicate (its id was applied before: nothing changes), stale (older than the last update applied to the same thing) or rejected with {code, message, fields}. An envelope that cannot be read is 400 and applies nothing. See docs/integration.md.",
  body: ingestEventsRequestSchema,
  bodyExample: {
    events: [
      {
        id: "evt_0001",
        type: "artist.created",
        occurredAt: "2026-11-22T12:00:00Z",
        data: { artistId: "art_1", name: "Blue Heron Prints", ownerName: "Ada Lovelace", email: "ada@example.com", slug: "blue-heron-prints" },
      },
      {
        id: "evt_0002",
        type: "product.created",
        occurredAt: "2026-11-22T12:01:00Z",
        data: { productId: "prd_1", artistId: "art_1", name: "Heron at dawn", priceCents: 4500, inventory: 10, status: "active" },
      },
    ],
  },
  success: { status: 200, description: "One result per event, in the order sent", schema: ingestEventsResponseSchema },
  errors: [403, 429],
  invalidates: ["dashboard", "featured-artist", "vendors", "products", "analytics", "financials", "error-logs"],
});
