import { z } from "zod";
import { defineEndpoint } from "./endpoint.ts";

/**
 * Platform settings (docs/product.md §11.7). The keys are the eight of docs/product.md §7.2; values travel as
 * strings exactly as they are stored ("1.5", "true", ""), so the screen edits what the server keeps.
 */
export const SETTING_KEY_LIST = [
  "monthly_subscription_fee",
  "platform_fee_percentage",
  "shipping_handling_fee",
  "minimum_payout_amount",
  "dispute_fee_paid_by",
  "invite_code_prefix",
  "max_products_per_vendor",
  "maintenance_mode",
  "support_email",
  "announcement_message",
  "require_two_step_sign_in",
  "artist_approval",
  "artist_reason_templates",
  "listing_reason_templates",
  "listing_review",
  "listing_review_first_count",
] as const;

/**
 * 'Review new listings' (docs/product.md §20.4): `off`, `first_listings` (the first
 * `listing_review_first_count` listings of each artist wait in the Review queue) or `all`.
 */
export const LISTING_REVIEW_MODES = ["off", "first_listings", "all"] as const;
export type ListingReviewMode = (typeof LISTING_REVIEW_MODES)[number];

/** The most templates one reason-templates setting holds, and the longest each may be. */
export const MAX_REASON_TEMPLATES = 20;

/** The templates of a reason-templates setting: one per line, blank lines skipped. */
export function reasonTemplatesOf(value: string): string[] {
  return value
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
}
export const settingKeySchema = z.enum(SETTING_KEY_LIST);
export type SettingKeyName = z.infer<typeof settingKeySchema>;

export const platformSettingSchema = z.object({
  value: z.string(),
  description: z.string(),
  updatedAt: z.string(),
  /** E-mail of the admin who last changed it; null while it still holds its initial value. */
  updatedBy: z.string().nullable(),
});
export type PlatformSetting = z.infer<typeof platformSettingSchema>;

/** GET/PUT /api/admin/settings answer: every known key. */
export const settingsResponseSchema = z.record(settingKeySchema, platformSettingSchema);
export type SettingsResponse = z.infer<typeof settingsResponseSchema>;

const settingValueSchema = z.union([z.string(), z.number(), z.boolean()]).transform((v) => String(v));

/**
 * PUT body: only the changed keys mapped to their new values; any other key is refused (400 naming
 * it). Values are checked by the server's rules; numbers and booleans are accepted and kept as
 * their string form.
 */
export const settingsUpdateRequestSchema = z.strictObject(
  Object.fromEntries(SETTING_KEY_LIST.map((key) => [key, settingValueSchema.optional()])) as Record<SettingKeyName, z.ZodOptional<typeof settingValueSchema>>,
);
export type SettingsUpdateRequest = Record<string, string>;

export const settingChangeSchema = z.object({
  id: z.string(),
  key: settingKeySchema,
  oldValue: z.string().nullable(),
  newValue: z.string(),
  changedBy: z.string(),
  changedAt: z.string(),
});
export type SettingChange = z.infer<typeof settingChangeSchema>;

export const SETTING_HISTORY_MAX_LIMIT = 100;

export const settingHistoryQuerySchema = z.object({
  key: settingKeySchema,
  limit: z.coerce.number().int().min(1).max(SETTING_HISTORY_MAX_LIMIT).default(10),
  /** Opaque keyset cursor from the previous page's nextCursor. */
  cursor: z.string().max(200).optional(),
});
export type SettingHistoryQuery = z.infer<typeof settingHistoryQuerySchema>;

export const settingHistoryResponseSchema = z.object({
  key: settingKeySchema,
  changes: z.array(settingChangeSchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type SettingHistoryResponse = z.infer<typeof settingHistoryResponseSchema>;

export const getSettingsEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/settings",
  area: "settings",
  cache: { per: "everyone" },
  access: "staff",
  summary: "Every platform setting with its value, description and last change",
  success: { status: 200, description: "The settings by key", schema: settingsResponseSchema },
});

export const updateSettingsEndpoint = defineEndpoint({
  method: "put",
  path: "/api/admin/settings",
  area: "settings",
  access: { roles: ["admin"] },
  stepUp: true,
  summary: "Change some settings at once: every value is checked first, and one bad value changes nothing",
  body: settingsUpdateRequestSchema,
  bodyExample: { platform_fee_percentage: "10", announcement_message: "Welcome!" },
  success: { status: 200, description: "Every setting after the change", schema: settingsResponseSchema },
  errors: [400, 415],
  invalidates: ["settings", "dashboard", "analytics"],
});

export const settingHistoryEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/settings/history",
  area: "settings",
  access: "staff",
  summary: "One page of a setting's changes, newest first",
  query: settingHistoryQuerySchema,
  queryExample: { key: "platform_fee_percentage" },
  success: { status: 200, description: "The changes and the next cursor", schema: settingHistoryResponseSchema },
  errors: [400],
});
