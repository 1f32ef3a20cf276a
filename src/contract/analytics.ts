import { z } from "zod";
import { defineEndpoint } from "./endpoint.ts";

/** The periods the Analytics screen offers (docs/product.md §6), in days; 30 is the default. */
export const ANALYTICS_PERIODS = [7, 30, 90] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];
export const DEFAULT_ANALYTICS_PERIOD: AnalyticsPeriod = 30;

/** GET /api/admin/analytics?days=7|30|90 (absent: 30; anything else: 400 naming `days`). */
const analyticsDaysSchema = z
  .enum(["7", "30", "90"], { error: "must be 7, 30 or 90" })
  .default("30")
  .transform((v) => Number(v) as AnalyticsPeriod);

export const analyticsQuerySchema = z.object({ days: analyticsDaysSchema });

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
  cache: { per: "everyone" },
  access: "staff",
  summary: "Sales figures per UTC day over the last 7, 30 or 90 days, with totals",
  query: analyticsQuerySchema,
  success: { status: 200, description: "Every day of the period, including days without sales", schema: analyticsResponseSchema },
  errors: [400],
});

// --- Top lists and sales by bucket (docs/product.md §18.2) -------------------------------------

/** Rows a top list may return; the screens ask for 10. */
export const TOP_LIST_MAX_LIMIT = 50;
export const TOP_LIST_DEFAULT_LIMIT = 10;

const limitSchema = z
  .string()
  .default(String(TOP_LIST_DEFAULT_LIMIT))
  .refine((v) => /^\d{1,2}$/.test(v) && Number(v) >= 1 && Number(v) <= TOP_LIST_MAX_LIMIT, { error: `must be a whole number from 1 to ${TOP_LIST_MAX_LIMIT}` })
  .transform(Number);

/** GET …/top-products and …/top-vendors: `days` 7, 30 or 90 (default 30), `limit` 1–50 (default 10). */
export const topListQuerySchema = z.object({
  days: analyticsDaysSchema,
  limit: limitSchema,
});

export const topProductSchema = z.object({
  rank: z.number().int(),
  productId: z.string(),
  productName: z.string(),
  vendorId: z.string(),
  vendorName: z.string(),
  /** Gross of paid orders of the product in the period, dollars. */
  revenue: z.number(),
  orders: z.number().int(),
  units: z.number().int(),
});
export type TopProduct = z.infer<typeof topProductSchema>;

export const topVendorSchema = z.object({
  rank: z.number().int(),
  vendorId: z.string(),
  vendorName: z.string(),
  vendorSlug: z.string(),
  revenue: z.number(),
  orders: z.number().int(),
  units: z.number().int(),
});
export type TopVendor = z.infer<typeof topVendorSchema>;

/**
 * Ranked by revenue in the last `days` UTC days including today (ties: the newer id first); only
 * what sold something; internal vendors left out; refunded and cancelled orders never count.
 */
export const topProductsResponseSchema = z.object({
  days: z.number().int(),
  limit: z.number().int(),
  /** First and last UTC day of the period. */
  from: z.string(),
  to: z.string(),
  products: z.array(topProductSchema),
});
export type TopProductsResponse = z.infer<typeof topProductsResponseSchema>;

export const topVendorsResponseSchema = z.object({
  days: z.number().int(),
  limit: z.number().int(),
  from: z.string(),
  to: z.string(),
  vendors: z.array(topVendorSchema),
});
export type TopVendorsResponse = z.infer<typeof topVendorsResponseSchema>;

/** What a top list answers while its period totals are first built (domain/ledger/period-totals-read.ts). */
const TOP_LIST_BUILDING =
  "While the period totals are first built (a database just filled or migrated) the read waits for them, up to a few seconds; past that it answers 503 with Retry-After, never a list that is not true.";

