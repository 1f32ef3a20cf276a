import { listAuditLogEndpoint } from "../../../contract/activity.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { EndpointRouter } from "../../platform/request/endpoint-router.ts";
import { AuditLogService } from "./activity.service.ts";

/** The audit log (docs/product.md §14.4): read by admins and viewers; written only by the actions themselves. */
export function activityRoutes(router: EndpointRouter, deps: AppDeps): void {
  const audit = new AuditLogService(deps);
  router.handle(listAuditLogEndpoint, ({ query }) => audit.list(query));
}
