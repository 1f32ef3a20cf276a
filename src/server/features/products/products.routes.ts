import { bulkProductStatusEndpoint, getProductEndpoint, listProductsEndpoint, productsSummaryEndpoint, setProductStatusEndpoint } from "../../../contract/products.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { EndpointRouter } from "../../platform/request/endpoint-router.ts";
import { ProductsService } from "./products.service.ts";

/** The products catalogue (docs/product.md §16). Admin-only by path prefix. */
export function productsRoutes(router: EndpointRouter, deps: AppDeps): void {
  const products = new ProductsService(deps);

  router.handle(listProductsEndpoint, ({ query }) => products.list(query));
  // Before /{id}, which "summary" would otherwise match.
  router.handle(productsSummaryEndpoint, () => products.summary());
  router.handle(getProductEndpoint, ({ params }) => products.detail(params.id));
  router.handle(setProductStatusEndpoint, ({ params, body }, { actor }) => products.setStatus(actor, params.id, body.status, body.reason));
  router.handle(bulkProductStatusEndpoint, ({ body }, { actor }) => products.bulkSetStatus(actor, body));
}
