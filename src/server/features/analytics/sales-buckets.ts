import type { SalesBucket, SalesGrouping } from "../../../contract/analytics.ts";
import { addDays, type PlatformDay } from "../../domain/ledger/platform-days.queries.ts";
import { centsToDollars } from "../../domain/money.ts";

/**
 * Sales per bucket from the per-day platform rollup (docs/product.md §18.2). A bucket is a UTC
 * day, an ISO week (Monday to Sunday) or a calendar month, cut to the period [from, to].
 */

/** The first day of the bucket that holds `day`. */
export function bucketStart(day: string, groupBy: SalesGrouping): string {
  if (groupBy === "day") return day;
  if (groupBy === "month") return `${day.slice(0, 8)}01`;
  const weekday = new Date(`${day}T00:00:00.000Z`).getUTCDay(); // 0 = Sunday
  return addDays(day, -((weekday + 6) % 7));
}

/** The first day of the bucket after the one starting on `start`. */
function nextBucketStart(start: string, groupBy: SalesGrouping): string {
  if (groupBy === "day") return addDays(start, 1);
  if (groupBy === "week") return addDays(start, 7);
  const d = new Date(`${start}T00:00:00.000Z`);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
}

interface Sums {
  grossCents: number;
  orders: number;
  feesCents: number;
}

function figures(s: Sums): Omit<SalesBucket, "start" | "end"> {
  return {
    revenue: centsToDollars(s.grossCents),
    orders: s.orders,
    fees: centsToDollars(s.feesCents),
    averageOrderValue: s.orders === 0 ? 0 : centsToDollars(Math.round(s.grossCents / s.orders)),
  };
}

export function salesBuckets(days: Map<string, PlatformDay>, from: string, to: string, groupBy: SalesGrouping): { buckets: SalesBucket[]; totals: Omit<SalesBucket, "start" | "end"> } {
  const buckets: SalesBucket[] = [];
  const total: Sums = { grossCents: 0, orders: 0, feesCents: 0 };
  for (let start = from; start <= to; ) {
    const next = nextBucketStart(bucketStart(start, groupBy), groupBy);
    const end = addDays(next, -1) < to ? addDays(next, -1) : to;
    const sums: Sums = { grossCents: 0, orders: 0, feesCents: 0 };
    for (let d = start; d <= end; d = addDays(d, 1)) {
      const row = days.get(d);
      if (!row) continue;
      sums.grossCents += row.grossCents;
      sums.orders += row.orders;
      sums.feesCents += row.feesCents;
    }
    total.grossCents += sums.grossCents;
    total.orders += sums.orders;
    total.feesCents += sums.feesCents;
    buckets.push({ start, end, ...figures(sums) });
    start = next;
  }
  return { buckets, totals: figures(total) };
}
