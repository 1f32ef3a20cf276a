import { ATTENTION_COUNT_CAP, type AttentionItem } from "../../../contract/dashboard.ts";
import { selectLiveSlots, splitLive } from "../../domain/featured-artist/featured-slots.ts";
import { centsToDollars } from "../../domain/money.ts";
import type { Executor } from "../../platform/db/executor.ts";
import {
  applicationsWaiting,
  errorsInHours,
  failedAnnouncementDeliveries,
  invitationsExpiring,
  activeVendorsWithDeletedOwner,
  latestAnnouncementWithFailures,
  listingsWaitingReview,
  openDisputes,
  openStripeDifferences,
  owedWithAccountStatus,
  payoutsInStatus,
  vendorsOverProductLimit,
  webhookEndpointsDisabledBySender,
} from "./attention.queries.ts";

/**
 * The "needs attention" items (docs/product.md §18.3), one small provider per item: each reads its
 * count (counters, rollup rows, bounded index walks: attention.queries.ts) and answers its item, or
 * null when there is nothing to do. An item is added by adding a provider to ATTENTION_PROVIDERS.
 */
export type AttentionProvider = (db: Executor, now: Date) => Promise<AttentionItem | null>;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A spike: more errors in the last 24 hours than twice the daily average of the 7 days before, and at least this many. */
export const ERROR_SPIKE_FACTOR = 2;
export const ERROR_SPIKE_MINIMUM = 10;

