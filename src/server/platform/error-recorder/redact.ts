import type { z } from "zod";
import { apiEndpoints } from "../../../contract/api.ts";
import { REDACTED, isSecretKey, looksLikeToken, redactText, redactUserAgent, redactValue } from "../logging/redact-text.ts";

export { REDACTED, isSecretKey, looksLikeToken, redactText, redactUserAgent, redactValue };

/**
 * The one redactor for everything the server writes down: access lines (request/access-log.ts),
 * event lines (logging/logger.ts), the rows of error_logs (error-recorder.ts: path, query, user
 * agent, headers, context), audit rows (audit/audit-log.ts: details and user agent) and printed
 * lines (docs/product.md §5.3).
 *
 * Requests: a path keeps its query *keys*, but a value only where the endpoint's definition
 * (src/contract) declares the key a plain filter (see `plainQueryKeys`) and the value passes that
 * key's schema; every other value, and every value of a path no definition matches, is replaced.
 * Secret path segments are replaced too: a path parameter with a secret name (the export link's
 * `{token}`) and anything shaped like a token the server hands out (invitation and session tokens,
 * wherever in a path they turn up).
 *
 * Free text and objects: logging/redact-text.ts.
 */

// ---------------------------------------------------------------------------------------------
// Plain filters, from the endpoint definitions

interface ZodDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
}
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: ZodDef } })._zod.def;
/** Wrappers that hold one schema: the inner one decides what the value is. */
const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "readonly", "nonoptional", "catch"]);
/**
 * Values that can only be one of a fixed set or a number: they cannot carry a secret or someone's
 * words. Free text (`search`, an actor's e-mail, an action name), ids and opaque cursors are strings
 * and so are never plain: a search box is user data (people paste e-mails, names and worse into it),
 * and a cursor or id is not needed to read a log line.
 */
const PLAIN_TYPES = new Set(["enum", "literal", "number", "boolean", "bigint"]);

function innermost(schema: z.ZodType): ZodDef {
  let def = defOf(schema);
  for (let i = 0; i < 16; i++) {
    if (WRAPPERS.has(def.type) && def.innerType) def = defOf(def.innerType);
    else if (def.type === "pipe" && def.in) def = defOf(def.in);
    else break;
  }
  return def;
}

/**
 * The query keys a schema declares as plain filters (enum, literal, number or boolean: page, limit,
 * level, days, status, …), each with its own schema so a value is kept only when it passes it.
 */
export function plainQueryKeys(schema: z.ZodType | undefined): ReadonlyMap<string, z.ZodType> {
  const plain = new Map<string, z.ZodType>();
  if (!schema) return plain;
  const object = innermost(schema);
  if (object.type !== "object" || !object.shape) return plain;
  for (const [key, field] of Object.entries(object.shape)) if (PLAIN_TYPES.has(innermost(field).type)) plain.set(key, field);
  return plain;
}

/** Keeps a value only when `key` is plain and the value passes its schema; anything else is replaced. */
function keepPlain(plain: ReadonlyMap<string, z.ZodType>, key: string, value: string): string {
  const schema = plain.get(key);
  return schema && !looksLikeToken(value) && schema.safeParse(value).success ? value : REDACTED;
}

/** Filters as a list or an export takes them (query-string values), with only the plain values kept (audit details). */
export function redactFilters(schema: z.ZodType | undefined, filters: Record<string, string>): Record<string, string> {
  const plain = plainQueryKeys(schema);
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(filters)) out[looksLikeToken(key) ? REDACTED : key] = keepPlain(plain, key, value);
  return out;
}

interface RouteRule {
  pattern: RegExp;
  /** Indexes (into the path's segments) of parameters whose values are secret. */
  secretSegments: number[];
  plain: ReadonlyMap<string, z.ZodType>;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, "\\$&");

function ruleOf(path: string, query: z.ZodType | undefined): RouteRule {
  const segments = path.split("/");
  const secretSegments = segments.flatMap((segment, i) => (/^\{\w+\}$/.test(segment) && isSecretKey(segment.slice(1, -1)) ? [i] : []));
  const pattern = new RegExp(`^${segments.map((s) => (/^\{\w+\}$/.test(s) ? "[^/]+" : escapeRegExp(s))).join("/")}$`);
  return { pattern, secretSegments, plain: plainQueryKeys(query) };
}

