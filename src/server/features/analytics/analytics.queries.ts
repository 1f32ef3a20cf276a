import type { AnalyticsPeriod, AnalyticsResponse } from "../../../contract/analytics.ts";
import { utcDay } from "../../platform/clock.ts";
import { COUNTERS, readCounters } from "../../domain/ledger/counters.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { addDays, currentFeePercentage, daysBetween, monthStart, readPlatformDays, sumDays } from "../../domain/ledger/platform-days.queries.ts";
import { centsToDollars } from "../../domain/money.ts";

/**
 * Analytics over the last `days` UTC days including today, from counters and the daily platform
 * rollup only: O(days) primary-key reads, whatever the number of orders. Meanings: see
 * contract/analytics.ts.
 */
export async function readAnalytics(db: Executor, now: Date, days: AnalyticsPeriod): Promise<AnalyticsResponse> {
  const today = utcDay(now);
  const periodFrom = addDays(today, -(days - 1));
  const monthFrom = monthStart(today);
  const [counters, rollup, platformFeePercentage] = await Promise.all([
    readCounters(db),
    // The month may start before the period (7 days on the 20th) or after it (90 days): read both.
    readPlatformDays(db, periodFrom < monthFrom ? periodFrom : monthFrom, today),
    currentFeePercentage(db),
  ]);

  const metrics = daysBetween(periodFrom, today).map((date) => {
    const row = rollup.get(date);
    return {
      date,
      total_revenue: centsToDollars(row?.grossCents ?? 0),
      total_orders: row?.orders ?? 0,
      total_fees: centsToDollars(row?.feesCents ?? 0),
    };
  });

  return {
    metrics,
    vendorStats: {
      total_vendors: counters[COUNTERS.vendorsTotal],
      active_vendors: counters[COUNTERS.vendorsActive],
      new_vendors: sumDays(rollup, monthFrom, today, "newVendors"),
    },
    productStats: {
      total_products: counters[COUNTERS.productsTotal],
      new_products: sumDays(rollup, monthFrom, today, "newProducts"),
    },
    platformFeePercentage,
  };
}
