import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../config/config.ts";
import { startFakeClerk } from "../../testing/fake-clerk-server.ts";
import { type TestContext, createTestContext } from "../../testing/test-app.ts";
import { ClerkAuthProvider } from "./clerk-auth-provider.ts";

const ISSUER = "https://clerk.hki-test.example";
const ADMIN_ORIGIN = "https://admin.hki-test.example";

/**
 * The one fake Clerk (src/server/testing/fake-clerk-server.ts), reached over HTTP as Clerk is: its
 * Backend API serves the JWKS, users, session revocation and user deletion. `token` signs claims
 * with the instance's key (or names another key id); `jwt` signs any header.
 */
async function fakeClerk() {
  const server = await startFakeClerk({ frontendApiHost: "clerk.hki-test.example", secretKey: "sk_test_fake" });
  server.addUser({ id: "user_admin", email: "boss@gmail.com", password: "unused", role: "admin" });
  server.addUser({ id: "user_artist", email: "artist@example.com", password: "unused" });
  server.addUser({ id: "user_staff", email: "ops@hki.global", password: "unused" });
  // Claims the company domain without having proved it, or only on a secondary address.
  server.addUser({ id: "user_claims", email: "ceo@hki.global", emailVerified: false, password: "unused" });
  server.addUser({ id: "user_secondary", email: "me@example.com", emailVerified: false, otherEmails: [{ email: "me@hki.global", verified: true }], password: "unused" });
  server.addUser({ id: "user_no_primary", email: "someone@hki.global", hasPrimary: false, password: "unused" });
  const jwt = (header: object, claims: object) => server.signJwt(header, claims);
  const token = (claims: object, kid = server.keyId) => jwt({ alg: "RS256", kid, typ: "JWT" }, claims);
  const jwksFetches = () => server.requests.filter((r) => r.api === "backend" && r.path === "/v1/jwks").length;
  return { server, token, jwt, jwksFetches };
}

const CLERK_ENV = {
  AUTH_PROVIDER: "clerk",
  CLERK_SECRET_KEY: "sk_test_fake",
  CLERK_PUBLISHABLE_KEY: "pk_test_fake",
  CLERK_ISSUER: ISSUER,
  CLERK_AUTHORIZED_PARTIES: `${ADMIN_ORIGIN}, https://store.hki-test.example`,
};

