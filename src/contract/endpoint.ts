import type { z } from "zod";
import type { ApiArea } from "./areas.ts";
import type { EndpointAccess } from "./access.ts";

export type { EndpointAccess } from "./access.ts";

/**
 * One definition per endpoint: method, path, inputs, answers, who may call it and what a success
 * changes. The server registers its handler from it (src/server/platform/request/endpoint-router.ts), the web
 * derives its call from it (src/web/lib/api-client.ts) and /api/openapi.json is generated from it.
 * This file depends on nothing but zod's types, the list of areas (areas.ts) and the access rule
 * (access.ts), so the web can import definitions freely.
 */

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

export interface EndpointAnswer {
  description: string;
  /** The JSON body; omitted for an answer without a body (204). */
  schema?: z.ZodType;
}

/** Statuses an endpoint may answer besides its success; each has the one error shape. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 418 | 422 | 429 | 500 | 502 | 503 | 507;

export interface EndpointDefinition {
  method: HttpMethod;
  /** Full path with OpenAPI-style parameters, e.g. "/api/admin/vendors/{id}". */
  path: `/api/${string}`;
  area: ApiArea;
  summary: string;
  description?: string;
  /** Who may call (access.ts): a change names the roles allowed, `{ roles: ["admin", "finance"] }`. */
  access: EndpointAccess;
  params?: z.ZodObject<Record<string, z.ZodType<string, string>>>;
  query?: z.ZodType;
  /**
   * The request body (a z.strictObject all the way down). Without one the endpoint takes no body:
   * the server accepts nothing or `{}` and refuses anything else as it refuses a bad body (a key
   * is a 400 naming it, unreadable JSON a 400, another content type a 415), before acting.
   */
  body?: z.ZodType;
  /** A valid request body, shown in the API reference and used by the route sweeps. */
  bodyExample?: unknown;
  /**
   * A body its sender signs (a provider's webhook: Stripe's, Clerk's), instead of `body`: the handler
   * gets the exact text received with the named headers, unparsed, and checks the signature over
   * that text before reading anything (parsed and written again, the text would no longer be what
   * was signed). Only for access "public": the signature is the caller's credential. `schema`
   * documents what a verified body holds; the handler reads it after verifying.
   */
  signedBody?: { headers: readonly string[]; schema: z.ZodType; example: unknown };
  /** A valid query string for sweeps and the reference when the query has required keys. */
  queryExample?: Record<string, string>;
  /** The successful answer: status and body. Absent only where every answer is an error (the test-error call). */
  success?: {
    status: 200 | 201 | 204;
    description: string;
    schema?: z.ZodType;
    /** For answers that are not JSON (the API reference page and its files): their media types. */
    mediaTypes?: readonly ("text/html" | "text/css" | "text/javascript" | "text/csv")[];
    /** Public endpoints only: the Cache-Control of a successful answer (the same for every caller). */
    cacheControl?: string;
  };
  /** Failure statuses the endpoint itself gives (the guard's 401/403 are added from `access`). */
  errors?: readonly ErrorStatus[];
  /**
   * A dangerous action (starting a payout run, refunding, changing a role or removing access,
   * creating API keys or webhook endpoints, changing settings such as fees): the session needs a
   * second-factor check in the last 10 minutes (STEP_UP_WINDOW_MINUTES), else 403
   * `step_up_required`; the web asks for a code in the dialog and sends the call again.
   */
  stepUp?: true;
  /** The scope an API key needs (access "api-key" only), e.g. "events:write". */
  scope?: string;
  /** Areas whose cached answers a success makes stale (mutations only). */
  invalidates?: readonly ApiArea[];
  /**
   * GET only: the server keeps the answer and serves it again while the data stays as it was.
   * `per`: "everyone" when the answer is the same for every caller, "caller" when it is the
   * signed-in user's own. The answer depends on the database's data and on the request's path
   * parameters and query; `unlessQuery` names query keys that, when given, make the answer read
   * afresh every time (a search typed once). How long and on what it is kept is the server's one
   * rule (src/server/platform/db/read-cache.ts).
   */
  cache?: { per: "everyone" | "caller"; unlessQuery?: readonly string[] };
}

/** Checks a definition's shape at compile time and keeps its literal types for callers. */
export function defineEndpoint<const D extends EndpointDefinition>(definition: D): D {
  return definition;
}

type SchemaOutput<S> = S extends z.ZodType ? z.output<S> : undefined;

/** The body of a successful answer (undefined for 204). */
export type EndpointResult<D extends EndpointDefinition> = D["success"] extends { mediaTypes: readonly string[] }
  ? Response
  : D["success"] extends { schema: z.ZodType }
    ? z.output<D["success"]["schema"]>
    : D["success"] extends object
      ? void
      : never;

/** What a caller gives: path parameters, query and body, each only when the endpoint has one. */
export type EndpointInput<D extends EndpointDefinition> = (D["params"] extends z.ZodType ? { params: z.input<D["params"]> } : { params?: undefined }) &
  (D["query"] extends z.ZodType ? { query?: Partial<Record<keyof z.input<D["query"]>, string | number | boolean | undefined>> } : { query?: undefined }) &
  (D["body"] extends z.ZodType ? { body: z.input<D["body"]> } : { body?: undefined });

/** A signed body as the handler gets it: the text as received and the headers the definition names (lower-case), before any check. */
export interface SignedBody {
  text: string;
  headers: Record<string, string | undefined>;
}

/** What a server handler receives: the parsed (validated, defaulted, transformed) inputs. */
export interface ParsedInput<D extends EndpointDefinition> {
  params: SchemaOutput<D["params"]>;
  query: SchemaOutput<D["query"]>;
  body: D["signedBody"] extends object ? SignedBody : SchemaOutput<D["body"]>;
}

const PATH_PARAMETER = /\{(\w+)\}/g;

/** The names of a path's parameters, in order: "/a/{id}/b/{key}" -> ["id", "key"]. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(PATH_PARAMETER)].map((m) => m[1]!);
}

/** The path with each parameter filled in, URL-encoded. */
export function fillPathParameters(path: string, params: Record<string, string> = {}): string {
  return path.replace(PATH_PARAMETER, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(value);
  });
}

/** The query string ("" or "?a=1&b=x") of the given values; undefined values are left out. */
export function queryString(query: Record<string, string | number | boolean | undefined> = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : "";
}

/** The URL a call to `definition` with `input` goes to. */
export function endpointUrl<D extends EndpointDefinition>(definition: D, input: { params?: Record<string, string>; query?: Record<string, string | number | boolean | undefined> }): string {
  return fillPathParameters(definition.path, input.params) + queryString(input.query);
}
