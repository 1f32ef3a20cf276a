import {
  cancelPayoutRunEndpoint,
  checkPayoutEndpoint,
  createPayoutRunEndpoint,
  financialOverviewEndpoint,
  getPayoutRunEndpoint,
  getVendorPayoutsEndpoint,
  getVendorStatementEndpoint,
  listBalancesEndpoint,
  listPayoutRunsEndpoint,
  listPayoutsEndpoint,
  refreshPayoutAccountEndpoint,
  retryPayoutEndpoint,
} from "../../../contract/financials.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { EndpointRouter } from "../../platform/request/endpoint-router.ts";
import { FinancialsService } from "./financials.service.ts";

/** Financials and payouts (docs/product.md §15). Every route is admin-only. */
export function financialsRoutes(router: EndpointRouter, deps: AppDeps): void {
  const financials = new FinancialsService(deps);

  router.handle(financialOverviewEndpoint, ({ query }) => financials.overview(query.period));
  router.handle(listPayoutsEndpoint, ({ query }) => financials.payouts(query));
  router.handle(listBalancesEndpoint, ({ query }) => financials.balances(query));
  router.handle(createPayoutRunEndpoint, ({ body }, { actor }) => financials.createRun(actor, body.dryRun ?? false));
  router.handle(listPayoutRunsEndpoint, ({ query }) => financials.listRuns(query.limit, query.cursor));
  router.handle(getPayoutRunEndpoint, ({ params }) => financials.run(params.id));
  router.handle(cancelPayoutRunEndpoint, ({ params }, { actor }) => financials.cancelRun(actor, params.id));
  router.handle(retryPayoutEndpoint, ({ params }, { actor }) => financials.retryPayout(actor, params.id));
  router.handle(checkPayoutEndpoint, ({ params }, { actor }) => financials.checkPayout(actor, params.id));
  router.handle(getVendorPayoutsEndpoint, ({ params }) => financials.vendorPayouts(params.id));
  router.handle(getVendorStatementEndpoint, ({ params, query }) => financials.statement(params.id, query.cursor, query.limit));
  router.handle(refreshPayoutAccountEndpoint, ({ params }, { actor }) => financials.refreshAccount(actor, params.id));
}
