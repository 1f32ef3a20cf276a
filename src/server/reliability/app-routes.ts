import type { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { ADMIN_ONLY_PREFIXES } from "../auth/auth-middleware.ts";

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

/**
 * A well-formed request for the routes that need a query or body to get past validation, so that
 * sweeps reach the code behind it (lookups by id, writes). Routes not listed take no input.
 */
export const WELL_FORMED: Record<string, { query?: string; json?: unknown }> = {
  "PATCH /api/vendors/:id/status": { json: { isActive: true } },
  "DELETE /api/vendors/:id": { query: "?action=delete", json: { deleteFromClerk: false } },
  "POST /api/admin/errors/archive-all": { json: {} },
  "PUT /api/admin/settings": { json: { announcement_message: "hello" } },
  "GET /api/admin/settings/history": { query: "?key=announcement_message" },
  "POST /api/auth/sign-in": { json: { email: "nobody@example.com", password: "wrong password" } },
  "POST /api/beta/verify": { json: { password: "wrong password" } },
};

export function wellFormed(route: AppRoute): { query: string; json?: unknown } {
  const known = WELL_FORMED[`${route.method} ${route.path}`];
  return { query: known?.query ?? "", ...(known?.json !== undefined ? { json: known.json } : route.method === "GET" ? {} : { json: {} }) };
}
