import { Hono } from "hono";
import type { DashboardStats } from "../../contract/dashboard.ts";
import type { AppDeps, AppEnv } from "../app-env.ts";
import { readDashboardStats } from "./dashboard.queries.ts";

/** GET /api/admin/dashboard/stats (admin-only by the /api/admin prefix guard in app.ts). */
export function dashboardRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/admin/dashboard/stats", async (c) => {
    // Same answer for every admin: one computation serves a burst of requests (db/read-cache.ts).
    const body: DashboardStats = await deps.readCache.read("dashboard", () => readDashboardStats(deps.database.db, deps.clock.now()), c.get("dataVersion"));
    return c.json(body);
  });
  return app;
}
