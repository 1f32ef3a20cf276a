import { getOrderEndpoint, listOrdersEndpoint } from "../../../contract/orders.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { EndpointRouter } from "../../platform/request/endpoint-router.ts";
import { OrdersService } from "./orders.service.ts";

/** The Orders screen (docs/product.md "Orders"): read by every panel role; admin paths by prefix. */
export function ordersRoutes(router: EndpointRouter, deps: AppDeps): void {
  const orders = new OrdersService(deps);
  router.handle(listOrdersEndpoint, ({ query }) => orders.list(query));
  router.handle(getOrderEndpoint, ({ params }) => orders.detail(params.id));
}
