import type { AuthProvider, AuthenticatedUser } from "../identity/auth-provider.ts";
import type { BetaGate } from "../identity/beta-gate.ts";
import type { Clock } from "../clock.ts";
import type { AppConfig } from "../config/config.ts";
import type { Database } from "../db/connect.ts";
import type { ReadCache } from "../db/read-cache.ts";
import type { JobQueue } from "../jobs/job-queue.ts";
import type { ErrorRecorder } from "../error-recorder/error-recorder.ts";
import type { RateLimiter } from "../http/rate-limiter.ts";
import type { SignInThrottle } from "../identity/sign-in-throttle.ts";
import type { Logger } from "../logging/logger.ts";
import type { ApiKeyPrincipal } from "../identity/api-keys.ts";

/** Everything a route needs, injected so tests can swap the clock, database or providers. */
export interface AppDeps {
  config: AppConfig;
  database: Database;
  clock: Clock;
  auth: AuthProvider;
  beta: BetaGate;
  limiter: RateLimiter;
  errors: ErrorRecorder;
  /** Background work: services enqueue and follow jobs here (jobs/job-queue.ts). */
  jobs: JobQueue;
  /** Short-lived answers of the aggregate reads (dashboard, analytics); see db/read-cache.ts. */
  readCache: ReadCache;
  /** Bounds the password checks of sign-in (queue, per-address share, ceiling delay). */
  signInThrottle: SignInThrottle;
  /** JSON logs (pino): the access line of every request. */
  logger: Logger;
  /** Folder of the built web app; omitted in API-only tests. */
  staticRoot?: string;
  /** Payment-provider check for the health page (injected so tests can fake Stripe). */
  fetchImpl?: typeof fetch;
}

export interface AppVariables {
  /** Set by the auth middleware when a valid bearer token came with the request. */
  user?: AuthenticatedUser & { isAdmin: boolean };
  clientIp: string;
  /** This request's id: the client's X-Request-Id when it is sane, otherwise a new one; echoed back. */
  requestId: string;
  /**
   * Database.dataVersion, read at most once per GET/HEAD request, on first use (~3 µs on SQLite, a
   * good share of a cached answer's cost): the session cache and the read cache share it. Other
   * methods read it afresh each time, so a request sees its own writes.
   */
  dataVersion: () => string;
  /** Set by the API-key guard (request/api-key-guard.ts) on the endpoints that take a key. */
  apiKey?: ApiKeyPrincipal;
  /** The endpoint's path pattern, set when a defined endpoint handles the request (metrics, access line). */
  route?: string;
  /** The exception behind a 500, kept for the error log. */
  failure?: unknown;
}

export type AppEnv = { Variables: AppVariables };
