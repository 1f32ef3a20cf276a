import { type JsonWebKey, type KeyObject, createPublicKey, verify } from "node:crypto";
import type { Clock } from "../clock.ts";
import type { Executor } from "../ledger/executor.ts";
import type { AuthProvider, AuthenticatedUser } from "./auth-provider.ts";

/**
 * Clerk behind the same interface as the built-in provider. Clerk signs users in on its own pages
 * and hands the browser a short-lived RS256 session JWT; we verify it against the instance's JWKS
 * (fetched with the secret key, cached), then read the user (primary e-mail, public-metadata role)
 * from Clerk's Backend API, cached briefly. Sign-out revokes the Clerk session; deleteUser deletes
 * the Clerk user. Docs: https://clerk.com/docs/backend-requests/manual-jwt and the Backend API.
 */
export interface ClerkOptions {
  secretKey: string;
  apiUrl: string;
  clock: Clock;
  fetchImpl?: typeof fetch;
}

const JWKS_TTL_MS = 10 * 60_000;
const USER_TTL_MS = 60_000;
/** Clock skew tolerated on exp/nbf. */
const LEEWAY_SECONDS = 5;
const REQUEST_TIMEOUT_MS = 5000;

interface ClerkUser {
  id: string;
  primary_email_address_id: string | null;
  email_addresses: Array<{ id: string; email_address: string }>;
  public_metadata?: { role?: unknown };
  first_name?: string | null;
  last_name?: string | null;
}

interface SessionClaims {
  sub: string;
  sid?: string;
  exp: number;
  nbf?: number;
}

export class ClerkAuthProvider implements AuthProvider {
  readonly displayName = "Clerk";
  private keys: { byKid: Map<string, KeyObject>; fetchedAt: number } | null = null;
  private readonly users = new Map<string, { user: AuthenticatedUser; fetchedAt: number }>();
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: ClerkOptions) {
    this.fetchImpl = options.fetchImpl ?? fetch;
  }

  async authenticate(token: string): Promise<AuthenticatedUser | null> {
    const claims = await this.verifySessionToken(token);
    if (!claims) return null;
    return this.loadUser(claims.sub);
  }

  async signOut(token: string): Promise<void> {
    const claims = await this.verifySessionToken(token);
    if (!claims?.sid) return;
    await this.call("POST", `/v1/sessions/${encodeURIComponent(claims.sid)}/revoke`);
    this.users.delete(claims.sub);
  }

  async deleteUser(userId: string, _executor: Executor): Promise<void> {
    const res = await this.call("DELETE", `/v1/users/${encodeURIComponent(userId)}`, [404]);
    // Already gone at Clerk is what we wanted; anything else threw above and rolls the caller back.
    void res;
    this.users.delete(userId);
  }

  /** The claims of a valid, unexpired RS256 token signed by one of the instance's keys; else null. */
  async verifySessionToken(token: string): Promise<SessionClaims | null> {
    const parts = token.split(".");
    if (parts.length !== 3) return null;
    const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
    const header = decodeJson(headerPart) as { alg?: string; kid?: string } | null;
    const claims = decodeJson(payloadPart) as Partial<SessionClaims> | null;
    if (!header || !claims || header.alg !== "RS256" || typeof header.kid !== "string") return null;
    const key = await this.keyFor(header.kid);
    if (!key) return null;
    const signed = verify("RSA-SHA256", Buffer.from(`${headerPart}.${payloadPart}`), key, Buffer.from(signaturePart, "base64url"));
    if (!signed) return null;
    const now = this.options.clock.now().getTime() / 1000;
    if (typeof claims.sub !== "string" || typeof claims.exp !== "number") return null;
    if (claims.exp + LEEWAY_SECONDS < now) return null;
    if (typeof claims.nbf === "number" && claims.nbf - LEEWAY_SECONDS > now) return null;
    return claims as SessionClaims;
  }

  private async keyFor(kid: string): Promise<KeyObject | null> {
    const now = this.options.clock.now().getTime();
    const stale = !this.keys || now - this.keys.fetchedAt > JWKS_TTL_MS;
    // An unknown kid may mean Clerk rotated keys: refetch once, then give up.
    if (stale || !this.keys!.byKid.has(kid)) {
      const res = await this.call("GET", "/v1/jwks");
      const body = (await res.json()) as { keys?: Array<JsonWebKey & { kid?: string }> };
      const byKid = new Map<string, KeyObject>();
      for (const jwk of body.keys ?? []) if (jwk.kid && jwk.kty === "RSA") byKid.set(jwk.kid, createPublicKey({ key: jwk, format: "jwk" }));
      this.keys = { byKid, fetchedAt: now };
    }
    return this.keys!.byKid.get(kid) ?? null;
  }

  private async loadUser(userId: string): Promise<AuthenticatedUser | null> {
    const now = this.options.clock.now().getTime();
    const cached = this.users.get(userId);
    if (cached && now - cached.fetchedAt < USER_TTL_MS) return cached.user;
    const res = await this.call("GET", `/v1/users/${encodeURIComponent(userId)}`, [404]);
    if (res.status === 404) return null;
    const clerkUser = (await res.json()) as ClerkUser;
    const primary = clerkUser.email_addresses.find((e) => e.id === clerkUser.primary_email_address_id) ?? clerkUser.email_addresses[0];
    if (!primary) return null;
    const name = [clerkUser.first_name, clerkUser.last_name].filter(Boolean).join(" ") || null;
    const user: AuthenticatedUser = {
      id: clerkUser.id,
      email: primary.email_address.toLowerCase(),
      name,
      role: clerkUser.public_metadata?.role === "admin" ? "admin" : "user",
    };
    this.users.set(userId, { user, fetchedAt: now });
    return user;
  }

  private async call(method: string, path: string, allowedStatuses: number[] = []): Promise<Response> {
    const res = await this.fetchImpl(`${this.options.apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.options.secretKey}` },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (!res.ok && !allowedStatuses.includes(res.status)) {
      throw new Error(`Clerk ${method} ${path.split("/").slice(0, 3).join("/")} answered ${res.status}`);
    }
    return res;
  }
}

function decodeJson(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
  } catch {
    return null;
  }
}
