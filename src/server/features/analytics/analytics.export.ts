import { ANALYTICS_DAILY_EXPORT_KIND, type AnalyticsDailyExportFilters, analyticsDailyExportFiltersSchema, type DailyMetric } from "../../../contract/analytics.ts";
import { addDays, daysBetween, readPlatformDays } from "../../domain/ledger/platform-days.queries.ts";
import { centsToDollars } from "../../domain/money.ts";
import { defineExport } from "../../platform/exports/export-kind.ts";

/**
 * The Analytics screen's daily breakdown as CSV (docs/product.md §6): every day of the period on
 * screen, oldest first, days without sales as zeros (the screen shows only the first rows). Read
 * from the daily platform rollup, a primary-key range per page.
 */
export const analyticsDailyExport = defineExport<AnalyticsDailyExportFilters, DailyMetric, string>({
  kind: ANALYTICS_DAILY_EXPORT_KIND,
  fileStem: "analytics-daily",
  filters: analyticsDailyExportFiltersSchema,
  columns: [
    { header: "Date", value: (m) => m.date },
    { header: "Revenue (USD)", value: (m) => m.total_revenue.toFixed(2) },
    { header: "Orders", value: (m) => m.total_orders },
    { header: "Fees (USD)", value: (m) => m.total_fees.toFixed(2) },
  ],
  async readPage(db, filters, cursor, limit) {
    const from = cursor ?? addDays(filters.to, -(filters.days - 1));
    const days = daysBetween(from, filters.to).slice(0, limit);
    const last = days.at(-1);
    if (!last) return { rows: [], next: undefined };
    const rollup = await readPlatformDays(db, from, last);
    const rows = days.map((date) => {
      const row = rollup.get(date);
      return { date, total_revenue: centsToDollars(row?.grossCents ?? 0), total_orders: row?.orders ?? 0, total_fees: centsToDollars(row?.feesCents ?? 0) };
    });
    return { rows, next: last < filters.to ? addDays(last, 1) : undefined };
  },
});
