import type { DashboardStats } from "../../../contract/dashboard.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { readDashboardStats } from "./dashboard.queries.ts";

/** The dashboard's figures (docs/product.md §3 Dashboard). */
export class DashboardService {
  constructor(private readonly deps: Pick<AppDeps, "database" | "clock" | "readCache">) {}

  /** Same answer for every admin: one computation serves a burst of requests (db/read-cache.ts). */
  stats(dataVersion: () => string): Promise<DashboardStats> {
    const { database, clock, readCache } = this.deps;
    return readCache.read("dashboard", () => readDashboardStats(database.db, clock.now()), dataVersion);
  }
}
