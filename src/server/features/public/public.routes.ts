import { healthEndpoint, publicConfigEndpoint, readyEndpoint } from "../../../contract/public.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { EndpointRouter } from "../../platform/request/endpoint-router.ts";
import { PublicService } from "./public.service.ts";

/** Routes anyone may call: liveness and the non-secret facts the web app needs before sign-in. */
export function publicRoutes(router: EndpointRouter, deps: AppDeps): void {
  const service = new PublicService(deps);
  router.handle(healthEndpoint, () => service.health());
  router.handle(readyEndpoint, () => service.ready());
  router.handle(publicConfigEndpoint, () => service.publicConfig());
}
