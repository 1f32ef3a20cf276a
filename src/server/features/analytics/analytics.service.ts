import type { AnalyticsPeriod, AnalyticsResponse, SalesGrouping, SalesPeriod, SalesResponse, TopProductsResponse, TopVendorsResponse } from "../../../contract/analytics.ts";
import { addDays, readPlatformDays } from "../../domain/ledger/platform-days.queries.ts";
import type { PeriodWindowDays } from "../../domain/ledger/period-totals.ts";
import { periodTotalsEndForRead } from "../../domain/ledger/period-totals-read.ts";
import { centsToDollars } from "../../domain/money.ts";
import { utcDay } from "../../platform/clock.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { serviceUnavailable } from "../../platform/http/http-error.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { readAnalytics } from "./analytics.queries.ts";
import { salesBuckets } from "./sales-buckets.ts";
import { selectTopProducts, selectTopVendors } from "./top-lists.queries.ts";

/**
 * The most product days a top-list read may move the windows by itself (a day's step of a small
 * shop): about 20 ms of chunks at most (docs/decisions/0013-top-lists.md). More is left to the job.
 */
const READ_ROLL_MAX_ROWS = 1_000;

/** Sales figures by period (docs/product.md §6 Analytics, §18.2 top lists and sales). */
export class AnalyticsService {
  /** `readRollMaxRows`: READ_ROLL_MAX_ROWS but in tests, which drive the large-read branch with a few rows. */
  constructor(
    private readonly deps: Pick<AppDeps, "database" | "clock">,
    private readonly readRollMaxRows = READ_ROLL_MAX_ROWS,
  ) {}

  period(days: AnalyticsPeriod): Promise<AnalyticsResponse> {
    const { database, clock } = this.deps;
    return readAnalytics(database.db, clock.now(), days);
  }

  /**
   * The day the period totals of `days` end on (domain/ledger/period-totals-read.ts). The scheduled
   * roll (top-lists.job.ts) moves the windows in chunks just after midnight UTC. A read that comes
   * first moves them itself only if the move is small (at most READ_ROLL_MAX_ROWS product days, in
   * request-paced chunks); otherwise it answers from the windows as they stand, naming the day they
   * end (`to`), while the job catches up. Windows that hold none of the period (a database just
   * filled) are built while the read waits, up to a bound; past it the answer is a 503, never an
   * empty list that is not true.
   */
  private async windowEnd(days: PeriodWindowDays, today: string): Promise<string> {
    const to = await periodTotalsEndForRead(this.deps.database.db, days, today, { readRollMaxRows: this.readRollMaxRows });
    if (to === null) throw serviceUnavailable("The top lists are being built; try again in a few seconds", 5);
    return to;
  }

  /**
   * A top list of `days`: the windows are brought up to date (or their end read) first, then the
   * first `limit` rows are read from them and ranked, each with its figures and what `describe`
   * says of it, under `list`.
   */
  private async topList<L extends "products" | "vendors", R extends { gross_cents: number; orders: number; units: number }, D extends object>(
    list: L,
    days: PeriodWindowDays,
    limit: number,
    select: (db: Executor, days: number, limit: number) => Promise<R[]>,
    describe: (row: R) => D,
  ) {
    const { database, clock } = this.deps;
    const to = await this.windowEnd(days, utcDay(clock.now()));
    const rows = await select(database.db, days, limit);
    const ranked = rows.map((r, i) => ({ rank: i + 1, ...describe(r), revenue: centsToDollars(r.gross_cents), orders: Number(r.orders), units: Number(r.units) }));
    return { days, limit, from: addDays(to, -(days - 1)), to, [list]: ranked } as { days: PeriodWindowDays; limit: number; from: string; to: string } & Record<L, typeof ranked>;
  }

  topProducts(days: PeriodWindowDays, limit: number): Promise<TopProductsResponse> {
    return this.topList("products", days, limit, selectTopProducts, (r) => ({ productId: r.product_id, productName: r.product_name, vendorId: r.vendor_id, vendorName: r.vendor_name }));
  }

  topVendors(days: PeriodWindowDays, limit: number): Promise<TopVendorsResponse> {
    return this.topList("vendors", days, limit, selectTopVendors, (r) => ({ vendorId: r.vendor_id, vendorName: r.vendor_name, vendorSlug: r.vendor_slug }));
  }

  /** Buckets from the per-day platform rollup: at most 366 primary-key rows, whatever the orders. */
  async sales(days: SalesPeriod, groupBy: SalesGrouping): Promise<SalesResponse> {
    const { database, clock } = this.deps;
    const to = utcDay(clock.now());
    const from = addDays(to, -(days - 1));
    const rollup = await readPlatformDays(database.db, from, to);
    return { days, groupBy, from, to, ...salesBuckets(rollup, from, to, groupBy) };
  }
}
