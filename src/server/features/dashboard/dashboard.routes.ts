import { dashboardStatsEndpoint } from "../../../contract/dashboard.ts";
import type { AppDeps } from "../../platform/app-env.ts";
import type { EndpointRouter } from "../../platform/http/endpoint-router.ts";
import { DashboardService } from "./dashboard.service.ts";

export function dashboardRoutes(router: EndpointRouter, deps: AppDeps): void {
  const dashboard = new DashboardService(deps);
  router.handle(dashboardStatsEndpoint, (_input, { dataVersion }) => dashboard.stats(dataVersion));
}
