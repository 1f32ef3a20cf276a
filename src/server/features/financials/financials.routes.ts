import {
  cancelPayoutRunEndpoint,
  checkPayoutEndpoint,
  createPayoutRunEndpoint,
  financialOverviewEndpoint,
  getPayoutRunEndpoint,
  getVendorPayoutsEndpoint,
  listBalancesEndpoint,
  listPayoutRunsEndpoint,
  listPayoutsEndpoint,
  refreshPayoutAccountEndpoint,
  retryPayoutEndpoint,
} from "../../../contract/financials.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { EndpointRouter } from "../../platform/request/endpoint-router.ts";
import { FinancialService } from "./financials.service.ts";

/** Financials and payouts (docs/product.md §15). Every route is admin-only. */
export function financialsRoutes(router: EndpointRouter, deps: AppDeps): void {
  const financial = new FinancialService(deps);

  router.handle(financialOverviewEndpoint, ({ query }) => financial.overview(query.period));
  router.handle(listPayoutsEndpoint, ({ query }) => financial.payouts(query));
  router.handle(listBalancesEndpoint, ({ query }) => financial.balances(query));
  router.handle(createPayoutRunEndpoint, ({ body }, { actor }) => financial.createRun(actor, body.dryRun ?? false));
  router.handle(listPayoutRunsEndpoint, ({ query }) => financial.listRuns(query.limit, query.cursor));
  router.handle(getPayoutRunEndpoint, ({ params }) => financial.run(params.id));
  router.handle(cancelPayoutRunEndpoint, ({ params }, { actor }) => financial.cancelRun(actor, params.id));
  router.handle(retryPayoutEndpoint, ({ params }, { actor }) => financial.retryPayout(actor, params.id));
  router.handle(checkPayoutEndpoint, ({ params }, { actor }) => financial.checkPayout(actor, params.id));
  router.handle(getVendorPayoutsEndpoint, ({ params }) => financial.vendorPayouts(params.id));
  router.handle(refreshPayoutAccountEndpoint, ({ params }, { actor }) => financial.refreshAccount(actor, params.id));
}
