import { afterEach, describe, expect, it } from "vitest";
import { debugResponseSchema } from "../../../contract/system-debug.ts";
import { type FakeStripeServer, startFakeStripe } from "../../testing/fake-stripe-server.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";

const STRIPE_KEY = "sk_test_51DebugRouteKey0123456789";

describe.each(testDatabaseKinds)("GET /api/debug/admin on %s", (kind) => {
  let t: TestContext | undefined;
  let fake: FakeStripeServer | undefined;
  afterEach(async () => {
    await t?.close();
    await fake?.close();
    t = undefined;
    fake = undefined;
  });

  const debugAs = async (ctx: TestContext, token: string) => {
    const res = await ctx.request("/api/debug/admin", { token });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const text = await res.text();
    return { text, body: debugResponseSchema.parse(JSON.parse(text)) };
  };

  it("is admin-only", async () => {
    t = await createTestContext(kind);
    const user = await t.createUser({ email: "viewer@example.com" });
    expect((await t.request("/api/debug/admin")).status).toBe(401);
    expect((await t.request("/api/debug/admin", { token: user.token })).status).toBe(403);
  });

  it("shows the configured public address, whatever Host the request names", async () => {
    t = await createTestContext(kind);
    const admin = await t.createUser({ email: "ops@hki.global", role: "user" });
    const response = await t.request("/api/debug/admin", { token: admin.token, headers: { Host: "evil.example", "X-Forwarded-Host": "evil.example" } });
    const body = (await response.json()) as { apiUrl: string };
    expect(body.apiUrl).toBe(`${t.deps.config.publicUrl}/api`);
    expect(body.apiUrl).not.toContain("evil.example");
  });

  it("without a Stripe key: no call, stripeWorks false with the reason, built-in auth needs no key", async () => {
    t = await createTestContext(kind);
    const admin = await t.createUser({ email: "ops@hki.global", role: "user" });
    const { body } = await debugAs(t, admin.token);
    expect(body).toEqual({
      userId: admin.id,
      email: "ops@hki.global",
      isAdmin: true,
      jwtRole: "user",
      clerkSecretKeyExists: false,
      clerkKeyPrefix: null,
      stripeSecretKeyExists: false,
      stripeKeyPrefix: null,
      stripeWorks: false,
      stripeError: "Stripe secret key not configured",
      stripeCheckedAt: "2026-11-22T12:00:00.000Z",
      authProvider: "local",
      authProviderName: t.deps.auth.displayName,
      authSecretKeyRequired: false,
      localUserRole: "user",
      environment: "development",
      apiUrl: `${t.deps.config.publicUrl}/api`,
      database: kind === "sqlite" ? { kind: "sqlite", label: "SQLite (embedded)" } : { kind: "postgres", label: "PostgreSQL" },
      errorLogDrops: { hours: 24, error: 0, warning: 0, info: 0 },
      // No comparison with Stripe has run yet (it runs daily once a key is set).
      stripeReconciliation: { last: null, openDifferences: 0, differences: [] },
      checkedAt: "2026-11-22T12:00:00.000Z",
    });
  });

  it("with a key and a Stripe answering OK: stripeWorks true, only the key prefix is shown", async () => {
    fake = await startFakeStripe("ok");
    t = await createTestContext(kind, { env: { STRIPE_SECRET_KEY: STRIPE_KEY, STRIPE_API_BASE: fake.url } });
    const admin = await t.createUser({ email: "root@example.com", role: "admin" });
    const { body, text } = await debugAs(t, admin.token);
    expect(body).toMatchObject({
      isAdmin: true,
      jwtRole: "admin",
      localUserRole: "admin",
      stripeSecretKeyExists: true,
      stripeKeyPrefix: "sk_test",
      stripeWorks: true,
      stripeError: null,
    });
    expect(text).not.toContain(STRIPE_KEY);
    expect(fake.requests).toHaveLength(1);
    // A second look within the minute reuses the answer instead of calling Stripe again.
    await debugAs(t, admin.token);
    expect(fake.requests).toHaveLength(1);
    t.clock.advance(61_000);
    await debugAs(t, admin.token);
    expect(fake.requests).toHaveLength(2);
  });

  it("with a key Stripe refuses (401): stripeWorks false with Stripe's error", async () => {
    fake = await startFakeStripe("unauthorized");
    t = await createTestContext(kind, { env: { STRIPE_SECRET_KEY: STRIPE_KEY, STRIPE_API_BASE: fake.url } });
    const admin = await t.createUser({ email: "ops@hki.global" });
    const { body, text } = await debugAs(t, admin.token);
    expect(body.stripeWorks).toBe(false);
    expect(body.stripeError).toMatch(/Invalid API Key provided.*401/);
    expect(text).not.toContain(STRIPE_KEY);
  });

  it("with Stripe unreachable: stripeWorks false with a connection error", async () => {
    fake = await startFakeStripe("ok");
    const url = fake.url;
    await fake.close();
    fake = undefined;
    t = await createTestContext(kind, { env: { STRIPE_SECRET_KEY: STRIPE_KEY, STRIPE_API_BASE: url } });
    const admin = await t.createUser({ email: "ops@hki.global" });
    const { body } = await debugAs(t, admin.token);
    expect(body.stripeWorks).toBe(false);
    expect(body.stripeError).toMatch(/Could not reach Stripe/);
  });
});
