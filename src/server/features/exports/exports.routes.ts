import { createExportEndpoint, downloadExportEndpoint } from "../../../contract/exports.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { EndpointRouter } from "../../platform/request/endpoint-router.ts";
import type { ExportKind } from "../../platform/exports/export-kind.ts";
import { ExportsService } from "./exports.service.ts";

/**
 * CSV exports of any list (docs/product.md §10.10). The kinds come from the composition root
 * (export-kinds.ts), the one place that names every area's export.
 */
export const exportsRoutes =
  (kinds: ReadonlyArray<ExportKind<never, never, never>>) =>
  (router: EndpointRouter, deps: AppDeps): void => {
    const exports = new ExportsService(deps, kinds);
    router.handle(createExportEndpoint, ({ body }, { actor }) => exports.createLink(actor, body.kind, body.filters));
    // HEAD answers the headers without spending the single-use link.
    router.handle(downloadExportEndpoint, ({ params }, { method }) => (method === "HEAD" ? exports.peek(params.token) : exports.download(params.token)));
  };
