import {
  bulkApproveReviewEndpoint,
  bulkProductStatusEndpoint,
  decideReviewEndpoint,
  getProductEndpoint,
  listProductsEndpoint,
  listReviewEndpoint,
  productsSummaryEndpoint,
  setProductStatusEndpoint,
} from "../../../contract/products.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { EndpointRouter } from "../../platform/request/endpoint-router.ts";
import { ProductsReviewService } from "./products-review.service.ts";
import { ProductsService } from "./products.service.ts";

/** The products catalogue (docs/product.md §16). Admin-only by path prefix. */
export function productsRoutes(router: EndpointRouter, deps: AppDeps): void {
  const products = new ProductsService(deps);
  const review = new ProductsReviewService(deps);

  router.handle(listProductsEndpoint, ({ query }) => products.list(query));
  // Before /{id}, which "summary" would otherwise match.
  router.handle(productsSummaryEndpoint, () => products.summary());
  router.handle(listReviewEndpoint, ({ query }) => review.list(query));
  router.handle(bulkApproveReviewEndpoint, ({ body }, { actor }) => review.bulkApprove(actor, body.ids, body.reason));
  router.handle(getProductEndpoint, ({ params }) => products.detail(params.id));
  router.handle(setProductStatusEndpoint, ({ params, body }, { actor }) => products.setStatus(actor, params.id, body.status, body.reason));
  router.handle(bulkProductStatusEndpoint, ({ body }, { actor }) => products.bulkSetStatus(actor, body));
  router.handle(decideReviewEndpoint, ({ params, body }, { actor }) => review.decide(actor, params.id, body.decision, body.reason, body.infringement ?? false));
}
