import type { AnalyticsPeriod, AnalyticsResponse, DailyMetric } from "@contract/analytics";
import { roundCents } from "@web/lib/format";

/** The period buttons (docs/product.md §6); typed against the contract so they cannot drift from the API. */
export const PERIODS: readonly AnalyticsPeriod[] = [7, 30, 90];
export const DEFAULT_PERIOD: AnalyticsPeriod = 30;

/** Days of the daily breakdown (docs/product.md §6): the first 10 of the period. */
export const BREAKDOWN_ROWS = 10;

/** The ?days= value of the URL; anything but 7, 30 or 90 falls back to the default. */
export function periodFromParam(value: string | null): AnalyticsPeriod {
  return PERIODS.find((p) => String(p) === value) ?? DEFAULT_PERIOD;
}

export interface PeriodTotals {
  revenue: number;
  fees: number;
  orders: number;
}

/** Sums of the period, rounded to cents (the per-day dollars are exact cents; their float sum may not be). */
export function periodTotals(metrics: readonly DailyMetric[]): PeriodTotals {
  let revenue = 0;
  let fees = 0;
  let orders = 0;
  for (const m of metrics) {
    revenue += m.total_revenue;
    fees += m.total_fees;
    orders += m.total_orders;
  }
  return { revenue: roundCents(revenue), fees: roundCents(fees), orders };
}

/** docs/product.md §6: round(total products / active vendors); 0 when there are no active vendors. */
export function averageProductsPerArtist(totalProducts: number, activeVendors: number): number {
  return activeVendors > 0 ? Math.round(totalProducts / activeVendors) : 0;
}

/** True when the period has no sales at all: the screen shows its empty text instead of rows of zeros. */
export function isEmptyPeriod(data: AnalyticsResponse): boolean {
  return data.metrics.every((m) => m.total_orders === 0 && m.total_revenue === 0);
}
