import { z } from "zod";
import { defineEndpoint } from "./endpoint.ts";

/** Days an artist may be featured at once (docs/product.md §18.1). */
export const FEATURED_MIN_DAYS = 1;
export const FEATURED_MAX_DAYS = 90;
/** Slots that may wait in the queue after the current one. */
export const FEATURED_MAX_UPCOMING = 10;
/** Past slots listed, newest first. */
export const FEATURED_HISTORY_LIMIT = 20;

export const FEATURED_END_REASONS = ["replaced", "ended_early", "vendor_disabled", "vendor_deleted"] as const;
export type FeaturedEndReason = (typeof FEATURED_END_REASONS)[number];

/**
 * One featured slot. `endsAt` is its planned end; `endedAt`/`endReason` are set when it ended
 * (or, for a queued slot, was dropped) before that: replaced, ended by an admin, or its vendor
 * disabled or deleted.
 */
export const featuredSlotSchema = z.object({
  id: z.string(),
  vendorId: z.string(),
  /** The vendor's name when featured (kept after the vendor is deleted). */
  vendorName: z.string(),
  durationDays: z.number().int(),
  startsAt: z.string(),
  endsAt: z.string(),
  /** E-mail of the admin who set it. */
  setBy: z.string().nullable(),
  endedAt: z.string().nullable(),
  endReason: z.enum(FEATURED_END_REASONS).nullable(),
});
export type FeaturedSlot = z.infer<typeof featuredSlotSchema>;

export const featuredArtistResponseSchema = z.object({
  current: featuredSlotSchema.nullable(),
  /** Queued slots, in the order they will run, back to back after the current one. */
  upcoming: z.array(featuredSlotSchema),
  /** The latest past slots, newest first. */
  history: z.array(featuredSlotSchema),
});
export type FeaturedArtistResponse = z.infer<typeof featuredArtistResponseSchema>;

export const setFeaturedArtistRequestSchema = z.strictObject({
  vendorId: z.string().trim().min(1, "is required").max(100, "must be at most 100 characters"),
  /** Days, whole, 1–90. */
  duration: z
    .number({ error: "must be a whole number of days" })
    .int("must be a whole number of days")
    .min(FEATURED_MIN_DAYS, `must be between ${FEATURED_MIN_DAYS} and ${FEATURED_MAX_DAYS} days`)
    .max(FEATURED_MAX_DAYS, `must be between ${FEATURED_MIN_DAYS} and ${FEATURED_MAX_DAYS} days`),
  /** Queue it after the current (and already queued) slots instead of replacing the current one. */
  startAfterCurrent: z.boolean().optional(),
});
export type SetFeaturedArtistRequest = z.infer<typeof setFeaturedArtistRequestSchema>;

export const getFeaturedArtistEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/featured-artist",
  area: "featured-artist",
  access: "staff",
  summary: "The featured artist now, the queue after it and the latest past ones",
  success: { status: 200, description: "Current, upcoming and history", schema: featuredArtistResponseSchema },
});

export const setFeaturedArtistEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/featured-artist",
  area: "featured-artist",
  access: { roles: ["admin", "support"] },
  summary: "Feature an active, non-internal artist for 1–90 days: from now (replacing the current one) or queued after it",
  body: setFeaturedArtistRequestSchema,
  bodyExample: { vendorId: "0193b1c2-0000-7000-8000-000000000001", duration: 7 },
  success: { status: 201, description: "The featured artist now, the queue and history after the change", schema: featuredArtistResponseSchema },
  errors: [400, 404, 409, 415, 422],
  invalidates: ["featured-artist", "dashboard"],
});

export const endFeaturedArtistEndpoint = defineEndpoint({
  method: "delete",
  path: "/api/admin/featured-artist/current",
  area: "featured-artist",
  access: { roles: ["admin", "support"] },
  summary: "End the current featured artist now (the next queued one, if any, starts at once)",
  success: { status: 200, description: "The featured artist now, the queue and history after the change", schema: featuredArtistResponseSchema },
  errors: [404],
  invalidates: ["featured-artist", "dashboard"],
});

/** What the storefront may show of the featured artist: nothing private. */
export const publicFeaturedArtistSchema = z.object({
  featured: z
    .object({
      name: z.string(),
      slug: z.string(),
      about: z.string(),
      /** When the feature ends (the storefront may show a countdown). */
      endsAt: z.string(),
    })
    .nullable(),
});
export type PublicFeaturedArtist = z.infer<typeof publicFeaturedArtistSchema>;

/** Seconds browsers and proxies may keep the public answer. */
export const PUBLIC_FEATURED_MAX_AGE_SECONDS = 60;

export const publicFeaturedArtistEndpoint = defineEndpoint({
  method: "get",
  path: "/api/public/featured-artist",
  area: "featured-artist",
  cache: { per: "everyone" },
  access: "public",
  summary: "The storefront's read of the featured artist now: name, slug and about text (cacheable for 60 s)",
  success: {
    status: 200,
    description: "The featured artist, or null when none is featured",
    schema: publicFeaturedArtistSchema,
    cacheControl: `public, max-age=${PUBLIC_FEATURED_MAX_AGE_SECONDS}`,
  },
});
