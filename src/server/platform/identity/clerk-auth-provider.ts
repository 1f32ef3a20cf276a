import { type FlattenedJWSInput, type JWSHeaderParameters, type JWTPayload, createLocalJWKSet, createRemoteJWKSet, customFetch, errors, jwtVerify } from "jose";
import type { Clock } from "../clock.ts";
import { HttpError } from "../http/http-error.ts";
import type { Executor } from "../db/executor.ts";
import type { AuthProvider, AuthenticatedUser } from "./auth-provider.ts";
import { logEvent, processLog } from "../logging/logger.ts";
import { STAFF_ROLES, type StaffRole } from "../../../contract/access.ts";

/**
 * Clerk behind the same interface as the built-in provider. Clerk signs users in on its own pages
 * and hands the browser a short-lived RS256 session JWT. We verify it with `jose` against the
 * instance's JWKS — fetched at most once per cooldown whatever the traffic, concurrent fetches
 * shared — and check `iss` (the instance), `azp` (CLERK_AUTHORIZED_PARTIES), `exp`/`nbf`/`iat`
 * with a small skew; then read the user (verified primary e-mail, public-metadata role) from
 * Clerk's Backend API, cached briefly. Sign-out revokes the Clerk session; deleteUser deletes the
 * Clerk user. Docs: https://clerk.com/docs/backend-requests/manual-jwt and the Backend API.
 *
 * When Clerk cannot be reached or refuses us (429, 5xx, timeout), requests answer 503, never 500;
 * tokens signed by keys we already hold keep working, and users we already know are served from
 * the last answer. After a failure Clerk is not asked again for `failureBackoffMs`.
 */
export interface ClerkOptions {
  secretKey: string;
  apiUrl: string;
  /** The instance's issuer, e.g. https://clerk.example.com (`iss` must equal it). */
  issuer: string;
  /** Origins allowed in `azp`. */
  authorizedParties: readonly string[];
  clock: Clock;
  fetchImpl?: typeof fetch;
  /** Least time between two JWKS fetches caused by unknown key ids (jose's cooldown). */
  jwksCooldownMs?: number;
  /** Age after which the JWKS is fetched again on the next request. */
  jwksMaxAgeMs?: number;
  /** After Clerk failed, how long it is left alone (cached keys and users are used meanwhile). */
  failureBackoffMs?: number;
}

const USER_TTL_MS = 60_000;
/** Clock skew tolerated on exp, nbf and iat. */
const LEEWAY_SECONDS = 5;
const REQUEST_TIMEOUT_MS = 5000;
const UNAVAILABLE_MESSAGE = "The sign-in provider is temporarily unavailable, try again shortly";

interface ClerkEmail {
  id: string;
  email_address: string;
  verification?: { status?: string } | null;
}

interface ClerkUser {
  id: string;
  primary_email_address_id: string | null;
  email_addresses: ClerkEmail[];
  public_metadata?: { role?: unknown };
  first_name?: string | null;
  last_name?: string | null;
}

/** The panel role a Clerk user's public metadata names (src/contract/access.ts), or "user" for anything else. */
function panelRoleOf(role: unknown): StaffRole | "user" {
  return STAFF_ROLES.includes(role as StaffRole) ? (role as StaffRole) : "user";
}

export interface SessionClaims extends JWTPayload {
  sub: string;
  sid?: string;
  exp: number;
  azp?: string;
}

/** Errors that say the token is bad (answer 401), as opposed to Clerk being unreachable. */
const TOKEN_FAULTS = [errors.JWKSNoMatchingKey, errors.JWKSMultipleMatchingKeys, errors.JOSENotSupported, errors.JOSEAlgNotAllowed];

export class ClerkUnavailableError extends HttpError {
  constructor(readonly reason: string) {
    super(503, "unavailable", UNAVAILABLE_MESSAGE, { "Retry-After": "5" });
  }
}

type KeyResolver = (header: JWSHeaderParameters, token: FlattenedJWSInput) => Promise<CryptoKey>;

export class ClerkAuthProvider implements AuthProvider {
  readonly displayName = "Clerk";
  private readonly remoteKeys: ReturnType<typeof createRemoteJWKSet>;
  private lastKeys: { source: object; resolve: ReturnType<typeof createLocalJWKSet> } | null = null;
  private readonly users = new Map<string, { user: AuthenticatedUser; fetchedAt: number }>();
  private readonly fetchImpl: typeof fetch;
  private readonly failureBackoffMs: number;
  /** When Clerk last failed us (ms, real time); null while it answers. */
  private failedAt: number | null = null;
  /** JWKS requests sent (tests and the health page read it). */
  jwksFetches = 0;

  constructor(private readonly options: ClerkOptions) {
    this.fetchImpl = options.fetchImpl ?? fetch;
    this.failureBackoffMs = options.failureBackoffMs ?? 30_000;
    const countingFetch = ((input: string | URL | Request, init?: RequestInit) => {
      this.jwksFetches += 1;
      return this.fetchImpl(input, init);
    }) as typeof fetch;
    this.remoteKeys = createRemoteJWKSet(new URL(`${options.apiUrl}/v1/jwks`), {
      headers: { authorization: `Bearer ${options.secretKey}` },
      timeoutDuration: REQUEST_TIMEOUT_MS,
      cooldownDuration: options.jwksCooldownMs ?? 30_000,
      cacheMaxAge: options.jwksMaxAgeMs ?? 10 * 60_000,
      [customFetch]: countingFetch,
    });
  }

