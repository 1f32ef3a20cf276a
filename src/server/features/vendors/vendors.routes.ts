import {
  bulkApproveApplicationsEndpoint,
  bulkVendorStatusEndpoint,
  decideApplicationEndpoint,
  listApplicationsEndpoint,
  deleteVendorEndpoint,
  getVendorDetailEndpoint,
  listAdminVendorsEndpoint,
  listVendorProductsEndpoint,
  listVendorSalesEndpoint,
  listVendorsArrayEndpoint,
  setVendorStatusEndpoint,
  setVendorTrustedEndpoint,
} from "../../../contract/vendors.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { EndpointRouter } from "../../platform/request/endpoint-router.ts";
import { VendorsService } from "./vendors.service.ts";
import { VendorApplicationsService } from "./vendor-applications.service.ts";
import { VendorTrustService } from "./vendor-trust.service.ts";

/** Vendor management (docs/product.md §4 Vendors). Every route is admin-only: `user` is always set. */
export function vendorsRoutes(router: EndpointRouter, deps: AppDeps): void {
  const vendors = new VendorsService(deps);
  const applications = new VendorApplicationsService(deps);
  const trust = new VendorTrustService(deps);

  // Before the vendor's own path: /api/admin/vendors/applications is the queue, not a vendor's id.
  router.handle(listApplicationsEndpoint, ({ query }) => applications.list(query));
  router.handle(decideApplicationEndpoint, ({ params, body }, { actor }) => applications.decide(actor, params.id, body.decision, body.reason));
  router.handle(bulkApproveApplicationsEndpoint, ({ body }, { actor }) => applications.bulkApprove(actor, body.ids, body.reason));

  router.handle(listAdminVendorsEndpoint, ({ query }) => vendors.listPage(query));
  router.handle(listVendorsArrayEndpoint, ({ query }) => vendors.listArray(query.include_internal ?? false));
  router.handle(getVendorDetailEndpoint, ({ params }) => vendors.detail(params.id));
  router.handle(listVendorProductsEndpoint, ({ params, query }) => vendors.products(params.id, query.page, query.limit));
  router.handle(listVendorSalesEndpoint, ({ params, query }) => vendors.sales(params.id, query.page, query.limit));
  router.handle(setVendorStatusEndpoint, ({ params, body }, { actor }) => vendors.setStatus(actor, params.id, body.isActive, body.reason));
  router.handle(bulkVendorStatusEndpoint, ({ body }, { actor }) => vendors.bulkSetStatus(actor, body.ids, body.isActive, body.reason));
  router.handle(setVendorTrustedEndpoint, ({ params, body }, { actor }) => trust.setTrusted(actor, params.id, body.trusted, body.reason));
  router.handle(deleteVendorEndpoint, ({ params, body }, { actor }) => vendors.delete(actor, params.id, body.deleteFromClerk));
}
