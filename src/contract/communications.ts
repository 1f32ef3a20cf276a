import { z } from "zod";
import { defineEndpoint } from "./endpoint.ts";

/**
 * Announcements to artists (docs/product.md §17): by e-mail (one delivery record per artist, sent
 * by a background job) and on their dashboard in the storefront (GET /api/public/announcements).
 */

export const ANNOUNCEMENT_AUDIENCES = ["all", "active", "inactive", "vendorIds"] as const;
export type AnnouncementAudience = (typeof ANNOUNCEMENT_AUDIENCES)[number];
export const ANNOUNCEMENT_CHANNELS = ["email", "dashboard"] as const;
export type AnnouncementChannel = (typeof ANNOUNCEMENT_CHANNELS)[number];
/** queueing: recipients being written; sending: mails going out; sent: every mail settled (sent or failed); canceled. */
export const ANNOUNCEMENT_STATUSES = ["queueing", "sending", "sent", "canceled"] as const;
export type AnnouncementStatus = (typeof ANNOUNCEMENT_STATUSES)[number];
/** A recipient's delivery: pending (includes being sent right now), sent, failed, or canceled with its announcement. */
export const RECIPIENT_STATUSES = ["pending", "sent", "failed", "canceled"] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

export const MAX_TITLE_LENGTH = 200;
export const MAX_MESSAGE_LENGTH = 20_000;
/** Chosen artists per announcement (audience vendorIds). */
export const MAX_CHOSEN_VENDORS = 5_000;
export const MAX_COMMUNICATIONS_PAGE = 100;

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

const title = z
  .string({ error: "is required" })
  .trim()
  .min(1, "is required")
  .max(MAX_TITLE_LENGTH, `must be at most ${MAX_TITLE_LENGTH} characters`)
  .refine((t) => !/[\r\n]/.test(t) && !CONTROL_CHARACTERS.test(t), "must be one line of text");

const message = z
  .string({ error: "is required" })
  .max(MAX_MESSAGE_LENGTH, `must be at most ${MAX_MESSAGE_LENGTH} characters`)
  .refine((m) => m.trim().length > 0, "is required")
  .refine((m) => !CONTROL_CHARACTERS.test(m), "must be plain text (no control characters)");

/**
 * The body of a send and of its preview. The rules across fields (vendorIds only with audience
 * vendorIds, showUntil only with the dashboard and in the future, the dashboard not for chosen
 * artists) are checked by the server, each reported on its field.
 */
export const announcementRequestSchema = z.strictObject({
  title,
  message,
  audience: z.enum(ANNOUNCEMENT_AUDIENCES, { error: "must be all, active, inactive or vendorIds" }),
  vendorIds: z.array(z.string().min(1).max(64), { error: "must be a list of vendor ids" }).max(MAX_CHOSEN_VENDORS, `must list at most ${MAX_CHOSEN_VENDORS} vendors`).optional(),
  includeInternal: z.boolean({ error: "must be true or false" }).optional(),
  channels: z
    .array(z.enum(ANNOUNCEMENT_CHANNELS, { error: "each must be email or dashboard" }), { error: "must be a list of email and/or dashboard" })
    .min(1, "choose at least one channel (email, dashboard)")
    .max(2, "must list each channel once")
    .refine((list) => new Set(list).size === list.length, "must list each channel once"),
  showUntil: z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time" }).optional(),
});
export type AnnouncementRequest = z.input<typeof announcementRequestSchema>;

/** The delivery counts (a plain object of fields: the web bundle cannot read a schema's shape, decision 0008). */
const countFields = {
  /** Delivery records (artists queued for e-mail); 0 for a dashboard-only announcement. */
  recipients: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  /** Not sent yet (waiting, being sent, or waiting to retry after a temporary refusal). */
  pending: z.number().int(),
  canceled: z.number().int(),
};

