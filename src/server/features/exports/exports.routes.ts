import { createExportEndpoint, downloadExportEndpoint } from "../../../contract/exports.ts";
import type { AppDeps } from "../../platform/app-env.ts";
import type { EndpointRouter } from "../../platform/http/endpoint-router.ts";
import { exportKinds } from "../../export-kinds.ts";
import { ExportsService } from "./exports.service.ts";

/** CSV exports of any list (docs/product.md §10.10). */
export function exportsRoutes(router: EndpointRouter, deps: AppDeps): void {
  const exports = new ExportsService(deps, exportKinds);
  router.handle(createExportEndpoint, ({ body }, { actor }) => exports.createLink(actor, body.kind, body.filters));
  // HEAD answers the headers without spending the single-use link.
  router.handle(downloadExportEndpoint, ({ params }, { method }) => (method === "HEAD" ? exports.peek(params.token) : exports.download(params.token)));
}
