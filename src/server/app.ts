import { getConnInfo } from "@hono/node-server/conninfo";
import { Hono, type Context, type ErrorHandler, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ApiError } from "../contract/common.ts";
import type { AppDeps, AppEnv } from "./platform/request/app-env.ts";
import { ADMIN_ONLY_PREFIXES, identifyUser, requireStaff } from "./platform/request/auth-middleware.ts";
import { stepUpGuard } from "./platform/identity/step-up.ts";
import { API_KEY_PREFIXES, requireApiKey } from "./platform/request/api-key-guard.ts";
import { levelForStatus } from "./platform/error-recorder/error-recorder.ts";
import { redactRequestTarget } from "./platform/error-recorder/redact.ts";
import { clientAbortOf } from "./platform/http/client-abort.ts";
import { classifyDatabaseFailure } from "./platform/http/database-errors.ts";
import { EndpointRouter } from "./platform/request/endpoint-router.ts";
import { HttpError } from "./platform/http/http-error.ts";
import type { UnofficialStatusCode } from "hono/utils/http-status";
import { LedgerError } from "./domain/ledger/ledger-error.ts";
import { randomUUID } from "node:crypto";
import { secureServerResponse, securityHeaders, storefrontOrigin } from "./platform/http/security-headers.ts";
import { type TrustProxy, addressKey, resolveClientAddress } from "./platform/http/client-address.ts";
import { logAccess } from "./platform/request/access-log.ts";
import { logEvent } from "./platform/logging/logger.ts";
import { OTHER_ROUTE, httpRequestDuration, metricsText, metricsTokenMatches } from "./platform/metrics/metrics.ts";
import { serveWebApp } from "./platform/http/static-files.ts";
import { areaRoutes } from "./routes.ts";
import { issuerFromPublishableKey } from "./platform/config/config.ts";
import { noteRequest } from "./platform/traffic.ts";
import { MatchCacheRouter } from "./platform/http/match-cache-router.ts";
import { nodeResponse, presetAnswerHeader, requestHeader, requestHeaders } from "./platform/http/exchange-headers.ts";

export const MAX_BODY_BYTES = 1024 * 1024;

function errorBody(code: string, message: string, fields?: Record<string, string>): ApiError {
  return { error: fields ? { code, message, fields } : { code, message } };
}

/** Domain errors of the ledger, by code, as HTTP statuses. */
const LEDGER_ERROR_STATUS = { not_found: 404, invalid_input: 400, invalid_state: 409 } as const;

/** A request id a client (or proxy) may choose: short and plain, so it is safe in logs. */
const REQUEST_ID = /^[\w.:-]{1,64}$/;

/** Methods that carry no body and change nothing. */
const readsOnly = (method: string) => method === "GET" || method === "HEAD";
/** Every other method the API knows (a request with any other method is answered 404 unread). */
const METHODS_WITH_BODIES = ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/**
 * The client's address: the socket's, or behind trusted proxies (TRUST_PROXY) the one they
 * report in X-Forwarded-For (http/client-address.ts). Off by default: forged headers are ignored.
 */
function clientIp(c: Context, trust: TrustProxy): string {
  let socket: string;
  try {
    socket = getConnInfo(c).remote.address ?? "unknown";
  } catch {
    // Requests made in-process (tests) have no socket.
    socket = "local";
  }
  return resolveClientAddress(socket, requestHeader(c, "x-forwarded-for"), trust);
}

/** Answers under /api that need a token, or that change something (sign-in), are never cached. */
function mustNotBeCached(c: Context): boolean {
  return requestHeader(c, "authorization") !== undefined || !readsOnly(c.req.method) || ADMIN_ONLY_PREFIXES.some((p) => c.req.path === p || c.req.path.startsWith(`${p}/`));
}

/** Under Clerk the browser calls the Frontend API whose host the publishable key encodes (config.ts). */
function clerkOrigin(config: AppDeps["config"]): string | undefined {
  return config.authProvider === "clerk" ? issuerFromPublishableKey(config.clerkPublishableKey) : undefined;
}

/** The outside origins the policy lets the browser reach: Clerk's Frontend API, and the storefront's images (security-headers.ts). */
function headerOptions(config: AppDeps["config"]) {
  return { clerkFrontendApiOrigin: clerkOrigin(config), storefrontImageOrigin: storefrontOrigin(config.storefrontUrl) };
}

/** The node:http response class the server runs with: it writes the security headers (security-headers.ts). */
export function serverResponseClass(config: AppDeps["config"]): ReturnType<typeof secureServerResponse> {
  return secureServerResponse(headerOptions(config));
}

