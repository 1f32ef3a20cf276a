import type { MiddlewareHandler } from "hono";
import type { AppDeps, AppEnv } from "./app-env.ts";
import { bearerToken } from "./auth-middleware.ts";
import { forbidden, tooManyRequests, unauthorized } from "../http/http-error.ts";
import { requestHeader } from "../http/exchange-headers.ts";
import type { RateLimitRule } from "../http/rate-limiter.ts";
import { findLiveApiKey, looksLikeApiKey, noteApiKeyUse } from "../identity/api-keys.ts";

/**
 * Requests each API key may make per minute, counted in the database so the limit holds across
 * replicas (http/rate-limiter.ts). 1,200 a minute carries 10,000 events a second in full batches.
 */
export const API_KEY_RATE_RULE: RateLimitRule = { limit: 1200, windowMs: 60_000 };

/** Path prefixes answered only to an API key, with the scope each needs (docs/integration.md). */
export const API_KEY_PREFIXES = [{ prefix: "/api/events", scope: "events:write" }] as const;

/**
 * The guard of API-key endpoints, before their body is read: 401 without a live key (a session
 * token is not one), 403 when the key lacks the scope, 429 past the key's rate. The key itself is
 * never logged: access lines carry the path only, and the error log keeps no authorization header.
 */
export function requireApiKey(deps: Pick<AppDeps, "database" | "clock" | "limiter">, scope: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = bearerToken(requestHeader(c, "authorization"));
    if (!token || !looksLikeApiKey(token)) throw unauthorized("An API key is required (Authorization: Bearer hki_sk_…)");
    const key = await findLiveApiKey(deps.database.db, token);
    if (!key) throw unauthorized("Unknown or revoked API key");
    if (!key.scopes.includes(scope)) throw forbidden(`This API key lacks the scope ${scope}`);
    const decision = await deps.limiter.hit(`apikey:${key.id}`, API_KEY_RATE_RULE);
    if (!decision.allowed) throw tooManyRequests(decision.retryAfterSeconds, "Too many requests with this API key, slow down");
    await noteApiKeyUse(deps.database.db, key.id, key.lastUsedAt, deps.clock.now());
    c.set("apiKey", { id: key.id, name: key.name, scopes: key.scopes });
    return next();
  };
}
