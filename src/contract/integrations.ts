import { z } from "zod";
import { identityTextSchema } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";

/**
 * The Integrations screen's API keys (docs/integration.md): services such as the storefront call
 * the API with a key. A key is shown once when made; the list shows how to tell keys apart.
 */

/** What a key may do. Open for later scopes; today only sending storefront events. */
export const API_KEY_SCOPES = ["events:write"] as const;
export const apiKeyScopeSchema = z.enum(API_KEY_SCOPES);
export type ApiKeyScope = z.infer<typeof apiKeyScopeSchema>;

export const API_KEY_SCOPE_LABELS: Record<ApiKeyScope, string> = {
  "events:write": "Send storefront events (POST /api/events)",
};

export const MAX_API_KEY_NAME_LENGTH = 100;
/** Live (not revoked) keys at once: a handful of services, never a key per request. */
export const MAX_LIVE_API_KEYS = 50;

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  /** "hki_sk_" and the first four characters of the secret. */
  prefix: z.string(),
  /** The last four characters of the key. */
  lastFour: z.string(),
  /** E-mail of the admin who made it. */
  createdBy: z.string(),
  createdAt: z.string(),
  /** When it was last used (moved at most once a minute), or null. */
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const createApiKeyRequestSchema = z.strictObject({
  name: identityTextSchema({ max: MAX_API_KEY_NAME_LENGTH, requiredMessage: "is required" }),
  scopes: z
    .array(apiKeyScopeSchema, { error: `must be a list of scopes (${API_KEY_SCOPES.join(", ")})` })
    .min(1, "choose at least one scope")
    .max(API_KEY_SCOPES.length, "names a scope twice")
    .refine((scopes) => new Set(scopes).size === scopes.length, "names a scope twice"),
});
export type CreateApiKeyRequest = z.infer<typeof createApiKeyRequestSchema>;

export const createdApiKeySchema = z.object({
  apiKey: apiKeySchema,
  /** The key itself: shown this once, never again (only its hash is stored). */
  key: z.string(),
});
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const apiKeysResponseSchema = z.object({
  /** Live keys first, newest first; then revoked keys of the last 30 days, newest revoked first. */
  items: z.array(apiKeySchema),
});
export type ApiKeysResponse = z.infer<typeof apiKeysResponseSchema>;

const apiKeyIdParams = z.object({ id: z.string() });

export const createApiKeyEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/integrations/api-keys",
  area: "integrations",
  access: { roles: ["admin"] },
  stepUp: true,
  summary: "Create an API key for a service; the key is in this answer only",
  body: createApiKeyRequestSchema,
  bodyExample: { name: "Storefront (production)", scopes: ["events:write"] },
  success: { status: 201, description: "The key (shown once) and its list entry", schema: createdApiKeySchema },
  errors: [409],
  invalidates: ["integrations"],
});

export const listApiKeysEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/integrations/api-keys",
  area: "integrations",
  access: "staff",
  summary: "The API keys: name, scopes, prefix and last four, who made them and when, last use",
  success: { status: 200, description: "Live keys, then recently revoked ones", schema: apiKeysResponseSchema },
});

export const revokeApiKeyEndpoint = defineEndpoint({
  method: "delete",
  path: "/api/admin/integrations/api-keys/{id}",
  area: "integrations",
  access: { roles: ["admin"] },
  summary: "Revoke an API key: refused on every server process from now on",
  params: apiKeyIdParams,
  success: { status: 200, description: "The key as revoked", schema: z.object({ apiKey: apiKeySchema }) },
  errors: [404, 409],
  invalidates: ["integrations"],
});