/** Builds the whole HTTP app from injected dependencies: no globals, so tests get a fresh one each. */
export function createApp(deps: AppDeps, options: { extraRoutes?: Array<Hono<AppEnv>> } = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ router: new MatchCacheRouter() });
  app.use("*", securityHeaders(headerOptions(deps.config)));
  app.use("*", observeRequests(deps));
  guardApi(app, deps);

  const router = new EndpointRouter(app, deps.readCache, stepUpGuard(deps));
  for (const register of areaRoutes) register(router, deps);
  // Test-only routes (e.g. one that throws) mount behind the same middleware as the real ones.
  for (const routes of options.extraRoutes ?? []) app.route("/api", routes);

  app.all("/api/*", (c) => c.json(errorBody("not_found", `No API route for ${c.req.method} ${c.req.path}`), 404));
  serveMetrics(app, deps.config.metricsToken);
  if (deps.staticRoot) app.use("*", serveWebApp(deps.staticRoot));

  app.notFound((c) => c.json(errorBody("not_found", "Not found"), 404));

  app.onError(answerFailure(deps));
  return app;
}

// One middleware observes every request: its id and timing, its access line, its metrics, and an
// error-log row for an answer that calls for one (one async step per request, not two).
function observeRequests(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    noteRequest(readsOnly(c.req.method));
    c.set("clientIp", clientIp(c, deps.config.trustProxy));
    const incomingId = requestHeader(c, "x-request-id");
    // A random UUID: Node draws its randomness in batches, so this costs ~0.1 µs (a UUIDv7 cost ~1 µs;
    // request ids need no time order).
    const requestId = incomingId && REQUEST_ID.test(incomingId) ? incomingId : randomUUID();
    c.set("requestId", requestId);

    // Reads (GET, HEAD) share one version for the whole request, read on first use, before the
    // reads it guards, and other processes' commits are looked up once per turn of the event loop
    // (Database.sharedDataVersion). A request that writes must see its own writes: it asks the
    // database each time.
    let version: string | undefined;
    c.set("dataVersion", readsOnly(c.req.method) ? () => (version ??= deps.database.sharedDataVersion()) : deps.database.dataVersion);
    // Served by node:http, these go on node's response up front and are written with whatever answer
    // comes (an answer's own Cache-Control wins); in-process they are set on the answer afterwards.
    const node = nodeResponse(c);
    const noStore = c.req.path.startsWith("/api/") && mustNotBeCached(c);
    if (node) {
      presetAnswerHeader(node, "X-Request-Id", requestId);
      if (noStore) presetAnswerHeader(node, "Cache-Control", "no-store");
    }
    await next();
    if (!node) {
      c.res.headers.set("X-Request-Id", requestId);
      if (noStore && !c.res.headers.has("Cache-Control")) c.res.headers.set("Cache-Control", "no-store");
    }
    const durationMs = performance.now() - started;
    const route = c.get("route") ?? OTHER_ROUTE;
    httpRequestDuration.observe(c.req.method, route, c.res.status, durationMs / 1000);
    logAccess(deps.logger, {
      method: c.req.method,
      path: c.req.path + (c.req.url.includes("?") ? c.req.url.slice(c.req.url.indexOf("?")) : ""),
      status: c.res.status,
      durationMs,
      userId: c.get("user")?.id ?? null,
      requestId,
      clientIp: c.get("clientIp"),
      ...(c.get("route") ? { route } : {}),
    });
    const level = levelForStatus(c.res.status);
    if (level) await recordError(deps, c, level);
  };
}

/** Writes a 5xx, 403 or 429 answer to error_logs (levels: see error-recorder.ts). */
async function recordError(deps: AppDeps, c: Context<AppEnv>, level: NonNullable<ReturnType<typeof levelForStatus>>): Promise<void> {
  const failure = c.get("failure");
  const url = new URL(c.req.url);
  const recording = deps.errors.record({
    level,
    message: failure instanceof Error ? failure.message : await responseMessage(c.res),
    endpoint: url.pathname + url.search,
    method: c.req.method,
    statusCode: c.res.status,
    userEmail: c.get("user")?.email ?? null,
    ipAddress: c.get("clientIp"),
    userAgent: requestHeader(c, "user-agent") ?? null,
    stackTrace: failure instanceof Error ? (failure.stack ?? null) : null,
    // Written down by the one redactor (error-recorder/redact.ts): query keys with only their plain
    // values, header names with only harmless values, the user agent scrubbed.
    context: { query: Object.fromEntries(url.searchParams), contentType: requestHeader(c, "content-type") ?? null, headers: requestHeaders(c) },
    requestId: c.get("requestId"),
    // Budgets are per source (error-recorder.ts): the signed-in user, else the client's address.
    source: c.get("user") ? `user:${c.get("user")!.id}` : `ip:${addressKey(c.get("clientIp"))}`,
  });
  // When the database itself is locked or gone, writing the log entry would wait out the same
  // lock (up to 5 s more) before the client hears its 503: record it in the background instead.
  if (!classifyDatabaseFailure(failure)) await recording;
}

