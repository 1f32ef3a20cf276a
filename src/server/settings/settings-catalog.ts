import type { Kysely, Transaction } from "kysely";
import type { Clock } from "../clock.ts";
import type { DB } from "../db/schema.ts";

/**
 * The platform settings the product knows (spec §3), with the description the Settings screen
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
} as const satisfies Record<string, { description: string; defaultValue: string }>;

export type SettingKey = keyof typeof SETTINGS_CATALOG;

export const SETTING_KEYS = Object.keys(SETTINGS_CATALOG) as SettingKey[];

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTINGS_CATALOG, key);
}

/** Fee rate used when the setting is missing or unreadable: the spec's 1.5 %. */
export const DEFAULT_FEE_RATE_BASIS_POINTS = 150;

/** Inserts the known settings that are missing with their defaults; never overwrites a stored value. */
export async function ensureDefaultSettings(db: Kysely<DB> | Transaction<DB>, clock: Clock): Promise<void> {
  const now = clock.now().toISOString();
  await db
    .insertInto("platform_settings")
    .values(
      SETTING_KEYS.map((key) => ({
        key,
        value: SETTINGS_CATALOG[key].defaultValue,
        description: SETTINGS_CATALOG[key].description,
        updated_at: now,
        updated_by: null,
      })),
    )
    .onConflict((oc) => oc.column("key").doNothing())
    .execute();
}

/** Converts a platform_fee_percentage value ("1.5") to basis points (150); null when it is not a valid percentage. */
export function percentageToBasisPoints(value: string): number | null {
  const pct = Number(value.trim());
  if (value.trim() === "" || !Number.isFinite(pct) || pct < 0 || pct > 100) return null;
  return Math.round(pct * 100);
}

/** The platform fee rate new orders are charged at, in basis points (platform_fee_percentage × 100). */
export async function currentFeeRateBasisPoints(db: Kysely<DB> | Transaction<DB>): Promise<number> {
  const row = await db.selectFrom("platform_settings").select("value").where("key", "=", "platform_fee_percentage").executeTakeFirst();
  return (row && percentageToBasisPoints(row.value)) ?? DEFAULT_FEE_RATE_BASIS_POINTS;
}

/** The monthly subscription fee new subscriptions start at, in cents. */
export async function currentMonthlySubscriptionFeeCents(db: Kysely<DB> | Transaction<DB>): Promise<number> {
  const row = await db.selectFrom("platform_settings").select("value").where("key", "=", "monthly_subscription_fee").executeTakeFirst();
  const dollars = Number(row?.value ?? SETTINGS_CATALOG.monthly_subscription_fee.defaultValue);
  return Number.isFinite(dollars) && dollars >= 0 ? Math.round(dollars * 100) : 2999;
}
