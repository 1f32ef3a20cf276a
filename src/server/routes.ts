import type { AppDeps } from "./platform/request/app-env.ts";
import { adminUsersRoutes } from "./features/admin-users/admin-users.routes.ts";
import { analyticsRoutes } from "./features/analytics/analytics.routes.ts";
import { auditLogRoutes } from "./features/audit-log/audit-log.routes.ts";
import { communicationsRoutes } from "./features/communications/communications.routes.ts";
import { authRoutes } from "./features/auth/auth.routes.ts";
import { dashboardRoutes } from "./features/dashboard/dashboard.routes.ts";
import { systemDebugRoutes } from "./features/system-debug/system-debug.routes.ts";
import { apiDocsRoutes } from "./features/api-docs/api-docs.routes.ts";
import { errorLogsRoutes } from "./features/error-logs/error-logs.routes.ts";
import { exportsRoutes } from "./features/exports/exports.routes.ts";
import { exportKinds } from "./export-kinds.ts";
import { featuredArtistRoutes } from "./features/featured-artist/featured-artist.routes.ts";
import { financialsRoutes } from "./features/financials/financials.routes.ts";
import { integrationsRoutes } from "./features/integrations/integrations.routes.ts";
import type { EndpointRouter } from "./platform/request/endpoint-router.ts";
import { ordersRoutes } from "./features/orders/orders.routes.ts";
import { productsRoutes } from "./features/products/products.routes.ts";
import { publicRoutes } from "./features/public/public.routes.ts";
import { settingsRoutes } from "./features/settings/settings.routes.ts";
import { vendorsRoutes } from "./features/vendors/vendors.routes.ts";

/**
 * Every area's routes. An area adds one line here; each of its handlers is registered from its
 * definition in src/contract. The admin guard is applied by path prefix in app.ts, so a new route
 * under /api/admin, /api/debug or /api/vendors is guarded without doing anything (the auth sweep
 * proves it), and the OpenAPI test proves every served route is documented and vice versa.
 */
export const areaRoutes: Array<(router: EndpointRouter, deps: AppDeps) => void> = [
  publicRoutes,
  apiDocsRoutes,
  authRoutes,
  errorLogsRoutes,
  dashboardRoutes,
  analyticsRoutes,
  settingsRoutes,
  systemDebugRoutes,
  vendorsRoutes,
  exportsRoutes(exportKinds),
  financialsRoutes,
  adminUsersRoutes,
  auditLogRoutes,
  communicationsRoutes,
  featuredArtistRoutes,
  productsRoutes,
  ordersRoutes,
  integrationsRoutes,
];