export const announcementSchema = z.object({
  id: z.string(),
  title: z.string(),
  message: z.string(),
  /** The message rendered and sanitised, as in the mail's HTML part. */
  html: z.string(),
  audience: z.enum(ANNOUNCEMENT_AUDIENCES),
  /** The chosen vendors (audience vendorIds), else null. */
  vendorIds: z.array(z.string()).nullable(),
  includeInternal: z.boolean(),
  channels: z.array(z.enum(ANNOUNCEMENT_CHANNELS)),
  status: z.enum(ANNOUNCEMENT_STATUSES),
  showUntil: z.string().nullable(),
  /** When the dashboard banner was taken down, else null. */
  takenDownAt: z.string().nullable(),
  /** True while artists see it on their dashboard. */
  onDashboard: z.boolean(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  /** When the last mail was settled (or it was canceled). */
  finishedAt: z.string().nullable(),
  ...countFields,
});
export type AnnouncementItem = z.infer<typeof announcementSchema>;

export const announcementResponseSchema = z.object({ announcement: announcementSchema });
export type AnnouncementResponse = z.infer<typeof announcementResponseSchema>;

export const previewResponseSchema = z.object({
  /** The mail's HTML part (sanitised: no script, event handler or javascript: link). */
  html: z.string(),
  /** The mail's plain-text part. */
  text: z.string(),
  /** Artists the announcement reaches now. */
  recipients: z.number().int(),
});
export type PreviewResponse = z.infer<typeof previewResponseSchema>;

const limit = z.coerce.number().int().min(1).max(MAX_COMMUNICATIONS_PAGE).default(20);
const cursor = z.string().max(300).optional();

export const announcementsQuerySchema = z.object({ limit, cursor });
export const announcementsResponseSchema = z.object({
  announcements: z.array(announcementSchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type AnnouncementsResponse = z.infer<typeof announcementsResponseSchema>;

export const recipientsQuerySchema = z.object({
  status: z.enum(RECIPIENT_STATUSES, { error: "must be pending, sent, failed or canceled" }).optional(),
  limit,
  cursor,
});
export type RecipientsQuery = z.infer<typeof recipientsQuerySchema>;

export const recipientSchema = z.object({
  vendorId: z.string(),
  vendorName: z.string(),
  email: z.string(),
  status: z.enum(RECIPIENT_STATUSES),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  sentAt: z.string().nullable(),
});
export type RecipientItem = z.infer<typeof recipientSchema>;

export const recipientsResponseSchema = z.object({
  recipients: z.array(recipientSchema),
  nextCursor: z.string().nullable(),
});
export type RecipientsResponse = z.infer<typeof recipientsResponseSchema>;

/** What the storefront shows on artists' dashboards: nothing but the texts and dates. */
export const publicAnnouncementSchema = z.object({
  title: z.string(),
  message: z.string(),
  /** The message rendered and sanitised. */
  html: z.string(),
  /** Which artists it is for: all, the active or the inactive ones. */
  audience: z.enum(["all", "active", "inactive"]),
  publishedAt: z.string(),
  showUntil: z.string().nullable(),
});
export const publicAnnouncementsResponseSchema = z.object({ announcements: z.array(publicAnnouncementSchema) });
export type PublicAnnouncementsResponse = z.infer<typeof publicAnnouncementsResponseSchema>;

const idParams = z.object({ id: z.string() });
const CHANGES = ["communications", "dashboard"] as const;
const EXAMPLE = {
  title: "Holiday shipping dates",
  message: "Hello!\n\nOrders placed after **December 18** may arrive after the holidays. Details: [shipping guide](https://hki.global/help/shipping).",
  audience: "active",
  channels: ["email", "dashboard"],
  showUntil: "2026-12-24T00:00:00.000Z",
};

export const sendAnnouncementEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/communications/announcement",
  area: "communications",
  access: { roles: ["admin", "support"] },
  summary: "Send an announcement to artists by e-mail and/or on their dashboard",
  description: "Writes one delivery record per artist of the audience, then a background job sends the mails in batches (MAIL_MAX_PER_SECOND). 422 when the audience reaches nobody.",
  body: announcementRequestSchema,
  bodyExample: EXAMPLE,
  success: { status: 201, description: "The announcement, its recipients and status", schema: announcementResponseSchema },
  errors: [400, 415, 422],
  invalidates: CHANGES,
});

export const previewAnnouncementEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/communications/preview",
  area: "communications",
  access: { roles: ["admin", "support"] },
  summary: "The mail an announcement would send and how many artists it reaches; sends nothing",
  body: announcementRequestSchema,
  bodyExample: EXAMPLE,
  success: { status: 200, description: "The HTML and text parts and the number of recipients", schema: previewResponseSchema },
  errors: [400, 415],
});

