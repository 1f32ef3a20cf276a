import type { AttentionResponse, DashboardStats } from "../../../contract/dashboard.ts";
import { readAttention } from "./attention.providers.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { readDashboardStats } from "./dashboard.queries.ts";

/** The dashboard's figures (docs/product.md §3 Dashboard). */
export class DashboardService {
  constructor(private readonly deps: Pick<AppDeps, "database" | "clock">) {}

  stats(): Promise<DashboardStats> {
    const { database, clock } = this.deps;
    return readDashboardStats(database.db, clock.now());
  }

  /** What needs the operator now (docs/product.md §18.3). */
  async attention(): Promise<AttentionResponse> {
    const { database, clock } = this.deps;
    const now = clock.now();
    return { items: await readAttention(database.db, now), checkedAt: now.toISOString() };
  }
}