  async authenticate(token: string): Promise<AuthenticatedUser | null> {
    const claims = await this.verifySessionToken(token);
    if (!claims) return null;
    return this.loadUser(claims.sub);
  }

  findUser(userId: string): Promise<AuthenticatedUser | null> {
    return this.loadUser(userId);
  }

  async signOut(token: string): Promise<void> {
    const claims = await this.verifySessionToken(token);
    if (!claims?.sid) return;
    // A session Clerk no longer has (ended from the browser, or by Clerk) is already signed out.
    await this.call("POST", `/v1/sessions/${encodeURIComponent(claims.sid)}/revoke`, [404]);
    this.users.delete(claims.sub);
  }

  async deleteUser(userId: string, _executor: Executor): Promise<void> {
    // Already gone at Clerk is what we wanted; anything else throws and rolls the caller back.
    await this.call("DELETE", `/v1/users/${encodeURIComponent(userId)}`, [404]);
    this.users.delete(userId);
  }

  /**
   * The claims of a valid session token of this instance; null for any token that is not one.
   * Throws ClerkUnavailableError (503) only when Clerk is needed and cannot be reached.
   */
  async verifySessionToken(token: string): Promise<SessionClaims | null> {
    if (token.split(".").length !== 3) return null;
    const now = this.options.clock.now();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.resolveKey, {
        algorithms: ["RS256"],
        issuer: this.options.issuer,
        requiredClaims: ["sub", "exp", "iat"],
        clockTolerance: LEEWAY_SECONDS,
        currentDate: now,
      }));
    } catch (err) {
      if (err instanceof ClerkUnavailableError) throw err;
      if (err instanceof errors.JOSEError || err instanceof TypeError) return null;
      throw err;
    }
    const nowSeconds = now.getTime() / 1000;
    if (typeof payload.sub !== "string" || payload.sub === "") return null;
    // jose checks iat only for being a number: a token issued in the future is not one of Clerk's.
    if (typeof payload.iat !== "number" || payload.iat - LEEWAY_SECONDS > nowSeconds) return null;
    if (typeof payload.azp !== "string" || !this.options.authorizedParties.includes(payload.azp)) return null;
    return payload as SessionClaims;
  }

  /**
   * The key for a token's header: from jose's remote set (one fetch per cooldown, shared), or —
   * while Clerk is failing — from the last set we got, so tokens of known keys keep working.
   */
  private readonly resolveKey: KeyResolver = async (header, token) => {
    if (this.failedAt !== null && Date.now() - this.failedAt < this.failureBackoffMs) return this.fromLastKeys(header, token);
    try {
      const key = await this.remoteKeys(header, token);
      this.failedAt = null;
      return key;
    } catch (err) {
      if (TOKEN_FAULTS.some((fault) => err instanceof fault)) throw err;
      this.failedAt = Date.now();
      logEvent(processLog(), "warn", "Clerk JWKS unavailable; using the last keys fetched", { err });
      return this.fromLastKeys(header, token);
    }
  };

  private fromLastKeys(header: JWSHeaderParameters, token: FlattenedJWSInput): Promise<CryptoKey> {
    const jwks = this.remoteKeys.jwks();
    if (!jwks) throw new ClerkUnavailableError("no keys yet");
    if (this.lastKeys?.source !== jwks) this.lastKeys = { source: jwks, resolve: createLocalJWKSet(jwks) };
    return this.lastKeys.resolve(header, token);
  }

  private async loadUser(userId: string): Promise<AuthenticatedUser | null> {
    const now = this.options.clock.now().getTime();
    const cached = this.users.get(userId);
    if (cached && now - cached.fetchedAt < USER_TTL_MS) return cached.user;
    let res: Response;
    try {
      res = await this.call("GET", `/v1/users/${encodeURIComponent(userId)}`, [404]);
    } catch (err) {
      // Clerk is down: the user we knew a moment ago is still the best answer.
      if (cached && err instanceof ClerkUnavailableError) return cached.user;
      throw err;
    }
    if (res.status === 404) {
      this.users.delete(userId);
      return null;
    }
    const clerkUser = (await res.json()) as ClerkUser;
    const primary = clerkUser.email_addresses.find((e) => e.id === clerkUser.primary_email_address_id);
    const name = [clerkUser.first_name, clerkUser.last_name].filter(Boolean).join(" ") || null;
    const user: AuthenticatedUser = {
      id: clerkUser.id,
      // Only a verified primary address counts (for the domain rule and everything else): never
      // another address of the account, never one its owner has not proved.
      email: primary && primary.verification?.status === "verified" ? primary.email_address.toLowerCase() : "",
      name,
      role: panelRoleOf(clerkUser.public_metadata?.role),
    };
    this.users.set(userId, { user, fetchedAt: now });
    return user;
  }

  /** One Backend API call; Clerk refusing us (429), failing (5xx) or not answering is a 503. */
  private async call(method: string, path: string, allowedStatuses: number[] = []): Promise<Response> {
    const what = `Clerk ${method} ${path.split("/").slice(0, 3).join("/")}`;
    let res: Response;
    try {
      res = await this.fetchImpl(`${this.options.apiUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.options.secretKey}` },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (err) {
      throw new ClerkUnavailableError(`${what} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (res.ok || allowedStatuses.includes(res.status)) return res;
    if (res.status === 429 || res.status >= 500) throw new ClerkUnavailableError(`${what} answered ${res.status}`);
    throw new Error(`${what} answered ${res.status}`);
  }
}
