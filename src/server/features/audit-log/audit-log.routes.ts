import { listAuditLogEndpoint } from "../../../contract/audit-log.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { EndpointRouter } from "../../platform/request/endpoint-router.ts";
import { AuditLogService } from "./audit-log.service.ts";

/** The audit log (docs/product.md §14.4): read by admins and viewers; written only by the actions themselves. */
export function auditLogRoutes(router: EndpointRouter, deps: AppDeps): void {
  const audit = new AuditLogService(deps);
  router.handle(listAuditLogEndpoint, ({ query }) => audit.list(query));
}
