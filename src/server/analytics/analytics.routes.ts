import { Hono } from "hono";
import { analyticsQuerySchema, type AnalyticsResponse } from "../../contract/analytics.ts";
import type { AppDeps, AppEnv } from "../app-env.ts";
import { readQuery } from "../http/validate.ts";
import { readAnalytics } from "./analytics.queries.ts";

/** GET /api/admin/analytics?days=7|30|90 (admin-only by the /api/admin prefix guard in app.ts). */
export function analyticsRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/admin/analytics", async (c) => {
    const { days } = readQuery(c, analyticsQuerySchema);
    // Same answer for every admin: one computation serves a burst of requests (db/read-cache.ts).
    const body: AnalyticsResponse = await deps.readCache.read(`analytics:${days}`, () => readAnalytics(deps.database.db, deps.clock.now(), days), c.get("dataVersion"));
    return c.json(body);
  });
  return app;
}
