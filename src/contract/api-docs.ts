import { z } from "zod";
import { defineEndpoint } from "./endpoint.ts";

/** The version of the API the document describes. */
export const API_VERSION = "1.0.0";

export const openApiDocumentEndpoint = defineEndpoint({
  method: "get",
  path: "/api/openapi.json",
  area: "api-docs",
  access: "public",
  summary: "This API described as an OpenAPI 3.1 document",
  success: { status: 200, description: "The document", schema: z.record(z.string(), z.unknown()) },
});

export const apiReferencePageEndpoint = defineEndpoint({
  method: "get",
  path: "/api/docs",
  area: "api-docs",
  access: "public",
  summary: "A human-readable reference of this API",
  success: { status: 200, description: "The reference page", mediaTypes: ["text/html"] },
});

/** The files the reference page loads; nothing else is served from here. */
export const API_REFERENCE_ASSETS = ["swagger-ui.css", "swagger-ui-bundle.js", "reference.js"] as const;
export type ApiReferenceAsset = (typeof API_REFERENCE_ASSETS)[number];

export const apiReferenceAssetEndpoint = defineEndpoint({
  method: "get",
  path: "/api/docs/{asset}",
  area: "api-docs",
  access: "public",
  summary: "A file of the reference page",
  params: z.object({ asset: z.string() }),
  success: { status: 200, description: "The file", mediaTypes: ["text/javascript", "text/css"] },
  errors: [404],
});
