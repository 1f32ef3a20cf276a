import { createExportEndpoint, downloadExportEndpoint } from "../../contract/exports.ts";
import type { AppDeps } from "../app-env.ts";
import type { EndpointRouter } from "../http/endpoint-router.ts";
import { exportKinds } from "./export-kinds.ts";
import { ExportsService } from "./exports.service.ts";

/** CSV exports of any list (docs/product.md §10.10). */
export function exportsRoutes(router: EndpointRouter, deps: AppDeps): void {
  const exports = new ExportsService(deps, exportKinds);
  router.handle(createExportEndpoint, ({ body }, { user }) => exports.createLink(user, body.kind, body.filters));
  router.handle(downloadExportEndpoint, ({ params }) => exports.download(params.token));
}
