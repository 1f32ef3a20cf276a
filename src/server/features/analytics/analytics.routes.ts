import { analyticsEndpoint } from "../../../contract/analytics.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { EndpointRouter } from "../../platform/request/endpoint-router.ts";
import { AnalyticsService } from "./analytics.service.ts";

export function analyticsRoutes(router: EndpointRouter, deps: AppDeps): void {
  const analytics = new AnalyticsService(deps);
  router.handle(analyticsEndpoint, ({ query }, { dataVersion }) => analytics.period(query.days, dataVersion));
}
