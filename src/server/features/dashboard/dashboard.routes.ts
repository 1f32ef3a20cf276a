import { dashboardAttentionEndpoint, dashboardStatsEndpoint } from "../../../contract/dashboard.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { EndpointRouter } from "../../platform/request/endpoint-router.ts";
import { DashboardService } from "./dashboard.service.ts";

export function dashboardRoutes(router: EndpointRouter, deps: AppDeps): void {
  const dashboard = new DashboardService(deps);
  router.handle(dashboardStatsEndpoint, (_input) => dashboard.stats());
  router.handle(dashboardAttentionEndpoint, (_input) => dashboard.attention());
}
