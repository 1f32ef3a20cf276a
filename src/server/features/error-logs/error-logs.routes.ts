import { archiveAllErrorLogsEndpoint, archiveErrorLogEndpoint, archiveSelectedErrorLogsEndpoint, cleanupArchivedErrorLogsEndpoint, listErrorLogsEndpoint } from "../../../contract/error-logs.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { EndpointRouter } from "../../platform/request/endpoint-router.ts";
import { ErrorLogsService } from "./error-logs.service.ts";

/** The error log's calls (docs/product.md §10.6). */
export function errorLogsRoutes(router: EndpointRouter, deps: AppDeps): void {
  const errorLogs = new ErrorLogsService(deps);
  router.handle(listErrorLogsEndpoint, ({ query }) => errorLogs.list(query));
  router.handle(archiveAllErrorLogsEndpoint, ({ body }, { actor }) => errorLogs.archiveAll(actor, body.level));
  router.handle(archiveSelectedErrorLogsEndpoint, ({ body }, { actor }) => errorLogs.archiveSelected(actor, body.ids));
  router.handle(archiveErrorLogEndpoint, ({ params }, { actor }) => errorLogs.archiveOne(actor, params.id));
  router.handle(cleanupArchivedErrorLogsEndpoint, (_input, { actor }) => errorLogs.cleanupArchived(actor));
}
