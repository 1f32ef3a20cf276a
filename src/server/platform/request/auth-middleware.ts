import type { MiddlewareHandler } from "hono";
import type { AppDeps, AppEnv } from "./app-env.ts";
import type { AuthenticatedUser } from "../identity/auth-provider.ts";
import { HttpError, forbidden, unauthorized } from "../http/http-error.ts";
import { requestHeader } from "../http/exchange-headers.ts";
import { isAdminUser, staffPrefixAccess } from "../identity/admin-rule.ts";
import { READ_ONLY_REASON } from "../../../contract/access.ts";
import { TWO_STEP_ENROLMENT_MESSAGE } from "../../../contract/auth.ts";
import { looksLikeApiKey } from "../identity/api-keys.ts";

/** The bearer token of a request. Cookies are never read: auth is by header only (no CSRF surface). */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/** Resolves the bearer token (if any) to a user for every /api request; rejects nothing by itself. */
export function identifyUser(deps: AppDeps): MiddlewareHandler<AppEnv> {
  // A cached session answers the same user object request after request: the admin rule is applied
  // to it once, not per request (a new object per request was garbage for nothing).
  const withRule = new WeakMap<AuthenticatedUser, AuthenticatedUser & { isAdmin: boolean }>();
  return async (c, next) => {
    const token = bearerToken(requestHeader(c, "authorization"));
    // An API key is never a session (it signs no one in): the API-key guard checks it where it is taken.
    if (token && !looksLikeApiKey(token)) {
      const user = await deps.auth.authenticate(token, c.get("dataVersion"));
      if (user) {
        let ruled = withRule.get(user);
        if (!ruled) {
          ruled = { ...user, isAdmin: isAdminUser(user, deps.config.adminEmailDomain) };
          withRule.set(user, ruled);
        }
        c.set("user", ruled);
      }
    }
    await next();
  };
}

// The guards below are plain functions handing over to next(): an async one cost a promise and a
// suspended frame per request for nothing to do afterwards.
export function requireSignedIn(): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    if (!c.get("user")) throw unauthorized();
    return next();
  };
}

/**
 * The guard of the staff-only prefixes: 401 without a valid token; 403 without a panel role; a
 * viewer gets 403 on every method but GET and HEAD. Each endpoint's own roles are checked after
 * routing, from its definition (endpoint-router.ts). The rule is admin-rule.ts's.
 */
export function requireStaff(): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const user = c.get("user");
    if (!user) throw unauthorized();
    // Two-step sign-in is required and this session's user has none yet: enrolment comes first.
    if (user.enrolmentDue) throw new HttpError(403, "two_step_enrolment_required", TWO_STEP_ENROLMENT_MESSAGE);
    const access = staffPrefixAccess(user, c.req.method);
    if (access === "read-only") throw forbidden(READ_ONLY_REASON);
    if (access === "denied") throw forbidden();
    return next();
  };
}

/** Path prefixes every route under which is for staff only (docs/product.md §10.2). */
export const ADMIN_ONLY_PREFIXES = ["/api/admin", "/api/debug", "/api/vendors"] as const;
