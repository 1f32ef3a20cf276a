import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { apiEndpointsByName } from "../../../contract/api.ts";
import { apiErrorSchema } from "../../../contract/common.ts";
import { MAX_EVENTS_PER_BATCH, STOREFRONT_EVENT_DATA, STOREFRONT_EVENT_TYPES, ingestEventsEndpoint, ingestEventsRequestSchema } from "../../../contract/integrations-events.ts";
import type { EndpointDefinition, ErrorStatus } from "../../../contract/endpoint.ts";
import { allowedRoles, isStaffAccess } from "../../../contract/access.ts";

const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: "Invalid input: `error.fields` names each input at fault",
  401: "No valid bearer token (or wrong credentials)",
  403: "Signed in, but the role may not call this (or, for a dangerous action, no second-factor check in the last 10 minutes)",
  404: "Nothing with that id",
  409: "Conflicts with the current state",
  410: "Gone: used or expired",
  413: "Request body over 1 MB",
  415: "The body is not application/json",
  418: "The deliberate test error",
  422: "Understood but cannot be done",
  429: "Too many attempts: see Retry-After",
  500: "Server failure (recorded in the error log)",
  502: "An outside service failed",
  503: "The database is busy or unavailable: see Retry-After",
  507: "The database disk is full",
};

/** The error shape, as one named component every failure answer refers to. */
const errorSchemaComponent = apiErrorSchema.meta({ id: "ApiError" });

/** The panel roles that may call a staff endpoint, as the reference shows them (docs/product.md "Roles"). */
function whoMayCall(definition: EndpointDefinition): string | undefined {
  if (!isStaffAccess(definition.access)) return undefined;
  return `Roles: ${allowedRoles(definition.access).join(", ")}.`;
}

function describedWithRoles(definition: EndpointDefinition): { description?: string } {
  const stepUp = definition.stepUp ? "A dangerous action: needs a second-factor check in the session's last 10 minutes (POST /api/auth/step-up), else 403 `step_up_required`." : undefined;
  const parts = [definition.description, whoMayCall(definition), stepUp].filter((part) => part !== undefined);
  return parts.length > 0 ? { description: parts.join("\n\n") } : {};
}

/** The failure statuses of an endpoint: its own plus what the guard and the input rules give. */
function errorStatuses(definition: EndpointDefinition): ErrorStatus[] {
  // Any endpoint can fail unexpectedly; such failures are recorded in the error log.
  const statuses = new Set<ErrorStatus>([...(definition.errors ?? []), 500]);
  if (definition.access !== "public") statuses.add(401);
  if (isStaffAccess(definition.access) || definition.access === "api-key") statuses.add(403);
  if (definition.access === "api-key") statuses.add(429);
  // A write without a body refuses one by the same rules (src/contract/endpoint.ts), so it can answer these too.
  if (definition.body || definition.method !== "get") {
    statuses.add(400);
    statuses.add(413);
    statuses.add(415);
  }
  if (definition.query || definition.params) statuses.add(400);
  // A path parameter names something, and that something may not exist.
  if (definition.params) statuses.add(404);
  return [...statuses].sort((a, b) => a - b);
}