/** The body limit, who the caller is, and the guards of the admin-only and API-key prefixes. */
function guardApi(app: Hono<AppEnv>, deps: AppDeps): void {
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new HttpError(413, "payload_too_large", `Request body must be at most ${MAX_BODY_BYTES} bytes`);
    },
  });
  // Only requests that may carry a body are limited: on GET/HEAD the middleware would still build
  // a full Request per call, which piled up under steady load (RSS +107 % in a 10-minute soak;
  // honojs/node-server#269). Their bodies are never read anyway, and they skip this step entirely.
  app.on(METHODS_WITH_BODIES, "/api/*", limitBody);
  app.use("/api/*", identifyUser(deps));
  for (const prefix of ADMIN_ONLY_PREFIXES) {
    app.use(prefix, requireStaff());
    app.use(`${prefix}/*`, requireStaff());
  }
  for (const { prefix, scope } of API_KEY_PREFIXES) {
    const guard = requireApiKey(deps, scope);
    app.use(prefix, guard);
    app.use(`${prefix}/*`, guard);
  }
}

function serveMetrics(app: Hono<AppEnv>, metricsToken: string | undefined): void {
  // Prometheus metrics on the main port only behind METRICS_TOKEN (else see METRICS_PORT, serve.ts);
  // outside /api, so not part of the API or its document.
  if (metricsToken) {
    app.get("/metrics", async (c) => {
      if (!metricsTokenMatches(requestHeader(c, "authorization"), metricsToken)) return c.json(errorBody("unauthorized", "Authentication required"), 401);
      const { body, contentType } = await metricsText();
      return c.body(body, 200, { "Content-Type": contentType, "Cache-Control": "no-store" });
    });
  }
}

/** The one error shape for every failure: the client's aborts, HttpError, LedgerError, the database, and anything else as a logged 500. */
function answerFailure(deps: AppDeps): ErrorHandler<AppEnv> {
  return (err, c) => {
    // The client reset its connection mid-body, or its body outlasted the request timeout, whoever
    // was reading it (the body limit reads a chunked body itself): nobody is left to answer and
    // nothing failed here. No error-log row (levelForStatus(499/408) is none), nothing printed, and
    // only a debug access line (logger.ts).
    const abort = clientAbortOf(c, err);
    if (abort) return c.body(null, abort.status as UnofficialStatusCode);
    if (err instanceof HttpError) {
      return c.json(errorBody(err.code, err.message, err.fields), err.status, err.headers);
    }
    if (err instanceof LedgerError) {
      return c.json(errorBody(err.code, err.message), LEDGER_ERROR_STATUS[err.code]);
    }
    const dbFailure = classifyDatabaseFailure(err);
    if (dbFailure) c.set("failure", err);
    // One JSON line per failure, with the request's id (its access line and error-log row carry the
    // same), through the redactor like every line (an exception may quote a secret).
    const failed = () => ({ requestId: c.get("requestId"), method: c.req.method, path: redactRequestTarget(c.req.method, c.req.path, c.get("route")) });
    if (dbFailure === "disk_full") {
      logEvent(deps.logger, "error", "database write failed: disk full", { ...failed(), err: err.message });
      return c.json(errorBody("insufficient_storage", "The database disk is full"), 507, { "Retry-After": "30" });
    }
    if (dbFailure) {
      logEvent(deps.logger, "error", `database ${dbFailure}`, { ...failed(), err: err.message });
      return c.json(errorBody("unavailable", "The database is temporarily unavailable, try again shortly"), 503, { "Retry-After": "2" });
    }
    c.set("failure", err);
    logEvent(deps.logger, "error", "unhandled exception", { ...failed(), err });
    return c.json(errorBody("internal_error", "Internal server error"), 500);
  };
}

async function responseMessage(res: Response): Promise<string> {
  try {
    const body = (await res.clone().json()) as Partial<ApiError>;
    return body.error?.message ?? `HTTP ${res.status}`;
  } catch {
    return `HTTP ${res.status}`;
  }
}
