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
  access: "admin",
  summary: "The dashboard's figures, trends and recent activity",
  success: { status: 200, description: "The figures", schema: dashboardStatsSchema },
});
