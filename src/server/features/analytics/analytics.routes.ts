import { analyticsEndpoint, salesEndpoint, topProductsEndpoint, topVendorsEndpoint } from "../../../contract/analytics.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { EndpointRouter } from "../../platform/request/endpoint-router.ts";
import { AnalyticsService } from "./analytics.service.ts";

export function analyticsRoutes(router: EndpointRouter, deps: AppDeps): void {
  const analytics = new AnalyticsService(deps);
  router.handle(analyticsEndpoint, ({ query }) => analytics.period(query.days));
  router.handle(topProductsEndpoint, ({ query }) => analytics.topProducts(query.days, query.limit));
  router.handle(topVendorsEndpoint, ({ query }) => analytics.topVendors(query.days, query.limit));
  router.handle(salesEndpoint, ({ query }) => analytics.sales(query.days, query.groupBy));
}