describe("Clerk auth provider", () => {
  let ctx: TestContext;
  let clerk: Awaited<ReturnType<typeof fakeClerk>>;
  const nowSeconds = Date.parse("2026-11-22T12:00:00.000Z") / 1000;
  /** A session token as Clerk issues it for this instance, from the admin panel's origin. */
  const session = (sub: string, extra: object = {}) =>
    clerk.token({ sub, sid: `sess_${sub}`, iss: ISSUER, azp: ADMIN_ORIGIN, iat: nowSeconds - 10, nbf: nowSeconds - 10, exp: nowSeconds + 60, ...extra });

  beforeEach(async () => {
    clerk = await fakeClerk();
    ctx = await createTestContext("sqlite", { env: { ...CLERK_ENV, CLERK_API_URL: clerk.server.url } });
  });
  afterEach(async () => {
    await ctx.close();
    await clerk.server.close();
  });

  it("accepts a valid session token and applies the admin rule to the Clerk user", async () => {
    const me = await ctx.request("/api/auth/me", { token: session("user_admin") });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ user: { email: "boss@gmail.com", isAdmin: true } });
    expect((await ctx.request("/api/admin/settings", { token: session("user_artist") })).status).toBe(403);
    // A verified primary address at the company domain is an admin.
    expect((await ctx.request("/api/admin/settings", { token: session("user_staff") })).status).toBe(200);
    const config = await ctx.request("/api/config");
    expect(await config.json()).toMatchObject({ authProviderName: "Clerk" });
  });

  it("rejects expired, not-yet-valid, future-issued, tampered, foreign-key, wrong-issuer, wrong-party and unsigned tokens", async () => {
    const valid = session("user_admin");
    const [h, , s] = valid.split(".");
    const tampered = `${h}.${Buffer.from(JSON.stringify({ sub: "user_artist", iss: ISSUER, azp: ADMIN_ORIGIN, iat: nowSeconds, exp: nowSeconds + 60 })).toString("base64url")}.${s}`;
    const cases: Record<string, string> = {
      expired: session("user_admin", { exp: nowSeconds - 60 }),
      "not yet valid": session("user_admin", { nbf: nowSeconds + 300, exp: nowSeconds + 600 }),
      "issued in the future": session("user_admin", { iat: nowSeconds + 300 }),
      "no iat": session("user_admin", { iat: undefined }),
      tampered,
      "unknown kid": clerk.token({ sub: "user_admin", iss: ISSUER, azp: ADMIN_ORIGIN, iat: nowSeconds, exp: nowSeconds + 60 }, "other_kid"),
      "wrong issuer": session("user_admin", { iss: "https://evil.clerk.accounts.dev" }),
      "no issuer": session("user_admin", { iss: undefined }),
      "wrong azp": session("user_admin", { azp: "https://evil.example" }),
      "look-alike azp": session("user_admin", { azp: `${ADMIN_ORIGIN}.evil.example` }),
      "no azp": session("user_admin", { azp: undefined }),
      "alg none": `${Buffer.from(JSON.stringify({ alg: "none", kid: clerk.server.keyId })).toString("base64url")}.${valid.split(".")[1]}.`,
      "alg HS256": clerk.jwt({ alg: "HS256", kid: clerk.server.keyId }, { sub: "user_admin" }),
      "three dots": "a.b.c",
      garbage: "garbage",
    };
    for (const [name, token] of Object.entries(cases)) {
      expect((await ctx.request("/api/auth/me", { token })).status, name).toBe(401);
    }
    expect((await ctx.request("/api/auth/me", { token: valid })).status).toBe(200);
  });

  it("finding 3: 100 tokens with forged kids, at once and one by one, on any path, cost at most one JWKS fetch", async () => {
    const forged = (i: number) => clerk.token({ sub: "user_admin", iss: ISSUER, azp: ADMIN_ORIGIN, iat: nowSeconds, exp: nowSeconds + 60 }, `forged_${i}`);
    const burst = await Promise.all(Array.from({ length: 50 }, (_, i) => ctx.request(i % 2 ? "/api/health" : "/api/auth/me", { token: forged(i) })));
    for (const res of burst) expect([200, 401]).toContain(res.status);
    for (let i = 50; i < 100; i++) await ctx.request("/api/health", { token: forged(i) });
    // Same kid, 20 at once.
    await Promise.all(Array.from({ length: 20 }, () => ctx.request("/api/auth/me", { token: forged(7) })));
    expect(clerk.jwksFetches()).toBeLessThanOrEqual(1);
    // Real tokens are unaffected.
    expect((await ctx.request("/api/auth/me", { token: session("user_admin") })).status).toBe(200);
    expect(clerk.jwksFetches()).toBeLessThanOrEqual(1);
  });

  it("finding 3: Clerk answering 429 makes a request 503 (never 500), without hammering Clerk", async () => {
    clerk.server.backendFailure = 429;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => ctx.request("/api/auth/me", { token: clerk.token({ sub: "x", iss: ISSUER, azp: ADMIN_ORIGIN, iat: nowSeconds, exp: nowSeconds + 60 }, `k${i}`) })),
    );
    for (const res of answers) {
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBeTruthy();
      expect(await res.json()).toEqual({ error: { code: "unavailable", message: "The sign-in provider is temporarily unavailable, try again shortly" } });
    }
    // The concurrent ones shared one fetch; after the failure Clerk is left alone for a while.
    expect(clerk.jwksFetches()).toBe(1);
    expect((await ctx.request("/api/health", { token: session("user_admin") })).status).toBe(503);
    expect(clerk.jwksFetches()).toBe(1);
    const logged = await ctx.database.db.selectFrom("error_logs").select(["status_code", "level"]).execute();
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.every((row) => row.status_code === 503 && row.level === "error")).toBe(true);
  });

  it("finding 3: when Clerk fails, tokens signed by keys already fetched keep working, even once the key cache is stale", async () => {
    const config = loadConfig({ DATABASE_URL: "sqlite::memory:", ...CLERK_ENV });
    const provider = new ClerkAuthProvider({
      secretKey: "sk_test_fake",
      apiUrl: clerk.server.url,
      issuer: config.clerkIssuer!,
      authorizedParties: config.clerkAuthorizedParties,
      clock: ctx.clock,
      // Stale at once: every request wants fresh keys.
      jwksMaxAgeMs: 0,
      failureBackoffMs: 60_000,
    });
    ctx.deps.auth = provider;
    const admin = session("user_admin");
    expect((await ctx.request("/api/auth/me", { token: admin })).status).toBe(200);
    const fetchesBefore = clerk.jwksFetches();
    clerk.server.backendFailure = 429;
    for (let i = 0; i < 5; i++) expect((await ctx.request("/api/admin/settings", { token: admin })).status).toBe(200);
    // One failed refresh, then Clerk is left alone; forged kids meanwhile are simply refused.
    expect(clerk.jwksFetches()).toBe(fetchesBefore + 1);
    expect((await ctx.request("/api/auth/me", { token: clerk.token({ sub: "user_admin", iss: ISSUER, azp: ADMIN_ORIGIN, iat: nowSeconds, exp: nowSeconds + 60 }, "forged") })).status).toBe(401);
    expect(clerk.jwksFetches()).toBe(fetchesBefore + 1);
    // A user Clerk cannot tell us about: 503, not 500.
    const stranger = session("user_artist");
    expect((await ctx.request("/api/auth/me", { token: stranger })).status).toBe(503);
  });

  it("only a verified primary e-mail counts for the domain rule", async () => {
    for (const sub of ["user_claims", "user_secondary", "user_no_primary"]) {
      const me = await ctx.request("/api/auth/me", { token: session(sub) });
      expect(me.status, sub).toBe(200);
      expect(((await me.json()) as { user: { email: string; isAdmin: boolean } }).user, sub).toMatchObject({ email: "", isAdmin: false });
      expect((await ctx.request("/api/admin/settings", { token: session(sub) })).status, sub).toBe(403);
    }
  });

  it("does not offer password sign-in, and signs out by revoking the Clerk session", async () => {
    expect((await ctx.request("/api/auth/sign-in", { method: "POST", json: { email: "a@b.c", password: "x" } })).status).toBe(400);
    const token = session("user_admin", { sid: "sess_9" });
    expect((await ctx.request("/api/auth/sign-out", { method: "POST", token })).status).toBe(204);
    expect(clerk.server.requests).toContainEqual({ api: "backend", method: "POST", path: "/v1/sessions/sess_9/revoke" });
  });

  it("deletes users at Clerk", async () => {
    await ctx.deps.auth.deleteUser("user_artist", ctx.database.db);
    expect(clerk.server.users.has("user_artist")).toBe(false);
    // Deleting a user Clerk no longer has is not an error.
    await expect(ctx.deps.auth.deleteUser("user_artist", ctx.database.db)).resolves.toBeUndefined();
  });
});