/** Every defined endpoint, by method (HEAD is answered by GET's handler) and by "METHOD /path/{pattern}". */
const rulesByMethod = new Map<string, RouteRule[]>();
const rulesByRoute = new Map<string, RouteRule>();
for (const definition of apiEndpoints) {
  const method = definition.method.toUpperCase();
  const rule = ruleOf(definition.path, definition.query);
  rulesByRoute.set(`${method} ${definition.path}`, rule);
  rulesByMethod.set(method, [...(rulesByMethod.get(method) ?? []), rule]);
}

function findRule(method: string, pathname: string, route?: string): RouteRule | undefined {
  const m = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase();
  if (route) {
    const byRoute = rulesByRoute.get(`${m} ${route}`);
    if (byRoute) return byRoute;
  }
  return rulesByMethod.get(m)?.find((rule) => rule.pattern.test(pathname));
}

function redactPathname(pathname: string, rule: RouteRule | undefined): string {
  return pathname
    .split("/")
    .map((segment, i) => (rule?.secretSegments.includes(i) || looksLikeToken(segment) ? REDACTED : segment))
    .join("/");
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

function redactSearch(search: string, rule: RouteRule | undefined): string {
  const plain = rule?.plain ?? new Map<string, z.ZodType>();
  return search
    .split("&")
    .map((part) => {
      if (part === "") return part;
      const eq = part.indexOf("=");
      const rawKey = eq < 0 ? part : part.slice(0, eq);
      const key = looksLikeToken(rawKey) ? REDACTED : rawKey;
      if (eq < 0) return key;
      const rawValue = part.slice(eq + 1);
      return keepPlain(plain, decode(rawKey), decode(rawValue)) === REDACTED ? `${key}=${REDACTED}` : `${key}=${rawValue}`;
    })
    .join("&");
}

/**
 * A request's path and query string as it may be written down: "/api/exports/<token>?x=1" ->
 * "/api/exports/[redacted]?x=[redacted]"; "/api/admin/errors?level=error&cursor=abc" keeps
 * `level=error` and replaces the cursor. `route` (the definition's path, when one answered) saves
 * the lookup.
 */
export function redactRequestTarget(method: string, target: string, route?: string): string {
  const q = target.indexOf("?");
  const pathname = q < 0 ? target : target.slice(0, q);
  const rule = findRule(method, pathname, route);
  const path = redactPathname(pathname, rule);
  return q < 0 ? path : `${path}?${redactSearch(target.slice(q + 1), rule)}`;
}

/** A request's query as an object (error-log context), redacted by the same rule as the path. */
export function redactQuery(method: string, pathname: string, query: Record<string, string>): Record<string, string> {
  const plain = findRule(method, pathname)?.plain ?? new Map<string, z.ZodType>();
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(query).slice(0, 100)) out[looksLikeToken(key) ? REDACTED : key.slice(0, 200)] = keepPlain(plain, key, value);
  return out;
}

/**
 * Request headers whose values say nothing about anyone's credentials; every other header (the
 * authorization and cookie headers, the beta gate's, proxies' and any custom one) keeps its name only.
 */
const PLAIN_HEADERS = new Set(["accept", "accept-encoding", "accept-language", "cache-control", "connection", "content-length", "content-type", "host", "origin", "pragma", "x-request-id"]);

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers).slice(0, 100)) {
    const key = name.toLowerCase().slice(0, 200);
    if (key === "user-agent") out[key] = redactUserAgent(value);
    else if (key === "referer") out[key] = redactUrl(value);
    else out[key] = PLAIN_HEADERS.has(key) ? redactText(value).slice(0, 500) : REDACTED;
  }
  return out;
}

/** A full URL (a Referer, say): its path and query redacted as a request to this server would be. */
function redactUrl(value: string): string {
  try {
    const url = new URL(value);
    return `${url.origin}${redactRequestTarget("GET", url.pathname + url.search)}`.slice(0, 500);
  } catch {
    return REDACTED;
  }
}

const isStringRecord = (value: unknown): value is Record<string, string> =>
  value !== null && typeof value === "object" && !Array.isArray(value) && Object.values(value).every((v) => typeof v === "string");

/**
 * An error-log entry's context: its `query` and `headers` by the request rules above (keys kept,
 * only plain values), everything else by key name and free-text scrubbing (`redactValue`).
 */
export function redactContext(method: string, target: string, context: Record<string, unknown>): unknown {
  const { query, headers, ...rest } = context;
  const pathname = target.split("?")[0] ?? "";
  const out = redactValue(rest) as Record<string, unknown>;
  if (query !== undefined) out.query = isStringRecord(query) ? redactQuery(method, pathname, query) : REDACTED;
  if (headers !== undefined) out.headers = isStringRecord(headers) ? redactHeaders(headers) : REDACTED;
  return out;
}
