import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ClerkInvitations } from "../admin-users/clerk-invitations.ts";
import { type FakeClerkServer, startFakeClerk } from "../../testing/fake-clerk-server.ts";
import { type TestContext, createTestContext } from "../../testing/test-app.ts";

/**
 * AUTH_PROVIDER=clerk against the one fake Clerk (src/server/testing/fake-clerk-server.ts), over
 * HTTP as in production: the public config and the CSP the web reads, the browser's password
 * sign-in on the Frontend API ending in a session token the server accepts, token refresh and
 * sign-out, and the Backend API calls of the server (JWKS, users, sessions, invitations).
 */
const PANEL_ORIGIN = "http://admin.hki.test";
const NOW = "2026-11-22T12:00:00.000Z";

describe("sign-in through Clerk against the fake Clerk", () => {
  let clerk: FakeClerkServer;
  let ctx: TestContext;
  const clock = { ms: Date.parse(NOW) };

  /** What clerk-js sends to the Frontend API: form bodies, the `__client` cookie, the page's Origin. */
  function browser() {
    let cookie = "";
    return async (method: string, path: string, form?: Record<string, string>) => {
      const url = new URL(`${clerk.url}${path}`);
      url.searchParams.set("__clerk_api_version", "2026-08-20");
      url.searchParams.set("_clerk_js_version", "6.40.0");
      if (method !== "GET" && method !== "POST") url.searchParams.set("_method", method);
      const res = await fetch(url, {
        method: method === "GET" ? "GET" : "POST",
        headers: { origin: PANEL_ORIGIN, ...(cookie ? { cookie } : {}), ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
        ...(form ? { body: new URLSearchParams(form).toString() } : {}),
      });
      const setCookie = res.headers.getSetCookie()[0];
      if (setCookie) cookie = setCookie.split(";")[0]!;
      return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
  }

  beforeEach(async () => {
    clock.ms = Date.parse(NOW);
    clerk = await startFakeClerk({ now: () => clock.ms, tokenTtlSeconds: 60 });
    clerk.addUser({ id: "user_boss", email: "boss@gmail.com", password: "right password 1", role: "admin", firstName: "Bo", lastName: "Ss" });
    clerk.addUser({ id: "user_ops", email: "ops@hki.global", password: "right password 2" });
    clerk.addUser({ id: "user_artist", email: "artist@example.com", password: "right password 3" });
    ctx = await createTestContext("sqlite", {
      now: NOW,
      env: {
        AUTH_PROVIDER: "clerk",
        CLERK_SECRET_KEY: clerk.secretKey,
        CLERK_PUBLISHABLE_KEY: clerk.publishableKey,
        CLERK_API_URL: clerk.url,
        CLERK_AUTHORIZED_PARTIES: PANEL_ORIGIN,
      },
    });
  });
  afterEach(async () => {
    await ctx.close();
    await clerk.close();
  });

  async function signIn(email: string, password: string) {
    const call = browser();
    const created = await call("POST", "/v1/client/sign_ins", { identifier: email });
    expect(created.status).toBe(200);
    expect(created.body.response).toMatchObject({ object: "sign_in", status: "needs_first_factor", supported_first_factors: [{ strategy: "password" }] });
    const attempt = await call("POST", `/v1/client/sign_ins/${created.body.response.id}/attempt_first_factor`, { strategy: "password", password });
    return { call, attempt };
  }

  it("tells the web which provider and key, and lets the browser reach the Frontend API (connect-src, img-src) and nothing more", async () => {
    const res = await ctx.request("/api/config");
    expect(await res.json()).toEqual({ storefrontUrl: "http://store.test", authProviderName: "Clerk", authProvider: "clerk", clerkPublishableKey: clerk.publishableKey });
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("connect-src 'self' https://clerk.hki.test");
    expect(csp).toContain("img-src 'self' data: https://clerk.hki.test");
    expect(csp).toContain("script-src 'self';");
    expect(csp.match(/clerk\.hki\.test/g)).toHaveLength(2);
    expect(ctx.config.clerkIssuer).toBe(clerk.issuer);
  });

  it("a password sign-in at the Frontend API yields a session token the server accepts, for an admin by role and by company domain", async () => {
    for (const [email, password] of [
      ["boss@gmail.com", "right password 1"],
      ["ops@hki.global", "right password 2"],
    ] as const) {
      const { call, attempt } = await signIn(email, password);
      expect(attempt.status).toBe(200);
      expect(attempt.body.response).toMatchObject({ status: "complete" });
      const sessionId = attempt.body.response.created_session_id as string;
      expect(attempt.body.client).toMatchObject({ last_active_session_id: sessionId, sessions: [{ id: sessionId, status: "active" }] });
      expect((await call("POST", `/v1/client/sessions/${sessionId}/touch`, {})).body.response).toMatchObject({ id: sessionId, status: "active" });
      const token = await call("POST", `/v1/client/sessions/${sessionId}/tokens`, { organization_id: "" });
      expect(token.body).toMatchObject({ object: "token" });
      const [, payload] = (token.body.jwt as string).split(".");
      expect(JSON.parse(Buffer.from(payload!, "base64url").toString())).toMatchObject({ iss: clerk.issuer, azp: PANEL_ORIGIN, sid: sessionId, exp: clock.ms / 1000 + 60 });
      const me = await ctx.request("/api/auth/me", { token: token.body.jwt });
      expect(me.status, email).toBe(200);
      expect(await me.json()).toMatchObject({ user: { email, isAdmin: true, staffRole: "admin", panelAccess: true } });
    }
  });

  it("a plain user gets a session but no panel access; a wrong password creates no session", async () => {
    const { call, attempt } = await signIn("artist@example.com", "right password 3");
    const token = await call("POST", `/v1/client/sessions/${attempt.body.response.created_session_id}/tokens`, {});
    expect(await (await ctx.request("/api/auth/me", { token: token.body.jwt })).json()).toMatchObject({ user: { isAdmin: false, staffRole: null, panelAccess: false } });
    expect((await ctx.request("/api/admin/settings", { token: token.body.jwt })).status).toBe(403);

    const sessionsBefore = clerk.sessions.size;
    const wrong = await signIn("boss@gmail.com", "wrong password");
    expect(wrong.attempt.status).toBe(422);
    expect(wrong.attempt.body.errors[0]).toMatchObject({ code: "form_password_incorrect", meta: { param_name: "password" } });
    expect(clerk.sessions.size).toBe(sessionsBefore);
    const unknown = await browser()("POST", "/v1/client/sign_ins", { identifier: "nobody@example.com" });
    expect(unknown.body.errors[0]).toMatchObject({ code: "form_identifier_not_found" });
  });

  it("an expired token is refused by the server; a fresh one from the same session is accepted", async () => {
    const { call, attempt } = await signIn("boss@gmail.com", "right password 1");
    const sessionId = attempt.body.response.created_session_id as string;
    const first = (await call("POST", `/v1/client/sessions/${sessionId}/tokens`, {})).body.jwt as string;
    expect((await ctx.request("/api/auth/me", { token: first })).status).toBe(200);
    clock.ms += 70_000;
    ctx.clock.advance(70_000);
    expect((await ctx.request("/api/auth/me", { token: first })).status).toBe(401);
    const second = (await call("POST", `/v1/client/sessions/${sessionId}/tokens`, {})).body.jwt as string;
    expect(second).not.toBe(first);
    expect((await ctx.request("/api/auth/me", { token: second })).status).toBe(200);
  });

  it("signing out ends the session at Clerk: no token is issued for it any more", async () => {
    const { call, attempt } = await signIn("boss@gmail.com", "right password 1");
    const sessionId = attempt.body.response.created_session_id as string;
    const out = await call("DELETE", "/v1/client/sessions");
    expect(out.status).toBe(200);
    expect(out.body.client.sessions).toEqual([]);
    expect(clerk.sessions.get(sessionId)?.status).toBe("removed");
    const refused = await call("POST", `/v1/client/sessions/${sessionId}/tokens`, {});
    expect(refused.status).toBe(401);
    // Another browser (another client cookie) cannot touch this client's session.
    expect((await browser()("POST", `/v1/client/sessions/${sessionId}/touch`, {})).status).toBe(404);
  });

  it("the server's own sign-out revokes the Clerk session through the Backend API", async () => {
    const token = await clerk.sessionToken("user_boss", { azp: PANEL_ORIGIN });
    const sid = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()).sid as string;
    expect((await ctx.request("/api/auth/sign-out", { method: "POST", token })).status).toBe(204);
    expect(clerk.sessions.get(sid)?.status).toBe("revoked");
    expect(clerk.requests).toContainEqual({ api: "backend", method: "POST", path: `/v1/sessions/${sid}/revoke` });
  });

  it("leaves second factors to Clerk: setting up the panel's two-step sign-in answers 409 and stores nothing", async () => {
    const token = await clerk.sessionToken("user_boss", { azp: PANEL_ORIGIN });
    const setup = await ctx.request("/api/auth/two-step/setup", { method: "POST", token });
    expect(setup.status).toBe(409);
    expect(((await setup.json()) as { error: { message: string } }).error.message).toContain("Clerk");
    expect(await ctx.database.db.selectFrom("user_two_step").selectAll().execute()).toEqual([]);
  });

  it("leaves passkeys to Clerk: adding one answers 409, a passkey sign-in 400 'Sign in through Clerk', and nothing is stored", async () => {
    const token = await clerk.sessionToken("user_boss", { azp: PANEL_ORIGIN });
    const options = await ctx.request("/api/auth/passkeys/registration-options", { method: "POST", token });
    expect(options.status).toBe(409);
    expect(((await options.json()) as { error: { message: string } }).error.message).toContain("Clerk");
    const signIn = await ctx.request("/api/auth/sign-in/passkey/options", { method: "POST" });
    expect(signIn.status).toBe(400);
    expect(((await signIn.json()) as { error: { message: string } }).error.message).toBe("Sign in through Clerk");
    expect(await ctx.database.db.selectFrom("webauthn_challenges").selectAll().execute()).toEqual([]);
  });

  it("refuses a token for another party, and answers the Backend API only with the secret key", async () => {
    const foreign = await clerk.sessionToken("user_boss", { azp: "https://evil.example" });
    expect((await ctx.request("/api/auth/me", { token: foreign })).status).toBe(401);
    expect((await fetch(`${clerk.url}/v1/users/user_boss`)).status).toBe(401);
    expect((await fetch(`${clerk.url}/v1/users/user_boss`, { headers: { authorization: `Bearer ${clerk.secretKey}` } })).status).toBe(200);
  });

  it("serves the invitations the admin-users area sends through Clerk", async () => {
    const invitations = new ClerkInvitations({ secretKey: clerk.secretKey, apiUrl: clerk.url });
    const created = await invitations.create({ email: "New.Staff@example.com", role: "viewer", redirectUrl: `${PANEL_ORIGIN}/`, expiresInDays: 7 });
    expect(clerk.invitations.get(created.id)).toMatchObject({ email_address: "new.staff@example.com", public_metadata: { role: "viewer" }, status: "pending" });
    expect(created.url).toContain(created.id);
    await invitations.revoke(created.id);
    expect(clerk.invitations.get(created.id)?.status).toBe("revoked");
    // Revoking again, or an unknown invitation, is not an error for the panel.
    await expect(invitations.revoke(created.id)).resolves.toBeUndefined();
    await expect(invitations.revoke("inv_unknown")).resolves.toBeUndefined();
    // An address that already has an account at Clerk is refused (a conflict the screen shows).
    await expect(invitations.create({ email: "boss@gmail.com", role: "admin", redirectUrl: `${PANEL_ORIGIN}/`, expiresInDays: 7 })).rejects.toMatchObject({ status: 409 });
  });
});
