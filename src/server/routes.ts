import type { AppDeps } from "./app-env.ts";
import { adminUsersRoutes } from "./admin-users/admin-users.routes.ts";
import { analyticsRoutes } from "./analytics/analytics.routes.ts";
import { auditLogRoutes } from "./audit/audit-log.routes.ts";
import { authRoutes } from "./auth/auth.routes.ts";
import { dashboardRoutes } from "./dashboard/dashboard.routes.ts";
import { debugRoutes } from "./debug/debug.routes.ts";
import { docsRoutes } from "./docs/docs.routes.ts";
import { errorLogsRoutes } from "./error-logs/error-logs.routes.ts";
import { exportsRoutes } from "./exports/exports.routes.ts";
import { financialRoutes } from "./financial/financial.routes.ts";
import type { EndpointRouter } from "./http/endpoint-router.ts";
import { publicRoutes } from "./public/public.routes.ts";
import { settingsRoutes } from "./settings/settings.routes.ts";
import { vendorsRoutes } from "./vendors/vendors.routes.ts";

/**
 * Every area's routes. An area adds one line here; each of its handlers is registered from its
 * definition in src/contract. The admin guard is applied by path prefix in app.ts, so a new route
 * under /api/admin, /api/debug or /api/vendors is guarded without doing anything (the auth sweep
 * proves it), and the OpenAPI test proves every served route is documented and vice versa.
 */
export const areaRoutes: Array<(router: EndpointRouter, deps: AppDeps) => void> = [
  publicRoutes,
  docsRoutes,
  authRoutes,
  errorLogsRoutes,
  dashboardRoutes,
  analyticsRoutes,
  settingsRoutes,
  debugRoutes,
  vendorsRoutes,
  exportsRoutes,
  financialRoutes,
  adminUsersRoutes,
  auditLogRoutes,
];
