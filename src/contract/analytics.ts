import { z } from "zod";
import { defineEndpoint } from "./endpoint.ts";

/** The periods the Analytics screen offers (docs/product.md §6), in days; 30 is the default. */
export const ANALYTICS_PERIODS = [7, 30, 90] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];
export const DEFAULT_ANALYTICS_PERIOD: AnalyticsPeriod = 30;

/** GET /api/admin/analytics?days=7|30|90 (absent: 30; anything else: 400 naming `days`). */
export const analyticsQuerySchema = z.object({
  days: z
    .enum(["7", "30", "90"], { error: "must be 7, 30 or 90" })
    .default("30")
    .transform((v) => Number(v) as AnalyticsPeriod),
});

/** One UTC day of paid sales; money in US dollars. */
export const dailyMetricSchema = z.object({
  /** "YYYY-MM-DD" (UTC). */
  date: z.string(),
  /** Gross merchandise value of paid orders that day. */
  total_revenue: z.number(),
  total_orders: z.number().int(),
  /** Platform fees recorded on those orders. */
  total_fees: z.number(),
});
export type DailyMetric = z.infer<typeof dailyMetricSchema>;

/**
 * - metrics: one entry per day of the period, oldest to newest, today last, days without sales as zeros.
 * - vendorStats: total_vendors (all), active_vendors (isActive), new_vendors (joined this UTC calendar month).
 * - productStats: total_products (every product, listed or draft: the same population new_products
 *   counts) and new_products (created this UTC calendar month).
 * Refunded and cancelled orders never count.
 */
export const analyticsResponseSchema = z.object({
  metrics: z.array(dailyMetricSchema),
  vendorStats: z.object({
    total_vendors: z.number().int(),
    active_vendors: z.number().int(),
    new_vendors: z.number().int(),
  }),
  productStats: z.object({
    total_products: z.number().int(),
    new_products: z.number().int(),
  }),
  /** Extra field: the platform_fee_percentage setting now in force, for the 'x% of sales' text. */
  platformFeePercentage: z.number(),
});
export type AnalyticsResponse = z.infer<typeof analyticsResponseSchema>;

export const analyticsEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/analytics",
  area: "analytics",
  access: "admin",
  summary: "Sales figures per UTC day over the last 7, 30 or 90 days, with totals",
  query: analyticsQuerySchema,
  success: { status: 200, description: "Every day of the period, including days without sales", schema: analyticsResponseSchema },
  errors: [400],
});