function toRouteConfig(definition: EndpointDefinition, name: string): RouteConfig {
  const responses: RouteConfig["responses"] = {};
  const { success } = definition;
  if (success) {
    responses[success.status] = success.mediaTypes
      ? { description: success.description, content: Object.fromEntries(success.mediaTypes.map((type) => [type, { schema: { type: "string" } }])) }
      : success.schema
        ? { description: success.description, content: { "application/json": { schema: success.schema } } }
        : { description: success.description };
  }
  for (const status of errorStatuses(definition)) {
    responses[status] = { description: ERROR_DESCRIPTIONS[status], content: { "application/json": { schema: errorSchemaComponent } } };
  }
  const signed = definition.signedBody;
  const documentedBody = definition === ingestEventsEndpoint ? storefrontEventsBody : definition.body;
  const bodySchema = signed
    ? signed.schema.meta({ example: signed.example })
    : documentedBody && definition.bodyExample !== undefined
      ? documentedBody.meta({ example: definition.bodyExample })
      : documentedBody;
  return {
    method: definition.method,
    path: definition.path,
    // Stable across releases: generated clients name their functions after it.
    operationId: name.replace(/Endpoint$/, ""),
    summary: definition.summary,
    ...describedWithRoles(definition),
    tags: [definition.area],
    // A public operation says so (an empty list), rather than inheriting a scheme.
    security: definition.access === "public" ? [] : definition.access === "api-key" ? [{ apiKeyAuth: [] }] : [{ bearerAuth: [] }],
    request: {
      ...(definition.params ? { params: definition.params } : {}),
      // A signed body's signature headers (the signer's credential), each required.
      ...(signed ? { headers: z.object(Object.fromEntries(signed.headers.map((name) => [name, z.string()]))) } : {}),
      // Object schemas become one parameter per key; refinements (cross-field rules) stay on the server.
      ...(definition.query ? { query: queryObject(definition.query) } : {}),
      ...(bodySchema ? { body: { required: true, content: { "application/json": { schema: bodySchema } } } } : {}),
    },
    responses,
  };
}

/** The component name of an event type's data, e.g. StorefrontEvent_artist_created. */
const eventDataComponent = (type: string) => `StorefrontEvent_${type.replace(".", "_")}`;

/**
 * POST /api/events's body as a sender writes it: each event's `type` with that type's `data`. The
 * server reads the envelope loosely (type, occurredAt and data as anything, in
 * src/contract/integrations-events.ts) so that one bad event is answered `rejected` while the rest
 * of the batch applies; a generated client is better typed by the events that apply, each type's
 * data a named component.
 */
const envelope = ingestEventsRequestSchema.shape.events.element.shape;
const storefrontEventsBody = z.strictObject({
  events: z
    .array(
      z
        .union(
          STOREFRONT_EVENT_TYPES.map((type) =>
            z.strictObject({
              id: envelope.id,
              type: z.literal(type),
              occurredAt: z
                .string()
                .meta({ format: "date-time" })
                .describe(envelope.occurredAt.description ?? ""),
              data: STOREFRONT_EVENT_DATA[type].meta({ id: eventDataComponent(type) }),
            }),
          ),
        )
        .meta({ id: "StorefrontEvent" }),
    )
    .min(1)
    .max(MAX_EVENTS_PER_BATCH),
});

/** The object under a query schema's refinements, for listing its parameters. */
function queryObject(schema: z.ZodType): z.ZodObject {
  let current: unknown = schema;
  // zod 4 keeps a refined object as the same ZodObject type; a pipe (transform) exposes its input.
  while (current && !(current instanceof z.ZodObject)) {
    current = current instanceof z.ZodPipe ? current.in : undefined;
  }
  if (!current) throw new Error("A query schema must be an object (with optional refinements)");
  return current as z.ZodObject;
}

/** The OpenAPI 3.1 document of every endpoint in src/contract/api.ts. */
export function buildOpenApiDocument(options: { version: string; serverUrl?: string }) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "A session token from POST /api/auth/sign-in (or a Clerk session token under AUTH_PROVIDER=clerk)",
  });
  registry.registerComponent("securitySchemes", "apiKeyAuth", {
    type: "http",
    scheme: "bearer",
    description: "An API key (hki_sk_…) made by an admin on the Integrations screen, holding the operation's scope (docs/integration.md)",
  });
  // POST /api/events's body names StorefrontEvent and each type's data (StorefrontEvent_artist_created, …) as components.
  for (const [name, definition] of Object.entries(apiEndpointsByName)) registry.registerPath(toRouteConfig(definition, name));
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "HKI Global Admin API",
      version: options.version,
      description: 'The administration API of the HKI artist marketplace. Every failure answers `{ "error": { "code", "message", "fields"? } }`.',
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
  });
}
