import { debugAdminEndpoint, testErrorEndpoint } from "../../../contract/system-debug.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { EndpointRouter } from "../../platform/request/endpoint-router.ts";
import { DebugService } from "./system-debug.service.ts";

/** The System Debug page's facts and the test-error call (docs/product.md §10.8). */
export function systemDebugRoutes(router: EndpointRouter, deps: AppDeps): void {
  const debug = new DebugService(deps);
  // The address shown is the configured public one: the request's Host never decides it (docs/product.md §13).
  router.handle(debugAdminEndpoint, (_input, { user }) => debug.adminFacts(user, `${deps.config.publicUrl}/api`));
  router.handle(testErrorEndpoint, (_input, { user, url, clientIp, userAgent }) => debug.logTestError({ endpoint: url.pathname, method: "POST", user, clientIp, userAgent }));
}
