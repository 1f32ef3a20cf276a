import { debugAdminEndpoint, testErrorEndpoint } from "../../../contract/system-debug.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { EndpointRouter } from "../../platform/request/endpoint-router.ts";
import { DebugService } from "./system-debug.service.ts";

/** The System Debug page's facts and the test-error call (docs/product.md §10.8). */
export function systemDebugRoutes(router: EndpointRouter, deps: AppDeps): void {
  const debug = new DebugService(deps);
  router.handle(debugAdminEndpoint, (_input, { user, url }) => debug.adminFacts(user, `${url.origin}/api`));
  router.handle(testErrorEndpoint, (_input, { user, url, clientIp, userAgent }) =>
    debug.logTestError({ endpoint: url.pathname, method: "POST", user, clientIp, userAgent }),
  );
}
