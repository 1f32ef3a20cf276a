import type { AttentionResponse, DashboardStats } from "../../../contract/dashboard.ts";
import { readAttention } from "./attention.providers.ts";
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

  /** What needs the operator now (docs/product.md §18.3); the same for every admin, so read-cached too. */
  attention(dataVersion: () => string): Promise<AttentionResponse> {
    const { database, clock, readCache } = this.deps;
    return readCache.read(
      "dashboard:attention",
      async () => {
        const now = clock.now();
        return { items: await readAttention(database.db, now), checkedAt: now.toISOString() };
      },
      dataVersion,
    );
  }
}
