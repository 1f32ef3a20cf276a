import type { SettingKeyName, SettingsResponse } from "@contract/settings";
import { apiFieldErrors } from "@web/lib/api-client";

export type SettingValues = Record<SettingKeyName, string>;

export type FieldKind = "money" | "percentage" | "text" | "integer" | "on-off" | "feePayer" | "reviewMode" | "email" | "textarea" | "templates";

export interface FieldDef {
  key: SettingKeyName;
  label: string;
  kind: FieldKind;
}

export interface GroupDef {
  title: string;
  fields: FieldDef[];
}

/** The groups (docs/product.md §7.1; Security: two-step sign-in; Moderation: artist approval, listing review and the reason templates) with their fields in order. */
export const SETTING_GROUPS: GroupDef[] = [
  {
    title: "Pricing",
    fields: [
      { key: "monthly_subscription_fee", label: "Monthly Subscription Fee ($)", kind: "money" },
      { key: "platform_fee_percentage", label: "Platform Fee Percentage (%)", kind: "percentage" },
      { key: "shipping_handling_fee", label: "Shipping Handling Fee ($)", kind: "money" },
      { key: "minimum_payout_amount", label: "Minimum Payout Amount ($)", kind: "money" },
      { key: "dispute_fee_paid_by", label: "Dispute fee paid by", kind: "feePayer" },
    ],
  },
  {
    title: "Configuration",
    fields: [
      { key: "invite_code_prefix", label: "Invite Code Prefix", kind: "text" },
      { key: "max_products_per_vendor", label: "Max Products Per Vendor", kind: "integer" },
      { key: "maintenance_mode", label: "Maintenance Mode", kind: "on-off" },
    ],
  },
  {
    title: "Communication",
    fields: [
      { key: "support_email", label: "Support Email", kind: "email" },
      { key: "announcement_message", label: "Platform Announcement", kind: "textarea" },
    ],
  },
  {
    title: "Security",
    fields: [{ key: "require_two_step_sign_in", label: "Require two-step sign-in for all staff", kind: "on-off" }],
  },
  {
    title: "Moderation",
    fields: [
      { key: "artist_approval", label: "Artist Approval", kind: "on-off" },
      { key: "listing_review", label: "Review New Listings", kind: "reviewMode" },
      { key: "listing_review_first_count", label: "First Listings Reviewed (per artist)", kind: "integer" },
      { key: "artist_reason_templates", label: "Artist Reason Templates", kind: "templates" },
      { key: "listing_reason_templates", label: "Listing Reason Templates", kind: "templates" },
    ],
  },
];

export const ALL_FIELDS: FieldDef[] = SETTING_GROUPS.flatMap((g) => g.fields);

export function valuesOf(settings: SettingsResponse): SettingValues {
  return Object.fromEntries(ALL_FIELDS.map((f) => [f.key, settings[f.key].value])) as SettingValues;
}

/** The keys whose draft differs from what was loaded, mapped to the new value: exactly what Save sends. */
export function changedValues(loaded: SettingValues, draft: SettingValues): Partial<SettingValues> {
  const out: Partial<SettingValues> = {};
  for (const { key } of ALL_FIELDS) if (draft[key] !== loaded[key]) out[key] = draft[key];
  return out;
}

export interface FieldError {
  key: SettingKeyName;
  message: string;
}

/**
 * Every field a failed save is about, in the server's order. The server answers refused values with
 * 400 and the error's `fields` (each bad key with its problem); keys the form does not show, and
 * failures without `fields`, are not tied to a field.
 */
export function fieldErrorsOf(error: unknown): FieldError[] {
  const out: FieldError[] = [];
  for (const [key, message] of Object.entries(apiFieldErrors(error))) {
    const field = ALL_FIELDS.find((f) => f.key === key);
    if (field) out.push({ key: field.key, message });
  }
  return out;
}

/** The first field a failed save is about (see fieldErrorsOf), or null. */
export function fieldErrorOf(error: unknown): FieldError | null {
  return fieldErrorsOf(error)[0] ?? null;
}
