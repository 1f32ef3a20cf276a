import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Selectable } from "kysely";
import type { AuditLogTable } from "../../platform/db/schema.ts";
import { TEST_PASSWORD, type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { ACCOUNT_CEILING_RULE, ACCOUNT_FAILURE_RULE, SIGN_IN_IP_RULE } from "./auth.service.ts";
import { SignInThrottle } from "../../platform/identity/sign-in-throttle.ts";

/**
 * Issue 15's findings 1, 2 and 6 replayed against sign-in: guesses sent at once, an attacker
 * locking the admin out, and a flood of sign-ins starving a legitimate one.
 */
describe.each(testDatabaseKinds)("sign-in limits (%s)", (kind) => {
  let ctx: TestContext;
  /** Password checks that really ran. */
  let checks: number;

  beforeEach(async () => {
    ctx = await createTestContext(kind);
    checks = 0;
  });
  afterEach(async () => {
    await ctx.close();
  });

  /** A sign-in from a client whose socket address is `ip` (as @hono/node-server hands it over). */
  const signInFrom = async (ip: string, email: string, password: string): Promise<Response> =>
    ctx.app.request(
      "/api/auth/sign-in",
      { method: "POST", headers: { "content-type": "application/json", "user-agent": "limits-test" }, body: JSON.stringify({ email, password }) },
      { incoming: { socket: { remoteAddress: ip, remotePort: 40000, remoteFamily: "IPv4" } } },
    );

  /**
   * Counts password checks and makes wrong ones cheap (a short wait instead of a full scrypt), so
   * dozens of guesses run in a test; the right password still goes through the real provider.
   */
  function countChecks(wrongCheckMs = 30): void {
    const auth = ctx.deps.auth;
    const real = auth.signIn!.bind(auth);
    auth.signIn = async (email, password) => {
      checks += 1;
      if (password === TEST_PASSWORD) return real(email, password);
      await new Promise((resolve) => setTimeout(resolve, wrongCheckMs));
      return null;
    };
  }

  const auditRows = async (action: string): Promise<Array<Selectable<AuditLogTable>>> =>
    ctx.database.db.selectFrom("audit_log").selectAll().where("action", "=", action).orderBy("created_at").orderBy("id").execute();

  it("finding 1: 40 wrong passwords sent at once from one address run at most 10 checks; the rest answer 429", async () => {
    ctx.deps.signInThrottle = new SignInThrottle({ concurrency: 4, maxQueued: 100, maxPerAddress: 100 });
    countChecks();
    const email = ctx.config.adminEmail;
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => signInFrom("198.51.100.1", email, `guess-${i}`)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(ACCOUNT_FAILURE_RULE.limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - ACCOUNT_FAILURE_RULE.limit);
    expect(checks).toBe(ACCOUNT_FAILURE_RULE.limit);
    for (const res of answers.filter((r) => r.status === 429)) expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    // Exactly one lockout event, whatever the interleaving.
    const lockouts = await auditRows("auth.lockout");
    expect(lockouts).toHaveLength(1);
    expect(lockouts[0]).toMatchObject({ target_type: "user", target_label: email, actor_email: "system" });
    expect(JSON.parse(lockouts[0]!.details)).toMatchObject({ scope: "account_address", effect: "locked", ipAddress: "198.51.100.1", failures: 10 });
    expect(await auditRows("auth.sign_in_failed")).toHaveLength(ACCOUNT_FAILURE_RULE.limit);
  });

  it("finding 1: 39 wrong guesses and the right password at once from one address: at most 10 checks run", async () => {
    ctx.deps.signInThrottle = new SignInThrottle({ concurrency: 4, maxQueued: 100, maxPerAddress: 100 });
    countChecks();
    const email = ctx.config.adminEmail;
    const passwords = Array.from({ length: 39 }, (_, i) => `guess-${i}`);
    passwords.splice(20, 0, TEST_PASSWORD);
    const statuses = (await Promise.all(passwords.map((p) => signInFrom("198.51.100.2", email, p)))).map((r) => r.status);
    expect(checks).toBeLessThanOrEqual(ACCOUNT_FAILURE_RULE.limit);
    expect(statuses.filter((s) => s === 401 || s === 200).length).toBe(checks);
    expect(statuses.filter((s) => s === 429).length).toBe(40 - checks);
  });

  it("finding 2: an attacker who locks the admin's account from one address does not lock the admin out from another", async () => {
    countChecks();
    const email = ctx.config.adminEmail;
    for (let i = 0; i < ACCOUNT_FAILURE_RULE.limit; i++) expect((await signInFrom("203.0.113.66", email, `wrong-${i}`)).status).toBe(401);
    // The attacker's address is locked for this account, the right password included, whatever the spelling.
    expect((await signInFrom("203.0.113.66", email, "wrong-again")).status).toBe(429);
    expect((await signInFrom("203.0.113.66", `  ${email.toUpperCase()} `, TEST_PASSWORD)).status).toBe(429);
    // The real admin, from an address that has not failed, signs in at once.
    const admin = await signInFrom("192.0.2.10", email, TEST_PASSWORD);
    expect(admin.status).toBe(200);
    expect(admin.headers.get("cache-control")).toBe("no-store");
    // …and keeps being able to while the attacker goes on.
    expect((await signInFrom("203.0.113.66", email, "wrong-more")).status).toBe(429);
    expect((await signInFrom("192.0.2.10", email, TEST_PASSWORD)).status).toBe(200);
    // The lock ends with its window.
    ctx.clock.advance(ACCOUNT_FAILURE_RULE.windowMs + 1000);
    expect((await signInFrom("203.0.113.66", email, TEST_PASSWORD)).status).toBe(200);
  });

  it("above the account-wide ceiling, attempts from every address are slowed, not refused", async () => {
    ctx.deps.signInThrottle = new SignInThrottle({ ceilingDelayMs: 400 });
    countChecks(5);
    const email = ctx.config.adminEmail;
    // As if 100 addresses had each failed once.
    for (let i = 0; i < ACCOUNT_CEILING_RULE.limit; i++) await ctx.deps.limiter.hit(`signin-acct:${email}`, ACCOUNT_CEILING_RULE);
    let started = performance.now();
    expect((await signInFrom("198.51.100.30", email, "wrong")).status).toBe(401);
    expect(performance.now() - started).toBeGreaterThanOrEqual(380);
    started = performance.now();
    const admin = await signInFrom("192.0.2.10", email, TEST_PASSWORD);
    expect(admin.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(380);
    const events = await auditRows("auth.lockout");
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.details)).toMatchObject({ scope: "account", effect: "delayed" });
  });

  it("a full password-check queue answers 429 at once, and the attempts it turned away do not count as failures", async () => {
    ctx.deps.signInThrottle = new SignInThrottle({ concurrency: 1, maxQueued: 1, maxPerAddress: 10 });
    countChecks(300);
    const email = "someone@example.com";
    const started = performance.now();
    const timed = Array.from({ length: 6 }, (_, i) =>
      signInFrom(`198.51.100.${50 + i}`, email, "wrong").then((res) => ({ status: res.status, ms: performance.now() - started, retryAfter: res.headers.get("retry-after") })),
    );
    const answers = await Promise.all(timed);
    const refused = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 401)).toHaveLength(2);
    expect(refused).toHaveLength(4);
    for (const a of refused) {
      expect(a.ms).toBeLessThan(250);
      expect(a.retryAfter).toBe("1");
    }
    expect(checks).toBe(2);
    // Only the two checked attempts are failures, on the account-wide counter and per address.
    const rows = await ctx.database.db.selectFrom("rate_limits").select(["bucket", "count"]).where("bucket", "like", "signin-%").execute();
    const count = (bucket: string) => Number(rows.find((r) => r.bucket === bucket)?.count ?? 0);
    expect(count(`signin-acct:${email}`)).toBe(2);
    expect(rows.filter((r) => r.bucket.startsWith(`signin-fail:${email}|`)).reduce((n, r) => n + Number(r.count), 0)).toBe(2);
  });

  it("audits sign-ins: success with the user as actor, failures with the e-mail (or user id) as target", async () => {
    const email = ctx.config.adminEmail;
    const ok = await signInFrom("192.0.2.20", email, TEST_PASSWORD);
    expect(ok.status).toBe(200);
    const requestId = ok.headers.get("x-request-id");
    countChecks();
    expect((await signInFrom("192.0.2.21", "Ghost@Example.com ", "nope")).status).toBe(401);
    expect((await signInFrom("192.0.2.21", email, "nope")).status).toBe(401);
    const [success] = await auditRows("auth.sign_in");
    const adminRow = await ctx.database.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    expect(success).toMatchObject({ actor_email: email, actor_id: adminRow.id, target_type: "user", target_id: adminRow.id, target_label: email, ip_address: "192.0.2.20", request_id: requestId });
    const failures = await auditRows("auth.sign_in_failed");
    expect(failures.map((f) => [f.target_id, f.target_label, f.actor_email])).toEqual([
      ["ghost@example.com", "ghost@example.com", "system"],
      [adminRow.id, email, "system"],
    ]);
    expect(JSON.parse(failures[0]!.details)).toMatchObject({ ipAddress: "192.0.2.21", userAgent: "limits-test" });
  });

  it("the per-address limit still counts every attempt from one address", async () => {
    countChecks(1);
    for (let i = 0; i < SIGN_IN_IP_RULE.limit; i++) await signInFrom("198.51.100.99", `spray-${i}@example.com`, "x");
    expect((await signInFrom("198.51.100.99", ctx.config.adminEmail, TEST_PASSWORD)).status).toBe(429);
    expect((await signInFrom("198.51.100.98", ctx.config.adminEmail, TEST_PASSWORD)).status).toBe(200);
  });

  // 65 sign-ins with the real password hash, one after another: more than the default 30 s on a busy machine.
  it("successful sign-ins give their hit on the address back: an office behind one address is never locked out by them", { timeout: 90_000 }, async () => {
    for (let i = 0; i < SIGN_IN_IP_RULE.limit + 5; i++) {
      expect((await signInFrom("198.51.100.77", ctx.config.adminEmail, TEST_PASSWORD)).status, `sign-in ${i + 1}`).toBe(200);
    }
    // Failed guesses from that address still count as before.
    countChecks(1);
    for (let i = 0; i < SIGN_IN_IP_RULE.limit; i++) await signInFrom("198.51.100.77", `spray-${i}@example.com`, "x");
    expect((await signInFrom("198.51.100.77", ctx.config.adminEmail, TEST_PASSWORD)).status).toBe(429);
  });
});

