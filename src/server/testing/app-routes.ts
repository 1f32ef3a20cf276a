import type { Hono } from "hono";
import type { AppEnv } from "../platform/request/app-env.ts";
import { apiEndpoints } from "../../contract/api.ts";
import { ADMIN_ONLY_PREFIXES } from "../platform/request/auth-middleware.ts";
import { honoPath } from "../platform/request/endpoint-router.ts";

export interface AppRoute {
  method: string;
  /** The path as registered, e.g. "/api/admin/vendors/:id". */
  path: string;
  params: string[];
}

const PARAM = /:(\w+)(\{[^}]*\})?/g;

/**
 * Every concrete route of the app, read from Hono itself so a route added later is covered by the
 * sweeps without editing them. Middleware-only entries (method ALL, wildcards) are skipped.
 */
export function appRoutes(app: Hono<AppEnv>): AppRoute[] {
  const seen = new Set<string>();
  const out: AppRoute[] = [];
  for (const route of app.routes) {
    if (route.method === "ALL" || route.path.includes("*")) continue;
    const key = `${route.method} ${route.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ method: route.method, path: route.path, params: [...route.path.matchAll(PARAM)].map((m) => m[1]!) });
  }
  return out;
}

export function isAdminOnly(path: string): boolean {
  return ADMIN_ONLY_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));
}

/**
 * The route's path with every parameter replaced by `value`, URL-encoded; a lone surrogate (which
 * encodeURIComponent refuses) is sent as the invalid UTF-8 bytes it would be, on purpose.
 */
export function fillPath(path: string, value: string): string {
  const encoded = value
    .split(/(\p{Surrogate})/u)
    .map((part) => (/^\p{Surrogate}$/u.test(part) ? "%ED%A0%80" : encodeURIComponent(part)))
    .join("");
  return path.replace(PARAM, encoded);
}

/** An id of the right shape (UUIDv7) that no row has. */
export const UNKNOWN_ID = "01890000-0000-7000-8000-000000000000";

/** Every endpoint definition by its route as the app lists it ("PATCH /api/vendors/:id/status"). */
const DEFINITIONS_BY_ROUTE = new Map(apiEndpoints.map((d) => [`${d.method.toUpperCase()} ${honoPath(d.path)}`, d]));

/** The definition a route is registered from (undefined for a route registered by hand). */
export function definitionOf(route: AppRoute): (typeof apiEndpoints)[number] | undefined {
  return DEFINITIONS_BY_ROUTE.get(`${route.method} ${route.path}`);
}

/**
 * A well-formed request for a route, from its definition's examples (the ones the API reference
 * shows), so that sweeps get past validation and reach the code behind it (lookups by id, writes).
 */
export function wellFormed(route: AppRoute): { query: string; json?: unknown } {
  const definition = DEFINITIONS_BY_ROUTE.get(`${route.method} ${route.path}`);
  const query = definition?.queryExample ? `?${new URLSearchParams(definition.queryExample).toString()}` : "";
  if (definition?.bodyExample !== undefined) return { query, json: definition.bodyExample };
  return { query, ...(route.method === "GET" ? {} : { json: {} }) };
}
