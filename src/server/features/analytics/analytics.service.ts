import type {
  AnalyticsPeriod,
  AnalyticsResponse,
  SalesGrouping,
  SalesPeriod,
  SalesResponse,
  TopProductsResponse,
  TopVendorsResponse,
} from "../../../contract/analytics.ts";
import { addDays, readPlatformDays } from "../../domain/ledger/platform-days.queries.ts";
import { type PeriodWindowDays, periodWindowsCurrent, rollPeriodWindows } from "../../domain/ledger/period-totals.ts";
import { centsToDollars } from "../../domain/money.ts";
import { utcDay } from "../../platform/clock.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { readAnalytics } from "./analytics.queries.ts";
import { salesBuckets } from "./sales-buckets.ts";
import { selectTopProducts, selectTopVendors } from "./top-lists.queries.ts";

/** Sales figures by period (docs/product.md §6 Analytics, §18.2 top lists and sales). */
export class AnalyticsService {
  constructor(private readonly deps: Pick<AppDeps, "database" | "clock" | "readCache">) {}

  /** Same answer for every admin: one computation serves a burst of requests (db/read-cache.ts). */
  period(days: AnalyticsPeriod, dataVersion: () => string): Promise<AnalyticsResponse> {
    const { database, clock, readCache } = this.deps;
    return readCache.read(`analytics:${days}`, () => readAnalytics(database.db, clock.now(), days), dataVersion);
  }

  /**
   * The period totals end on the day their windows were last moved to. The scheduled roll
   * (top-lists.job.ts) moves them just after midnight UTC; a read that comes first moves them
   * itself (a day's step, once a day), so an answer always covers the days it names.
   */
  private async currentWindows(today: string): Promise<void> {
    const { db } = this.deps.database;
    if (!(await periodWindowsCurrent(db, today))) await rollPeriodWindows(db, today);
  }

  topProducts(days: PeriodWindowDays, limit: number, dataVersion: () => string): Promise<TopProductsResponse> {
    const { database, clock, readCache } = this.deps;
    return readCache.read(
      `top-products:${days}:${limit}`,
      async () => {
        const to = utcDay(clock.now());
        await this.currentWindows(to);
        const rows = await selectTopProducts(database.db, days, limit);
        return {
          days,
          limit,
          from: addDays(to, -(days - 1)),
          to,
          products: rows.map((r, i) => ({
            rank: i + 1,
            productId: r.product_id,
            productName: r.product_name,
            vendorId: r.vendor_id,
            vendorName: r.vendor_name,
            revenue: centsToDollars(r.gross_cents),
            orders: Number(r.orders),
            units: Number(r.units),
          })),
        };
      },
      dataVersion,
    );
  }

  topVendors(days: PeriodWindowDays, limit: number, dataVersion: () => string): Promise<TopVendorsResponse> {
    const { database, clock, readCache } = this.deps;
    return readCache.read(
      `top-vendors:${days}:${limit}`,
      async () => {
        const to = utcDay(clock.now());
        await this.currentWindows(to);
        const rows = await selectTopVendors(database.db, days, limit);
        return {
          days,
          limit,
          from: addDays(to, -(days - 1)),
          to,
          vendors: rows.map((r, i) => ({
            rank: i + 1,
            vendorId: r.vendor_id,
            vendorName: r.vendor_name,
            vendorSlug: r.vendor_slug,
            revenue: centsToDollars(r.gross_cents),
            orders: Number(r.orders),
            units: Number(r.units),
          })),
        };
      },
      dataVersion,
    );
  }

  /** Buckets from the per-day platform rollup: at most 366 primary-key rows, whatever the orders. */
  sales(days: SalesPeriod, groupBy: SalesGrouping, dataVersion: () => string): Promise<SalesResponse> {
    const { database, clock, readCache } = this.deps;
    return readCache.read(
      `sales:${days}:${groupBy}`,
      async () => {
        const to = utcDay(clock.now());
        const from = addDays(to, -(days - 1));
        const rollup = await readPlatformDays(database.db, from, to);
        return { days, groupBy, from, to, ...salesBuckets(rollup, from, to, groupBy) };
      },
      dataVersion,
    );
  }
}
