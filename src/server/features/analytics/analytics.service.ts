import type { AnalyticsPeriod, AnalyticsResponse } from "../../../contract/analytics.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { readAnalytics } from "./analytics.queries.ts";

/** Sales figures by period (docs/product.md §6 Analytics). */
export class AnalyticsService {
  constructor(private readonly deps: Pick<AppDeps, "database" | "clock" | "readCache">) {}

  /** Same answer for every admin: one computation serves a burst of requests (db/read-cache.ts). */
  period(days: AnalyticsPeriod, dataVersion: () => string): Promise<AnalyticsResponse> {
    const { database, clock, readCache } = this.deps;
    return readCache.read(`analytics:${days}`, () => readAnalytics(database.db, clock.now(), days), dataVersion);
  }
}