export const listAnnouncementsEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/communications/announcements",
  area: "communications",
  access: "staff",
  summary: "Announcements, newest first, with their delivery counts",
  query: announcementsQuerySchema,
  success: { status: 200, description: "One page of announcements", schema: announcementsResponseSchema },
  errors: [400],
});

export const getAnnouncementEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/communications/announcements/{id}",
  area: "communications",
  access: "staff",
  summary: "One announcement with its delivery counts",
  params: idParams,
  success: { status: 200, description: "The announcement", schema: announcementResponseSchema },
  errors: [404],
});

export const listRecipientsEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/communications/announcements/{id}/recipients",
  area: "communications",
  access: "staff",
  summary: "An announcement's delivery records, filtered by status",
  params: idParams,
  query: recipientsQuerySchema,
  success: { status: 200, description: "One page of recipients", schema: recipientsResponseSchema },
  errors: [400, 404],
});

export const retryFailedEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/communications/announcements/{id}/retry-failed",
  area: "communications",
  access: { roles: ["admin", "support"] },
  summary: "Send again to every recipient whose mail failed",
  params: idParams,
  success: { status: 200, description: "The announcement", schema: announcementResponseSchema },
  errors: [404, 409],
  invalidates: CHANGES,
});

export const cancelAnnouncementEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/communications/announcements/{id}/cancel",
  area: "communications",
  access: { roles: ["admin", "support"] },
  summary: "Stop sending: mails not sent yet are canceled (those being handed to the mail server finish)",
  params: idParams,
  success: { status: 200, description: "The announcement", schema: announcementResponseSchema },
  errors: [404, 409],
  invalidates: CHANGES,
});

export const takeDownAnnouncementEndpoint = defineEndpoint({
  method: "delete",
  path: "/api/admin/communications/announcements/{id}/dashboard",
  area: "communications",
  access: { roles: ["admin", "support"] },
  summary: "Take the announcement off artists' dashboards",
  params: idParams,
  success: { status: 200, description: "The announcement", schema: announcementResponseSchema },
  errors: [404, 409],
  invalidates: CHANGES,
});

/** How long browsers and proxies may keep the public list (seconds). */
export const PUBLIC_ANNOUNCEMENTS_MAX_AGE_SECONDS = 30;

export const publicAnnouncementsEndpoint = defineEndpoint({
  method: "get",
  path: "/api/public/announcements",
  area: "communications",
  cache: { per: "everyone" },
  access: "public",
  summary: "The announcements artists see on their dashboard now (title, message, dates)",
  description: `Read-only and cacheable (Cache-Control: public, max-age=${PUBLIC_ANNOUNCEMENTS_MAX_AGE_SECONDS}); nothing private: no recipients, authors or counts.`,
  success: {
    status: 200,
    description: "Current dashboard announcements, newest first",
    schema: publicAnnouncementsResponseSchema,
    cacheControl: `public, max-age=${PUBLIC_ANNOUNCEMENTS_MAX_AGE_SECONDS}`,
  },
});
