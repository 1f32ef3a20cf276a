/**
 * The platform settings the product knows (docs/product.md §7.2), with the description the Settings screen
 * shows under each and the value a new platform starts with. Values are strings as stored;
 * money settings are in dollars because that is what the screen edits.
 */
export const SETTINGS_CATALOG = {
  monthly_subscription_fee: {
    description: "Monthly subscription fee charged to each artist, in US dollars",
    defaultValue: "29.99",
  },
  platform_fee_percentage: {
    description: "Platform transaction fee taken from each sale, in percent",
    defaultValue: "1.5",
  },
  shipping_handling_fee: {
    description: "Shipping and handling fee added to each order, in US dollars",
    defaultValue: "5.00",
  },
  minimum_payout_amount: {
    description: "Smallest balance paid out to an artist in a payout run, in US dollars",
    defaultValue: "25.00",
  },
  dispute_fee_paid_by: {
    description: "Who pays Stripe's fee of a lost dispute: the platform, or the artist whose sale was disputed (taken off their balance)",
    defaultValue: "platform",
  },
  invite_code_prefix: {
    description: "Prefix of generated artist invite codes",
    defaultValue: "HKI",
  },
  max_products_per_vendor: {
    description: "Maximum number of products an artist can list",
    defaultValue: "100",
  },
  maintenance_mode: {
    description: "When enabled, the storefront shows a maintenance page instead of the shop",
    defaultValue: "false",
  },
  support_email: {
    description: "E-mail address artists and customers use to contact support",
    defaultValue: "support@hki.global",
  },
  announcement_message: {
    description: "Announcement shown to all artists on their dashboard (empty hides it)",
    defaultValue: "",
  },
  require_two_step_sign_in: {
    description: "When enabled, every staff member without a second factor must set up two-step sign-in at their next sign-in, and nobody can remove their last second factor",
    defaultValue: "false",
  },
  artist_approval: {
    description: "When enabled, an artist who signs up on the storefront waits in the Applications queue until approved; when disabled, a new artist is active at once",
    defaultValue: "false",
  },
  artist_reason_templates: {
    description: "Reasons offered when suspending an artist or deciding an application, one per line (the operator may edit the text before sending)",
    defaultValue: [
      "Repeated complaints from buyers about orders not shipped",
      "Payment details could not be verified",
      "The work shown is not the artist's own",
      "The portfolio does not show enough original work yet",
      "Please add a portfolio link that shows your recent work",
    ].join("\n"),
  },
  listing_reason_templates: {
    description: "Reasons offered when hiding or rejecting a listing, one per line (the operator may edit the text before sending)",
    defaultValue: [
      "Infringement: the work is not the artist's own",
      "Images are missing or of too low quality",
      "The listing breaks the marketplace's rules",
      "Price or description is misleading",
    ].join("\n"),
  },
  listing_review: {
    description:
      "Review new listings: 'off' (every listing goes live at once), 'first_listings' (the first listings of each artist wait in the Review queue, as many as the next setting says) or 'all' (every new listing waits). Trusted artists' listings never wait",
    defaultValue: "off",
  },
  listing_review_first_count: {
    description: "How many of each artist's first listings wait for review when 'Review new listings' is 'first_listings'",
    defaultValue: "3",
  },
} as const satisfies Record<string, { description: string; defaultValue: string }>;

export type SettingKey = keyof typeof SETTINGS_CATALOG;

export const SETTING_KEYS = Object.keys(SETTINGS_CATALOG) as SettingKey[];

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTINGS_CATALOG, key);
}

/** Fee rate used when the setting is missing or unreadable: the product's 1.5 % (docs/product.md §7.2). */
export const DEFAULT_FEE_RATE_BASIS_POINTS = 150;

/** Converts a platform_fee_percentage value ("1.5") to basis points (150); null when it is not a valid percentage. */
export function percentageToBasisPoints(value: string): number | null {
  const pct = Number(value.trim());
  if (value.trim() === "" || !Number.isFinite(pct) || pct < 0 || pct > 100) return null;
  return Math.round(pct * 100);
}
