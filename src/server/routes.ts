import type { Hono } from "hono";
import type { AppDeps, AppEnv } from "./app-env.ts";
import { authRoutes } from "./auth/auth.routes.ts";
import { errorLogsRoutes } from "./error-logs/error-logs.routes.ts";
import { publicRoutes } from "./public/public.routes.ts";
import { vendorsRoutes } from "./vendors/vendors.routes.ts";
import { analyticsRoutes } from "./analytics/analytics.routes.ts";
import { dashboardRoutes } from "./dashboard/dashboard.routes.ts";
import { testErrorRoutes } from "./debug/test-error.routes.ts";
import { debugAdminRoutes } from "./debug/debug-admin.routes.ts";
import { settingsRoutes } from "./settings/settings.routes.ts";

/**
 * Every area's routes, mounted under /api. An area adds one line here; the admin guard is applied
 * by path prefix in app.ts, so a new route under /api/admin, /api/debug or /api/vendors is guarded
 * without doing anything (and the auth sweep test proves it).
 */
export const areaRoutes: Array<(deps: AppDeps) => Hono<AppEnv>> = [publicRoutes, authRoutes, errorLogsRoutes, dashboardRoutes, analyticsRoutes, testErrorRoutes, settingsRoutes, debugAdminRoutes, vendorsRoutes];
