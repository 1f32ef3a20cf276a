import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_FAILURE_RULE, BETA_FAILURE_RULE, SIGN_IN_IP_RULE } from "../features/auth/auth.service.ts";
import { TEST_BETA_PASSWORD, TEST_PASSWORD, type TestContext, createTestContext } from "../testing/test-app.ts";

/** Password guessing against sign-in and the beta gate, with the clock injected to cross windows. */
describe("brute force", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext("sqlite");
  });
  afterAll(async () => {
    await ctx.close();
  });

  const signIn = (email: string, password: string, headers: Record<string, string> = {}) => ctx.request("/api/auth/sign-in", { method: "POST", json: { email, password }, headers });
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

  // Every request here comes from the same (socket-less, "local") address: the lock is per account and
  // address (auth/sign-in-limits.test.ts shows another address is not locked out).
  it("11 wrong passwords lock the account for that address: 429 with Retry-After, even for the right password, until the window passes", async () => {
    const email = ctx.config.adminEmail;
    for (let i = 0; i < ACCOUNT_FAILURE_RULE.limit; i++) expect((await signIn(email, `wrong-${i}`)).status).toBe(401);
    const eleventh = await signIn(email, "wrong-again");
    expect(eleventh.status).toBe(429);
    const retryAfter = Number(eleventh.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(ACCOUNT_FAILURE_RULE.windowMs / 1000);
    // The e-mail's case or spacing does not open a fresh bucket.
    expect((await signIn(email.toUpperCase(), TEST_PASSWORD)).status).toBe(429);
    expect((await signIn(email, TEST_PASSWORD)).status).toBe(429);

    ctx.clock.advance(ACCOUNT_FAILURE_RULE.windowMs - 60_000);
    expect((await signIn(email, TEST_PASSWORD)).status).toBe(429);
    ctx.clock.advance(61_000);
    expect((await signIn(email, TEST_PASSWORD)).status).toBe(200);
  }, 60_000);

  it("answers unknown and known e-mails the same way, in similar time", async () => {
    ctx.clock.advance(SIGN_IN_IP_RULE.windowMs + 1000);
    const known: number[] = [];
    const unknown: number[] = [];
    const bodies = new Set<string>();
    // Each attempt costs one full-strength scrypt (slow on purpose), so the sample is small.
    for (let i = 0; i < 3; i++) {
      for (const [email, times] of [
        [ctx.config.adminEmail, known],
        [`ghost-${i}@example.com`, unknown],
      ] as const) {
        const start = performance.now();
        const res = await signIn(email, `nope-${i}`);
        bodies.add(`${res.status} ${await res.text()}`);
        times.push(performance.now() - start);
      }
    }
    expect([...bodies]).toEqual(['401 {"error":{"code":"unauthorized","message":"Invalid email or password"}}']);
    // Both pay one scrypt verification; a missing account must not answer measurably faster.
    const ratio = median(known) / median(unknown);
    expect(ratio, `known ${known.map(Math.round)} ms, unknown ${unknown.map(Math.round)} ms`).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  }, 60_000);

  it("limits sign-in attempts per IP across accounts; a forged X-Forwarded-For does not reset it", async () => {
    ctx.clock.advance(SIGN_IN_IP_RULE.windowMs + 1000);
    // Lock one account first (10 password checks), then keep spraying it: locked attempts are cheap
    // to answer but still count against the address.
    // The sprayed account does not exist: it locks after 10 failures exactly like a real one.
    for (let attempt = 0; attempt < SIGN_IN_IP_RULE.limit; attempt++) {
      const res = await signIn("spray@example.com", `s${attempt}`);
      expect(res.status, `attempt ${attempt + 1}`).toBe(attempt < ACCOUNT_FAILURE_RULE.limit ? 401 : 429);
      if (res.status === 429) expect(res.headers.get("retry-after")).toBeTruthy();
    }
    const fresh = await signIn(ctx.config.adminEmail, TEST_PASSWORD, { "x-forwarded-for": "203.0.113.7", "x-real-ip": "203.0.113.7" });
    expect(fresh.status).toBe(429);
    expect(Number(fresh.headers.get("retry-after"))).toBeGreaterThan(0);
    ctx.clock.advance(SIGN_IN_IP_RULE.windowMs + 1000);
    expect((await signIn(ctx.config.adminEmail, TEST_PASSWORD)).status).toBe(200);
  }, 60_000);

  it("limits the beta password endpoint too, until its window passes", async () => {
    const verify = (password: string) => ctx.request("/api/beta/verify", { method: "POST", json: { password } });
    for (let i = 0; i < BETA_FAILURE_RULE.limit; i++) expect((await verify(`guess-${i}`)).status).toBe(401);
    const locked = await verify(TEST_BETA_PASSWORD);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    ctx.clock.advance(BETA_FAILURE_RULE.windowMs + 1000);
    expect((await verify(TEST_BETA_PASSWORD)).status).toBe(200);
  });
});
