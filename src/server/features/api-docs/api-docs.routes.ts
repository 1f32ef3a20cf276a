import { API_REFERENCE_ASSETS, type ApiReferenceAsset, apiReferenceAssetEndpoint, apiReferencePageEndpoint, openApiDocumentEndpoint } from "../../../contract/api-docs.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { EndpointRouter } from "../../platform/request/endpoint-router.ts";
import { notFound } from "../../platform/http/http-error.ts";
import { DocsService } from "./api-docs.service.ts";

const ASSET_TYPE: Record<ApiReferenceAsset, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "reference.js": "text/javascript; charset=utf-8",
};

/** /api/openapi.json and the reference at /api/docs (docs/product.md §10.1). */
export function apiDocsRoutes(router: EndpointRouter, deps: AppDeps): void {
  const docs = new DocsService(deps.config.publicUrl || undefined);
  router.handle(openApiDocumentEndpoint, () => ({ ...docs.openApiDocument() }));
  router.handle(apiReferencePageEndpoint, () => new Response(docs.referencePage(), { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache" } }));
  router.handle(apiReferenceAssetEndpoint, async ({ params }) => {
    const asset = API_REFERENCE_ASSETS.find((name) => name === params.asset);
    if (!asset) throw notFound(`No reference file named ${params.asset.slice(0, 100)}`);
    const body = await docs.referenceAsset(asset);
    return new Response(body, { headers: { "Content-Type": ASSET_TYPE[asset], "Cache-Control": "public, max-age=3600" } });
  });
}