const usd = (cents: number) => `$${centsToDollars(cents).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

function item(fields: Omit<AttentionItem, "capped" | "detail"> & { detail?: string | null }): AttentionItem {
  return { detail: null, ...fields, capped: fields.count >= ATTENTION_COUNT_CAP };
}

const owedWith =
  (status: "restricted" | "not_connected", key: AttentionItem["key"], label: string): AttentionProvider =>
  async (db) => {
    const { vendors, owedCents } = await owedWithAccountStatus(db, status);
    if (vendors === 0) return null;
    return item({ key, label, count: vendors, detail: `${usd(owedCents)} owed`, severity: "critical", href: `/financials?balances.status=${status}` });
  };

const payoutsIn =
  (status: "failed" | "unknown", key: AttentionItem["key"], label: string): AttentionProvider =>
  async (db) => {
    const count = await payoutsInStatus(db, status, ATTENTION_COUNT_CAP);
    if (count === 0) return null;
    return item({ key, label, count, severity: "critical", href: `/financials?payouts.status=${status}` });
  };

/** "3 disputes need a response, first by Dec 2": open Stripe disputes, the link opening the order of the first due. */
const disputes: AttentionProvider = async (db) => {
  const { count, first } = await openDisputes(db, ATTENTION_COUNT_CAP);
  if (count === 0 || !first) return null;
  const due = first.dueBy === null ? null : new Date(first.dueBy).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
  return item({
    key: "disputes_open",
    label: `${count >= ATTENTION_COUNT_CAP ? `${count}+` : count} ${plural(count, "dispute needs", "disputes need")} a response${due ? `, first by ${due}` : ""}`,
    count,
    detail: "While open, the artists' shares are held out of payouts; answer in Stripe's dashboard",
    severity: "critical",
    href: first.orderId ? `/orders?order=${encodeURIComponent(first.orderId)}` : "/orders",
  });
};

const stripeDifferences: AttentionProvider = async (db) => {
  const count = await openStripeDifferences(db, ATTENTION_COUNT_CAP);
  if (count === 0) return null;
  return item({ key: "stripe_differences", label: "Differences found by the reconciliation with Stripe", count, severity: "critical", href: "/system-debug" });
};

/** Webhook endpoints the sender disabled: the storefront hears nothing until an admin enables them again. */
const disabledWebhooks: AttentionProvider = async (db) => {
  const count = await webhookEndpointsDisabledBySender(db);
  if (count === 0) return null;
  return item({
    key: "webhook_endpoints_disabled",
    label: count === 1 ? "A webhook endpoint was disabled after failed deliveries" : "Webhook endpoints were disabled after failed deliveries",
    count,
    detail: "The storefront hears of no decision until it is enabled again",
    severity: "critical",
    href: "/integrations",
  });
};

/**
 * Links to the failed recipients of the newest announcement with failures (its page, recipients
 * filtered to failed, where 'Retry failed' is); with several, the detail says the link opens the latest.
 */
const announcementFailures: AttentionProvider = async (db, now) => {
  const since = new Date(now.getTime() - 30 * DAY_MS).toISOString();
  const { deliveries, announcements } = await failedAnnouncementDeliveries(db, since);
  if (deliveries === 0) return null;
  const latest = await latestAnnouncementWithFailures(db, since);
  const where = `In ${announcements} ${plural(announcements, "announcement", "announcements")} of the last 30 days`;
  return item({
    key: "announcement_failures",
    label: "Failed announcement deliveries",
    count: deliveries,
    detail: announcements > 1 ? `${where}; opens the latest` : where,
    severity: "warning",
    href: latest === null ? "/communications" : `/communications/${latest}?status=failed`,
  });
};

/** "YYYY-MM-DDTHH": the UTC hour an instant falls in, as error_log_hours keys it. */
const hourOf = (ms: number) => new Date(ms).toISOString().slice(0, 13);

const errors: AttentionProvider = async (db, now) => {
  const t = now.getTime();
  // The last 24 whole hours including this one, against the 7 × 24 hours before them.
  const last24 = await errorsInHours(db, hourOf(t - 23 * HOUR_MS), hourOf(t));
  if (last24 === 0) return null;
  const weekBefore = await errorsInHours(db, hourOf(t - (23 + 168) * HOUR_MS), hourOf(t - 24 * HOUR_MS));
  const average = weekBefore / 7;
  const spike = last24 >= ERROR_SPIKE_MINIMUM && last24 > ERROR_SPIKE_FACTOR * average;
  const shown = Math.round(average * 10) / 10;
  return item({
    key: "errors_spike",
    label: spike ? "Spike of errors in the last 24 hours" : "Errors in the last 24 hours",
    count: last24,
    detail: `${shown.toLocaleString("en-US")} a day on average over the 7 days before`,
    severity: spike ? "critical" : "info",
    href: "/errors?level=error",
  });
};

const overProductLimit: AttentionProvider = async (db) => {
  const count = await vendorsOverProductLimit(db);
  if (count <= 0) return null;
  return item({ key: "vendors_over_product_limit", label: "Artists over the product limit", count, severity: "warning", href: "/products?overLimit=true" });
};

/** How long the oldest entry of a queue has waited: 'the oldest for 3 days' (hours under a day). */
export function oldestWaiting(oldest: string | null, now: Date): string | null {
  if (oldest === null) return null;
  const ms = Math.max(0, now.getTime() - Date.parse(oldest));
  if (ms < DAY_MS) {
    const hours = Math.floor(ms / HOUR_MS);
    return `The oldest has waited ${hours} ${plural(hours, "hour", "hours")}`;
  }
  const days = Math.floor(ms / DAY_MS);
  return `The oldest has waited ${days} ${plural(days, "day", "days")}`;
}

/** Artists' applications waiting for a decision (docs/product.md §20.2), with how long the oldest has waited. */
const applications: AttentionProvider = async (db, now) => {
  const { count, oldest } = await applicationsWaiting(db);
  if (count <= 0) return null;
  return item({ key: "applications_waiting", label: "Artist applications waiting for a decision", count, detail: oldestWaiting(oldest, now), severity: "warning", href: "/vendors?tab=applications" });
};

/** Listings waiting in the Review queue (docs/product.md §20.4), with how long the oldest has waited. */
const listingsUnderReview: AttentionProvider = async (db, now) => {
  const { count, oldest } = await listingsWaitingReview(db);
  if (count <= 0) return null;
  return item({ key: "listings_waiting_review", label: "Listings waiting for review", count, detail: oldestWaiting(oldest, now), severity: "warning", href: "/products?tab=review" });
};

const invitations: AttentionProvider = async (db, now) => {
  const count = await invitationsExpiring(db, now.toISOString(), new Date(now.getTime() + 2 * DAY_MS).toISOString(), ATTENTION_COUNT_CAP);
  if (count === 0) return null;
  return item({ key: "invitations_expiring", label: "Invitations expiring within 2 days", count, severity: "info", href: "/admin-users?tab=invitations" });
};

/** Where an artist is featured: the active artists (each one's page has 'Feature this artist'). */
const FEATURE_AN_ARTIST = "/vendors?status=active";

/** The featured slot is empty, or ends within a day with nothing queued after it. */
const featuredSlot: AttentionProvider = async (db, now) => {
  const iso = now.toISOString();
  const { current, upcoming } = splitLive(await selectLiveSlots(db, iso), iso);
  if (!current) return item({ key: "featured_slot", label: "No featured artist", count: 1, detail: null, severity: "warning", href: FEATURE_AN_ARTIST });
  if (upcoming.length === 0 && Date.parse(current.ends_at) - now.getTime() <= DAY_MS) {
    return item({
      key: "featured_slot",
      label: "The featured artist ends within a day",
      count: 1,
      detail: `${current.vendor_name}, until ${current.ends_at.slice(0, 16).replace("T", " ")} UTC`,
      severity: "info",
      href: FEATURE_AN_ARTIST,
    });
  }
  return null;
};

/** Artists still active whose owner's account was deleted at Clerk: the operator disables or deletes each. */
const deletedOwnerAccounts: AttentionProvider = async (db) => {
  const { count, latestVendorId } = await activeVendorsWithDeletedOwner(db, ATTENTION_COUNT_CAP);
  if (count === 0 || latestVendorId === null) return null;
  return item({
    key: "owner_accounts_deleted",
    label: "Active artists whose account was deleted at Clerk",
    count,
    detail: count > 1 ? "Disable or delete each; opens the latest" : "Disable or delete the artist",
    severity: "warning",
    href: `/vendors/${encodeURIComponent(latestVendorId)}`,
  });
};

export const ATTENTION_PROVIDERS: readonly AttentionProvider[] = [
  owedWith("restricted", "payout_accounts_restricted", "Artists owed money whose payout account is restricted"),
  owedWith("not_connected", "payout_accounts_not_connected", "Artists owed money without a connected payout account"),
  payoutsIn("failed", "payouts_failed", "Failed payouts"),
  payoutsIn("unknown", "payouts_unknown", "Payouts whose outcome is still unknown"),
  disputes,
  stripeDifferences,
  disabledWebhooks,
  announcementFailures,
  errors,
  overProductLimit,
  applications,
  listingsUnderReview,
  invitations,
  featuredSlot,
  deletedOwnerAccounts,
];

const SEVERITY_ORDER = { critical: 0, warning: 1, info: 2 } as const;

/** Every provider's item, most severe first (then in the providers' order). */
export async function readAttention(db: Executor, now: Date): Promise<AttentionItem[]> {
  const items: AttentionItem[] = [];
  for (const provider of ATTENTION_PROVIDERS) {
    const found = await provider(db, now);
    if (found) items.push(found);
  }
  return items
    .map((it, i) => ({ it, i }))
    .sort((a, b) => SEVERITY_ORDER[a.it.severity] - SEVERITY_ORDER[b.it.severity] || a.i - b.i)
    .map(({ it }) => it);
}