describe("finding 6: a flood of sign-ins (real scrypt) does not hold up a legitimate sign-in or reads", () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext("sqlite");
  });
  afterEach(async () => {
    await ctx.close();
  });

  const from = async (ip: string, path: string, init: RequestInit = {}): Promise<Response> =>
    ctx.app.request(path, init, { incoming: { socket: { remoteAddress: ip, remotePort: 40000, remoteFamily: "IPv4" } } });
  const signIn = (ip: string, email: string, password: string) =>
    from(ip, "/api/auth/sign-in", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) });

  it("60 sign-ins for unknown e-mails at once: most are refused at once, the admin's own sign-in and a read stay fast", async () => {
    // Before: every one of them ran scrypt, and a valid sign-in waited 8.7 s behind them.
    const { maxPerAddress, concurrency } = ctx.deps.signInThrottle;
    const checkOrder: string[] = [];
    const auth = ctx.deps.auth;
    const real = auth.signIn!.bind(auth);
    auth.signIn = (email, password) => {
      checkOrder.push(email);
      return real(email, password);
    };
    const started = performance.now();
    const flood = Array.from({ length: 60 }, (_, i) => signIn("203.0.113.5", `nobody-${i}@example.com`, "guess").then((res) => ({ status: res.status, ms: performance.now() - started })));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const readStarted = performance.now();
    expect((await from("192.0.2.50", "/api/health")).status).toBe(200);
    const readMs = performance.now() - readStarted;
    const adminStarted = performance.now();
    const admin = await signIn("192.0.2.50", ctx.config.adminEmail, TEST_PASSWORD);
    const adminMs = performance.now() - adminStarted;
    const answers = await Promise.all(flood);
    const single = await timeOneScrypt();

    expect(admin.status).toBe(200);
    const refused = answers.filter((a) => a.status === 429);
    // One address holds at most `maxPerAddress` places: all the others are answered without a check…
    expect(refused.length).toBe(60 - maxPerAddress);
    expect(checkOrder.length).toBe(maxPerAddress + 1);
    // …at once: all of them before the flood's own checks are done.
    const admitted = answers.filter((a) => a.status === 401);
    expect(Math.max(...refused.map((a) => a.ms))).toBeLessThan(Math.max(...admitted.map((a) => a.ms)));
    expect(readMs).toBeLessThan(500);
    // The admin's check waited behind at most the flood's admitted checks, never behind 60 of them.
    expect(checkOrder.indexOf(ctx.config.adminEmail)).toBeLessThanOrEqual(maxPerAddress);
    const rounds = Math.ceil(maxPerAddress / concurrency) + 1;
    expect(adminMs, `admin ${Math.round(adminMs)} ms, one check ${Math.round(single)} ms`).toBeLessThan(single * rounds * 3 + 1000);
  }, 60_000);
});

/** How long one password check takes on this machine right now. */
async function timeOneScrypt(): Promise<number> {
  const { verifyPassword, dummyPasswordHash } = await import("../../platform/identity/password-hash.ts");
  const hash = await dummyPasswordHash();
  const started = performance.now();
  await verifyPassword("x", hash);
  return performance.now() - started;
}
