import type { SalesBucket, SalesGrouping } from "../../../contract/analytics.ts";
import type { PlatformDay } from "../../domain/ledger/platform-days.queries.ts";
import { centsToDollars } from "../../domain/money.ts";

/**
 * Sales per bucket from the per-day platform rollup (docs/product.md §18.2). A bucket is a UTC
 * day, an ISO week (Monday to Sunday) or a calendar month, cut to the period [from, to].
 */

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

const DAY_MS = 86_400_000;

/**
 * Walks the period's days once (one Date per day: a year by day is ~0.2 ms), closing a bucket when
 * the next day belongs to another one.
 */
export function salesBuckets(days: Map<string, PlatformDay>, from: string, to: string, groupBy: SalesGrouping): { buckets: SalesBucket[]; totals: Omit<SalesBucket, "start" | "end"> } {
  const buckets: SalesBucket[] = [];
  const total: Sums = { grossCents: 0, orders: 0, feesCents: 0 };
  const keyOf = (d: Date): number => {
    if (groupBy === "day") return d.getTime();
    if (groupBy === "month") return d.getUTCFullYear() * 12 + d.getUTCMonth();
    return d.getTime() - ((d.getUTCDay() + 6) % 7) * DAY_MS; // the Monday of its ISO week
  };
  let open: { key: number; start: string; end: string; sums: Sums } | null = null;
  const close = () => {
    if (open) buckets.push({ start: open.start, end: open.end, ...figures(open.sums) });
  };
  const last = Date.parse(`${to}T00:00:00.000Z`);
  for (let ms = Date.parse(`${from}T00:00:00.000Z`); ms <= last; ms += DAY_MS) {
    const date = new Date(ms);
    const day = date.toISOString().slice(0, 10);
    const key = keyOf(date);
    if (!open || open.key !== key) {
      close();
      open = { key, start: day, end: day, sums: { grossCents: 0, orders: 0, feesCents: 0 } };
    }
    open.end = day;
    const row = days.get(day);
    if (!row) continue;
    open.sums.grossCents += row.grossCents;
    open.sums.orders += row.orders;
    open.sums.feesCents += row.feesCents;
    total.grossCents += row.grossCents;
    total.orders += row.orders;
    total.feesCents += row.feesCents;
  }
  close();
  return { buckets, totals: figures(total) };
}