describe("Clerk configuration", () => {
  const base = { DATABASE_URL: "sqlite::memory:", AUTH_PROVIDER: "clerk", CLERK_SECRET_KEY: "sk_test_x" };

  it("reads the issuer from the publishable key, or CLERK_ISSUER", () => {
    const key = `pk_test_${Buffer.from("clerk.shop.example.com$").toString("base64")}`;
    const config = loadConfig({ ...base, CLERK_PUBLISHABLE_KEY: key, CLERK_AUTHORIZED_PARTIES: "https://admin.shop.example.com" });
    expect(config.clerkIssuer).toBe("https://clerk.shop.example.com");
    expect(config.clerkAuthorizedParties).toEqual(["https://admin.shop.example.com"]);
    expect(loadConfig({ ...base, CLERK_PUBLISHABLE_KEY: key, CLERK_AUTHORIZED_PARTIES: "https://a.example", CLERK_ISSUER: "https://other.example/" }).clerkIssuer).toBe("https://other.example");
  });

  it("refuses to start without authorized parties, with a bad one, or without an issuer", () => {
    const key = `pk_live_${Buffer.from("clerk.shop.example.com$").toString("base64")}`;
    expect(() => loadConfig({ ...base, CLERK_PUBLISHABLE_KEY: key })).toThrow(/CLERK_AUTHORIZED_PARTIES: required/);
    expect(() => loadConfig({ ...base, CLERK_PUBLISHABLE_KEY: key, CLERK_AUTHORIZED_PARTIES: "admin.example.com" })).toThrow(/CLERK_AUTHORIZED_PARTIES/);
    expect(() => loadConfig({ ...base, CLERK_PUBLISHABLE_KEY: key, CLERK_AUTHORIZED_PARTIES: "https://a.example/path" })).toThrow(/CLERK_AUTHORIZED_PARTIES/);
    expect(() => loadConfig({ ...base, CLERK_PUBLISHABLE_KEY: "pk_test_fake", CLERK_AUTHORIZED_PARTIES: "https://a.example" })).toThrow(/CLERK_ISSUER/);
  });
});
