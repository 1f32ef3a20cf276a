import { analyticsEndpoint, salesEndpoint, topProductsEndpoint, topVendorsEndpoint } from "../../../contract/analytics.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { EndpointRouter } from "../../platform/request/endpoint-router.ts";
import { AnalyticsService } from "./analytics.service.ts";

export function analyticsRoutes(router: EndpointRouter, deps: AppDeps): void {
  const analytics = new AnalyticsService(deps);
  router.handle(analyticsEndpoint, ({ query }, { dataVersion }) => analytics.period(query.days, dataVersion));
  router.handle(topProductsEndpoint, ({ query }, { dataVersion }) => analytics.topProducts(query.days, query.limit, dataVersion));
  router.handle(topVendorsEndpoint, ({ query }, { dataVersion }) => analytics.topVendors(query.days, query.limit, dataVersion));
  router.handle(salesEndpoint, ({ query }, { dataVersion }) => analytics.sales(query.days, query.groupBy, dataVersion));
}