export const topProductsEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/analytics/top-products",
  area: "analytics",
  cache: { per: "everyone" },
  access: "staff",
  summary: "The best-selling products by revenue over the last 7, 30 or 90 days (internal vendors left out)",
  query: topListQuerySchema,
  queryExample: { limit: "10", days: "30" },
  success: { status: 200, description: "Products ranked by revenue", schema: topProductsResponseSchema },
  description: TOP_LIST_BUILDING,
  errors: [400, 503],
});

export const topVendorsEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/analytics/top-vendors",
  area: "analytics",
  cache: { per: "everyone" },
  access: "staff",
  summary: "The best-selling artists by revenue over the last 7, 30 or 90 days (internal vendors left out)",
  query: topListQuerySchema,
  queryExample: { limit: "10", days: "30" },
  success: { status: 200, description: "Artists ranked by revenue", schema: topVendorsResponseSchema },
  description: TOP_LIST_BUILDING,
  errors: [400, 503],
});

export const SALES_PERIODS = [7, 30, 90, 365] as const;
export type SalesPeriod = (typeof SALES_PERIODS)[number];
export const SALES_GROUPINGS = ["day", "week", "month"] as const;
export type SalesGrouping = (typeof SALES_GROUPINGS)[number];

/** GET /api/admin/analytics/sales?days=7|30|90|365&groupBy=day|week|month (defaults 30, day). */
export const salesQuerySchema = z.object({
  days: z
    .enum(["7", "30", "90", "365"], { error: "must be 7, 30, 90 or 365" })
    .default("30")
    .transform((v) => Number(v) as SalesPeriod),
  groupBy: z.enum(SALES_GROUPINGS, { error: "must be day, week or month" }).default("day"),
});

/** One bucket: a UTC day, an ISO week (Monday to Sunday) or a calendar month, cut to the period. */
export const salesBucketSchema = z.object({
  /** First and last UTC day of the bucket inside the period ("YYYY-MM-DD"). */
  start: z.string(),
  end: z.string(),
  /** Gross of paid orders, dollars. */
  revenue: z.number(),
  orders: z.number().int(),
  /** Platform fees recorded on those orders, dollars. */
  fees: z.number(),
  /** revenue / orders, dollars rounded to the cent; 0 without orders. */
  averageOrderValue: z.number(),
});
export type SalesBucket = z.infer<typeof salesBucketSchema>;

export const salesResponseSchema = z.object({
  days: z.number().int(),
  groupBy: z.enum(SALES_GROUPINGS),
  from: z.string(),
  to: z.string(),
  /** Oldest first; every bucket of the period, empty ones as zeros. */
  buckets: z.array(salesBucketSchema),
  totals: salesBucketSchema.omit({ start: true, end: true }),
});
export type SalesResponse = z.infer<typeof salesResponseSchema>;

export const salesEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/analytics/sales",
  area: "analytics",
  cache: { per: "everyone" },
  access: "staff",
  summary: "Revenue, orders, fees and average order value per day, week or month over the last 7, 30, 90 or 365 days",
  query: salesQuerySchema,
  queryExample: { days: "90", groupBy: "week" },
  success: { status: 200, description: "One bucket per day, week or month of the period", schema: salesResponseSchema },
  errors: [400],
});

// --- CSV export of the daily breakdown (docs/product.md §6) -------------------------------------

/** The name the daily breakdown's CSV export is registered under (POST /api/admin/exports {kind}). */
export const ANALYTICS_DAILY_EXPORT_KIND = "analytics-daily";

/** The period on screen: its length and its last UTC day (the answer's last `metrics` date). */
export const analyticsDailyExportFiltersSchema = z.object({
  days: analyticsDaysSchema,
  to: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a UTC day, YYYY-MM-DD")
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00.000Z`)) && new Date(`${v}T00:00:00.000Z`).toISOString().startsWith(v), "must be a real day"),
});
export type AnalyticsDailyExportFilters = z.infer<typeof analyticsDailyExportFiltersSchema>;
