import { checkRefundEndpoint, createRefundEndpoint, getOrderEndpoint, listOrdersEndpoint } from "../../../contract/orders.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { EndpointRouter } from "../../platform/request/endpoint-router.ts";
import { OrdersService } from "./orders.service.ts";
import { RefundsService } from "./refunds.service.ts";

/** The Orders screen (docs/product.md "Orders"): read by every panel role, refunds and their checks with Stripe by admins and finance; admin paths by prefix. */
export function ordersRoutes(router: EndpointRouter, deps: AppDeps): void {
  const orders = new OrdersService(deps);
  router.handle(listOrdersEndpoint, ({ query }) => orders.list(query));
  router.handle(getOrderEndpoint, ({ params }) => orders.detail(params.id));
  const refunds = new RefundsService(deps);
  router.handle(createRefundEndpoint, ({ params, body }, { actor }) => refunds.create(actor, params.id, body));
  router.handle(checkRefundEndpoint, ({ params }, { actor }) => refunds.check(actor, params.id));
}
