import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { API_VERSION, type ApiReferenceAsset } from "../../../contract/api-docs.ts";
import { buildOpenApiDocument } from "./openapi-document.ts";

/** Starts Swagger UI on the page; a file of its own because the CSP allows no inline script. */
const REFERENCE_SCRIPT = `window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({ url: "/api/openapi.json", dom_id: "#reference", deepLinking: true });
});
`;

const REFERENCE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>HKI Global Admin API reference</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/reference.js"></script>
</body>
</html>
`;

/**
 * The OpenAPI document and the human-readable reference (Swagger UI from swagger-ui-dist). Both
 * are built on first request and kept: they change only with the code.
 */
export class DocsService {
  private document: ReturnType<typeof buildOpenApiDocument> | undefined;

  /** `serverUrl`: where the API is served (PUBLIC_URL), named as the document's server. */
  constructor(private readonly serverUrl?: string) {}
  private readonly files = new Map<ApiReferenceAsset, Promise<string>>();

  openApiDocument(): ReturnType<typeof buildOpenApiDocument> {
    this.document ??= buildOpenApiDocument({ version: API_VERSION, ...(this.serverUrl ? { serverUrl: this.serverUrl } : {}) });
    return this.document;
  }

  referencePage(): string {
    return REFERENCE_PAGE;
  }

  referenceAsset(asset: ApiReferenceAsset): Promise<string> {
    let file = this.files.get(asset);
    if (!file) {
      file = asset === "reference.js" ? Promise.resolve(REFERENCE_SCRIPT) : readFile(join(swaggerUiFolder(), asset), "utf8");
      // A failed read is not kept: the next request tries again.
      file.catch(() => this.files.delete(asset));
      this.files.set(asset, file);
    }
    return file;
  }
}

function swaggerUiFolder(): string {
  const require = createRequire(import.meta.url);
  return join(require.resolve("swagger-ui-dist/package.json"), "..");
}
