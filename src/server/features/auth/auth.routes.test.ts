import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TEST_BETA_PASSWORD, TEST_PASSWORD, type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";

describe.each(testDatabaseKinds)("auth and beta API (%s)", (kind) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext(kind);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const signIn = (email: string, password: string) => ctx.request("/api/auth/sign-in", { method: "POST", json: { email, password } });

  it("signs the first admin in, reports them, and signs them out for good", async () => {
    const res = await signIn("Root-Admin@hki.global", TEST_PASSWORD);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { token: string; user: { email: string; isAdmin: boolean } };
    expect(body.user).toMatchObject({ email: "root-admin@hki.global", isAdmin: true });

    const me = await ctx.request("/api/auth/me", { token: body.token });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { user: { email: string } }).user.email).toBe("root-admin@hki.global");

    expect((await ctx.request("/api/auth/sign-out", { method: "POST", token: body.token })).status).toBe(204);
    expect((await ctx.request("/api/auth/me", { token: body.token })).status).toBe(401);
  });

  it("answers unknown e-mails and wrong passwords the same way", async () => {
    const wrong = await signIn("root-admin@hki.global", "nope");
    const unknown = await signIn("nobody@example.com", "nope");
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  it("locks an account after 10 failures in 15 minutes, even for the right password, until the window passes", async () => {
    for (let i = 0; i < 10; i++) expect((await signIn("root-admin@hki.global", `wrong-${i}`)).status).toBe(401);
    const locked = await signIn("root-admin@hki.global", TEST_PASSWORD);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    // Same answer for an unknown account that was hammered the same way.
    for (let i = 0; i < 10; i++) await signIn("ghost@example.com", `wrong-${i}`);
    expect((await signIn("ghost@example.com", "x")).status).toBe(429);

    ctx.clock.advance(15 * 60_000 + 1000);
    expect((await signIn("root-admin@hki.global", TEST_PASSWORD)).status).toBe(200);
  }, 60_000);

  it("rejects expired tokens", async () => {
    const user = await ctx.createUser({ email: "ops@hki.global" });
    expect((await ctx.request("/api/auth/me", { token: user.token })).status).toBe(200);
    ctx.clock.advance(2 * 3600_000);
    expect((await ctx.request("/api/auth/me", { token: user.token })).status).toBe(401);
  });

  it("checks the beta password on the server and rate-limits guesses", async () => {
    const verify = (password: string) => ctx.request("/api/beta/verify", { method: "POST", json: { password } });
    expect((await verify(TEST_BETA_PASSWORD)).status).toBe(200);
    const wrong = await verify("guess");
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: { code: "unauthorized", message: "Invalid password" } });
    for (let i = 0; i < 9; i++) await verify(`guess-${i}`);
    expect((await verify(TEST_BETA_PASSWORD)).status).toBe(429);
  });

  it("validates sign-in bodies", async () => {
    const res = await ctx.request("/api/auth/sign-in", { method: "POST", json: { email: "" } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/email/);
  });
});
