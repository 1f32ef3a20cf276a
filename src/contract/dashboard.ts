import { z } from "zod";
import { defineEndpoint } from "./endpoint.ts";

/**
 * GET /api/admin/dashboard/stats (docs/product.md §11.4). Money is in US dollars.
 * - totalVendors: every vendor; activeVendors: those with isActive.
 * - monthlyRecurring: sum of the monthly fees of active subscriptions.
 * - totalProducts: listed products.
 * - platformFees: fees of paid orders since 00:00 UTC on the 1st of the current month (the fee
 *   recorded on each order, so a later fee-setting change never rewrites it).
 * - todaySales: gross merchandise value of paid orders since 00:00 UTC today.
 * - weekSales: the same over the last 7 UTC days including today.
 * - recentActivity: the latest 10 vendor_joined / product_added / sale events, newest first.
 * Refunded and cancelled orders never count.
 */
export const activityTypeSchema = z.enum(["vendor_joined", "product_added", "sale"]);
export type ActivityType = z.infer<typeof activityTypeSchema>;

export const recentActivitySchema = z.object({
  type: activityTypeSchema,
  name: z.string(),
  /** ISO-8601 UTC time of the event. */
  timestamp: z.string(),
});
export type RecentActivity = z.infer<typeof recentActivitySchema>;

/**
 * Percentage change against the previous comparable period, one decimal; null when the previous
 * period had nothing (a change from zero has no meaningful percentage).
 */
const trendSchema = z.number().nullable();

export const dashboardStatsSchema = z.object({
  totalVendors: z.number().int(),
  activeVendors: z.number().int(),
  monthlyRecurring: z.number(),
  totalProducts: z.number().int(),
  platformFees: z.number(),
  todaySales: z.number(),
  weekSales: z.number(),
  recentActivity: z.array(recentActivitySchema),
  /** Extra field: the platform_fee_percentage setting now in force (1.5 = 1.5 %), for the card text. */
  platformFeePercentage: z.number(),
  /** Extra field: real trends computed from the daily rollups. */
  trends: z.object({
    /** Platform fees month-to-date vs the same days of the previous month. */
    platformFees: trendSchema,
    /** Today so far vs all of yesterday. */
    todaySales: trendSchema,
    /** Last 7 days vs the 7 days before them. */
    weekSales: trendSchema,
  }),
});
export type DashboardStats = z.infer<typeof dashboardStatsSchema>;

/** Number of events in recentActivity. */
export const RECENT_ACTIVITY_LIMIT = 10;

export const dashboardStatsEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/dashboard/stats",
  area: "dashboard",
  cache: { per: "everyone" },
  access: "staff",
  summary: "The dashboard's figures, trends and recent activity",
  success: { status: 200, description: "The figures", schema: dashboardStatsSchema },
});

// --- "Needs attention" (docs/product.md §18.3) -------------------------------------------------

export const ATTENTION_KEYS = [
  "payout_accounts_restricted",
  "payout_accounts_not_connected",
  "payouts_failed",
  "payouts_unknown",
  "disputes_open",
  "stripe_differences",
  "webhook_endpoints_disabled",
  "announcement_failures",
  "errors_spike",
  "vendors_over_product_limit",
  "applications_waiting",
  "listings_waiting_review",
  "invitations_expiring",
  "featured_slot",
  "owner_accounts_deleted",
] as const;
export type AttentionKey = (typeof ATTENTION_KEYS)[number];

/** Counts stop at this many (read from an index with a bound): shown as '1000+'. */
export const ATTENTION_COUNT_CAP = 1000;

export const attentionItemSchema = z.object({
  key: z.enum(ATTENTION_KEYS),
  /** What needs the operator, as the card shows it. */
  label: z.string(),
  count: z.number().int(),
  /** True when there are at least `count` (ATTENTION_COUNT_CAP) and maybe more. */
  capped: z.boolean(),
  /** A second line: the comparison, the amount owed, the date the featured slot ends. */
  detail: z.string().nullable(),
  /** "critical" (money, a spike of errors), "warning" or "info". */
  severity: z.enum(["critical", "warning", "info"]),
  /** The screen with the list filtered to these items. */
  href: z.string(),
});
export type AttentionItem = z.infer<typeof attentionItemSchema>;

/** Only items that need the operator now are listed (none: an empty list), most severe first. */
export const attentionResponseSchema = z.object({
  items: z.array(attentionItemSchema),
  checkedAt: z.string(),
});
export type AttentionResponse = z.infer<typeof attentionResponseSchema>;

export const dashboardAttentionEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/dashboard/attention",
  area: "dashboard",
  cache: { per: "everyone" },
  access: "staff",
  summary: "What needs the operator now: each item with its count and the filtered list it links to",
  success: { status: 200, description: "The items that need attention", schema: attentionResponseSchema },
});
