import { generateKeyPairSync, sign } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type TestContext, createTestContext } from "../testing/test-app.ts";

/** A fake Clerk Backend API: JWKS, users, session revocation and user deletion, all in memory. */
function fakeClerk() {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: "jwk" }), kid: "ins_key_1", use: "sig", alg: "RS256" };
  const users = new Map<string, object>([
    ["user_admin", { id: "user_admin", primary_email_address_id: "e1", email_addresses: [{ id: "e1", email_address: "boss@gmail.com" }], public_metadata: { role: "admin" } }],
    ["user_artist", { id: "user_artist", primary_email_address_id: "e2", email_addresses: [{ id: "e2", email_address: "artist@example.com" }], public_metadata: {} }],
  ]);
  const calls: string[] = [];
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    const method = init?.method ?? "GET";
    calls.push(`${method} ${url.pathname}`);
    if (new Headers(init?.headers).get("authorization") !== "Bearer sk_test_fake") return new Response("{}", { status: 401 });
    if (url.pathname === "/v1/jwks") return Response.json({ keys: [jwk] });
    const userMatch = /^\/v1\/users\/([^/]+)$/.exec(url.pathname);
    if (userMatch) {
      const user = users.get(userMatch[1]!);
      if (!user) return new Response("{}", { status: 404 });
      if (method === "DELETE") {
        users.delete(userMatch[1]!);
        return Response.json({ deleted: true });
      }
      return Response.json(user);
    }
    if (/^\/v1\/sessions\/[^/]+\/revoke$/.test(url.pathname)) return Response.json({ status: "revoked" });
    return new Response("{}", { status: 404 });
  }) as typeof fetch;
  const token = (claims: object, kid = "ins_key_1") => {
    const header = Buffer.from(JSON.stringify({ alg: "RS256", kid, typ: "JWT" })).toString("base64url");
    const payload = Buffer.from(JSON.stringify(claims)).toString("base64url");
    const signature = sign("RSA-SHA256", Buffer.from(`${header}.${payload}`), privateKey).toString("base64url");
    return `${header}.${payload}.${signature}`;
  };
  return { fetchImpl, token, users, calls };
}

describe("Clerk auth provider", () => {
  let ctx: TestContext;
  let clerk: ReturnType<typeof fakeClerk>;
  const nowSeconds = Date.parse("2026-11-22T12:00:00.000Z") / 1000;

  beforeEach(async () => {
    clerk = fakeClerk();
    ctx = await createTestContext("sqlite", {
      env: { AUTH_PROVIDER: "clerk", CLERK_SECRET_KEY: "sk_test_fake", CLERK_PUBLISHABLE_KEY: "pk_test_fake", CLERK_API_URL: "http://clerk.test" },
      fetchImpl: clerk.fetchImpl,
    });
  });
  afterEach(async () => {
    await ctx.close();
  });

  it("accepts a valid session token and applies the admin rule to the Clerk user", async () => {
    const admin = clerk.token({ sub: "user_admin", sid: "sess_1", exp: nowSeconds + 60 });
    const me = await ctx.request("/api/auth/me", { token: admin });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ user: { email: "boss@gmail.com", isAdmin: true } });

    const artist = clerk.token({ sub: "user_artist", sid: "sess_2", exp: nowSeconds + 60 });
    expect((await ctx.request("/api/admin/settings", { token: artist })).status).toBe(403);
    const config = await ctx.request("/api/config");
    expect(await config.json()).toMatchObject({ authProviderName: "Clerk" });
  });

  it("rejects expired, not-yet-valid, tampered and foreign-key tokens", async () => {
    const expired = clerk.token({ sub: "user_admin", exp: nowSeconds - 60 });
    const future = clerk.token({ sub: "user_admin", exp: nowSeconds + 600, nbf: nowSeconds + 300 });
    const valid = clerk.token({ sub: "user_admin", exp: nowSeconds + 60 });
    const [h, , s] = valid.split(".");
    const tampered = `${h}.${Buffer.from(JSON.stringify({ sub: "user_artist", exp: nowSeconds + 60 })).toString("base64url")}.${s}`;
    const unknownKid = clerk.token({ sub: "user_admin", exp: nowSeconds + 60 }, "other_kid");
    for (const token of [expired, future, tampered, unknownKid, "a.b.c", "garbage"]) {
      expect((await ctx.request("/api/auth/me", { token })).status, token.slice(0, 20)).toBe(401);
    }
  });

  it("does not offer password sign-in, and signs out by revoking the Clerk session", async () => {
    expect((await ctx.request("/api/auth/sign-in", { method: "POST", json: { email: "a@b.c", password: "x" } })).status).toBe(400);
    const token = clerk.token({ sub: "user_admin", sid: "sess_9", exp: nowSeconds + 60 });
    expect((await ctx.request("/api/auth/sign-out", { method: "POST", token })).status).toBe(204);
    expect(clerk.calls).toContain("POST /v1/sessions/sess_9/revoke");
  });

  it("deletes users at Clerk", async () => {
    await ctx.deps.auth.deleteUser("user_artist", ctx.database.db);
    expect(clerk.users.has("user_artist")).toBe(false);
    // Deleting a user Clerk no longer has is not an error.
    await expect(ctx.deps.auth.deleteUser("user_artist", ctx.database.db)).resolves.toBeUndefined();
  });
});
