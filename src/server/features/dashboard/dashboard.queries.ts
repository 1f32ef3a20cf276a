import { type DashboardStats, RECENT_ACTIVITY_LIMIT, type RecentActivity } from "../../../contract/dashboard.ts";
import { utcDay } from "../../platform/clock.ts";
import { COUNTERS, readCounters } from "../../domain/ledger/counters.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { addDays, currentFeePercentage, monthStart, sumPlatformDayRanges } from "../../domain/ledger/platform-days.queries.ts";
import { centsToDollars } from "../../domain/money.ts";

/**
 * The dashboard's figures, read from counters and the daily platform rollup only (never a scan of
 * vendors, products or orders): a few primary-key reads plus three index-ordered LIMIT 10 reads
 * for the recent activity. Meanings of each figure: see contract/dashboard.ts.
 */
export async function readDashboardStats(db: Executor, now: Date): Promise<DashboardStats> {
  const today = utcDay(now);
  const yesterday = addDays(today, -1);
  const weekFrom = addDays(today, -6);
  const previousWeekFrom = addDays(today, -13);
  const previousWeekTo = addDays(today, -7);
  const monthFrom = monthStart(today);
  const previousMonthTo = addDays(monthFrom, -1);
  const previousMonthFrom = monthStart(previousMonthTo);
  // The same days of the previous month (1st .. today's day-of-month, clamped to its last day).
  const sameDayLastMonth = minDay(addDays(previousMonthFrom, Number(today.slice(8, 10)) - 1), previousMonthTo);

  const [counters, sums, platformFeePercentage, recentActivity] = await Promise.all([
    readCounters(db),
    // One statement over at most ~62 rollup rows sums every period below.
    sumPlatformDayRanges(db, {
      fees: { from: monthFrom, to: today, field: "feesCents" },
      feesBefore: { from: previousMonthFrom, to: sameDayLastMonth, field: "feesCents" },
      today: { from: today, to: today, field: "grossCents" },
      yesterday: { from: yesterday, to: yesterday, field: "grossCents" },
      week: { from: weekFrom, to: today, field: "grossCents" },
      weekBefore: { from: previousWeekFrom, to: previousWeekTo, field: "grossCents" },
    }),
    currentFeePercentage(db),
    readRecentActivity(db, now),
  ]);

  return {
    totalVendors: counters[COUNTERS.vendorsTotal],
    activeVendors: counters[COUNTERS.vendorsActive],
    monthlyRecurring: centsToDollars(counters[COUNTERS.mrrCents]),
    totalProducts: counters[COUNTERS.productsListed],
    platformFees: centsToDollars(sums.fees),
    todaySales: centsToDollars(sums.today),
    weekSales: centsToDollars(sums.week),
    recentActivity,
    platformFeePercentage,
    trends: {
      platformFees: percentChange(sums.fees, sums.feesBefore),
      todaySales: percentChange(sums.today, sums.yesterday),
      weekSales: percentChange(sums.week, sums.weekBefore),
    },
  };
}

function minDay(a: string, b: string): string {
  return a < b ? a : b;
}

/** Change in percent with one decimal; null when there is nothing to compare with. */
export function percentChange(current: number, previous: number): number | null {
  if (previous <= 0) return null;
  return Math.round(((current - previous) / previous) * 1000) / 10;
}

/**
 * The latest events up to `now`, newest first: three LIMIT 10 reads, each walking an index
 * backwards from `now` (vendors_joined_idx, products_created_idx, orders_created_idx), merged.
 * The sales read filters status = 'paid' on the rows it walks, so it reads 10 plus the number of
 * refunded/cancelled orders among the newest ones: bounded in practice, never a table scan.
 * Ties at the same instant list sales first, then products, then vendors.
 */
export async function readRecentActivity(db: Executor, now: Date): Promise<RecentActivity[]> {
  const until = now.toISOString();
  const [sales, products, vendors] = await Promise.all([
    db
      .selectFrom("orders")
      .select(["product_name as name", "created_at as timestamp"])
      .where("created_at", "<=", until)
      .where("status", "=", "paid")
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(RECENT_ACTIVITY_LIMIT)
      .execute(),
    db.selectFrom("products").select(["name", "created_at as timestamp"]).where("created_at", "<=", until).orderBy("created_at", "desc").orderBy("id", "desc").limit(RECENT_ACTIVITY_LIMIT).execute(),
    db.selectFrom("vendors").select(["name", "joined_at as timestamp"]).where("joined_at", "<=", until).orderBy("joined_at", "desc").orderBy("id", "desc").limit(RECENT_ACTIVITY_LIMIT).execute(),
  ]);
  const events: RecentActivity[] = [
    ...sales.map((r) => ({ type: "sale" as const, name: r.name, timestamp: r.timestamp })),
    ...products.map((r) => ({ type: "product_added" as const, name: r.name, timestamp: r.timestamp })),
    ...vendors.map((r) => ({ type: "vendor_joined" as const, name: r.name, timestamp: r.timestamp })),
  ];
  // Array.prototype.sort is stable, so equal timestamps keep the order above.
  return events.sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0)).slice(0, RECENT_ACTIVITY_LIMIT);
}
