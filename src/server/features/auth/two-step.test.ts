import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Secret, TOTP } from "otpauth";
import { TEST_PASSWORD, type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";

/** Two-step sign-in (docs/product.md "Two-step sign-in"), as a user and an admin meet it through the API. */
describe.each(testDatabaseKinds)("two-step sign-in (%s)", (kind) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext(kind);
  });
  afterEach(async () => {
    await ctx.close();
  });

  /** The code an authenticator app with this secret shows at the test clock's time. */
  const codeNow = (secret: string) => TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30, timestamp: ctx.clock.now().getTime() });
  /** Another 6-digit code than the right one. */
  const wrongCode = (secret: string) => String((Number(codeNow(secret)) + 1) % 1_000_000).padStart(6, "0");

  const signIn = (email: string, password = TEST_PASSWORD) => ctx.request("/api/auth/sign-in", { method: "POST", json: { email, password } });
  const secondStep = (body: Record<string, unknown>) => ctx.request("/api/auth/sign-in/second-step", { method: "POST", json: body });
  const openSessions = async (userId: string) => (await ctx.database.db.selectFrom("sessions").select("id").where("user_id", "=", userId).where("revoked_at", "is", null).execute()).length;

  async function challengeFor(email: string): Promise<string> {
    const res = await signIn(email);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { secondStep?: { challenge: string; expiresAt: string }; token?: string };
    expect(body.token).toBeUndefined();
    return body.secondStep!.challenge;
  }

  /** Enrols the user through the API as the dialog does; answers the secret and the recovery codes. */
  async function enrol(token: string): Promise<{ secret: string; recoveryCodes: string[] }> {
    const setup = await ctx.request("/api/auth/two-step/setup", { method: "POST", token });
    expect(setup.status).toBe(200);
    const { secret, otpauthUri, qrSvg } = (await setup.json()) as { secret: string; otpauthUri: string; qrSvg: string };
    expect(otpauthUri).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    expect(otpauthUri).toContain("algorithm=SHA1&digits=6&period=30");
    expect(qrSvg).toMatch(/^<svg/);
    const confirm = await ctx.request("/api/auth/two-step/confirm", { method: "POST", token, json: { code: codeNow(secret) } });
    expect(confirm.status).toBe(200);
    const { recoveryCodes } = (await confirm.json()) as { recoveryCodes: string[] };
    return { secret, recoveryCodes };
  }

  it("enrols with a confirmed code, then asks for a code after the password and opens no session before it", async () => {
    const user = await ctx.createUser({ email: "ops@example.com", role: "admin" });
    const setup = await ctx.request("/api/auth/two-step/setup", { method: "POST", token: user.token });
    const { secret } = (await setup.json()) as { secret: string };
    // Not active until confirmed: the password alone still signs in.
    expect(((await (await signIn(user.email)).json()) as { token?: string }).token).toBeDefined();
    expect((await ctx.request("/api/auth/two-step/confirm", { method: "POST", token: user.token, json: { code: wrongCode(secret) } })).status).toBe(401);
    const confirm = await ctx.request("/api/auth/two-step/confirm", { method: "POST", token: user.token, json: { code: codeNow(secret) } });
    expect(confirm.status).toBe(200);
    const { recoveryCodes } = (await confirm.json()) as { recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const status = await ctx.request("/api/auth/two-step", { token: user.token });
    expect(await status.json()).toEqual({ enrolled: true, recoveryCodesLeft: 10 });
    // Stored sealed and hashed: neither the secret nor a recovery code is in the database as given.
    const stored = JSON.stringify([await ctx.database.db.selectFrom("user_two_step").selectAll().execute(), await ctx.database.db.selectFrom("two_step_recovery_codes").selectAll().execute()]);
    expect(stored).not.toContain(secret);
    for (const code of recoveryCodes) expect(stored).not.toContain(code.replaceAll("-", ""));

    const sessionsBefore = await openSessions(user.id);
    const challenge = await challengeFor(user.email);
    expect(await openSessions(user.id)).toBe(sessionsBefore);
    // The code that confirmed the enrolment was accepted once: within its 30 s it is refused.
    expect((await secondStep({ challenge, code: codeNow(secret) })).status).toBe(401);
    ctx.clock.advance(30_000);
    const code = codeNow(secret);
    const done = await secondStep({ challenge, code });
    expect(done.status).toBe(200);
    const session = (await done.json()) as { token: string; user: { email: string } };
    expect(session.user.email).toBe(user.email);
    expect((await ctx.request("/api/auth/me", { token: session.token })).status).toBe(200);
    expect(await openSessions(user.id)).toBe(sessionsBefore + 1);
    // The same challenge is spent; the same code with a new challenge is a replay.
    expect((await secondStep({ challenge, code })).status).toBe(401);
    expect((await secondStep({ challenge: await challengeFor(user.email), code })).status).toBe(401);
    const audit = await ctx.database.db.selectFrom("audit_log").select(["action", "details"]).where("target_id", "=", user.id).orderBy("created_at").orderBy("id").execute();
    expect(audit.map((row) => row.action)).toEqual(expect.arrayContaining(["auth.two_step_setup", "auth.two_step_enable", "auth.sign_in", "auth.sign_in_failed"]));
    expect(audit.some((row) => row.action === "auth.sign_in" && JSON.parse(row.details).secondStep === "totp")).toBe(true);
  });

  it("accepts each recovery code once, in any case and without its dashes", async () => {
    const user = await ctx.createUser({ email: "ops@example.com", role: "admin" });
    const { recoveryCodes } = await enrol(user.token);
    const first = recoveryCodes[0]!;
    expect((await secondStep({ challenge: await challengeFor(user.email), recoveryCode: first.replaceAll("-", "").toUpperCase() })).status).toBe(200);
    expect(await (await ctx.request("/api/auth/two-step", { token: user.token })).json()).toEqual({ enrolled: true, recoveryCodesLeft: 9 });
    expect((await secondStep({ challenge: await challengeFor(user.email), recoveryCode: first })).status).toBe(401);
    expect((await secondStep({ challenge: await challengeFor(user.email), recoveryCode: recoveryCodes[1]! })).status).toBe(200);
  });

  it("counts wrong codes in the sign-in limit: after 10 the right code and the right password answer 429", async () => {
    const user = await ctx.createUser({ email: "ops@example.com", role: "admin" });
    const { secret } = await enrol(user.token);
    ctx.clock.advance(30_000);
    const challenge = await challengeFor(user.email);
    for (let i = 0; i < 10; i++) expect((await secondStep({ challenge, code: wrongCode(secret) })).status).toBe(401);
    const refused = await secondStep({ challenge, code: codeNow(secret) });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await signIn(user.email)).status).toBe(429);
    // A right password in between does not wipe the count the codes are limited by.
    ctx.clock.advance(15 * 60_000 + 1000);
    const fresh = await challengeFor(user.email);
    for (let i = 0; i < 9; i++) expect((await secondStep({ challenge: fresh, code: wrongCode(secret) })).status).toBe(401);
    await challengeFor(user.email);
    expect((await secondStep({ challenge: fresh, code: wrongCode(secret) })).status).toBe(401);
    expect((await secondStep({ challenge: fresh, code: codeNow(secret) })).status).toBe(429);
  });

  it("counts wrong codes in the per-address limit too: guesses spread over accounts from one address reach it", async () => {
    // 7 accounts × 9 wrong codes = 63 from one address: no account reaches its own 10, the address its 60.
    const users = [];
    for (let i = 0; i < 7; i++) {
      const user = await ctx.createUser({ email: `staff-${i}@example.com`, role: "support" });
      users.push({ ...user, ...(await enrol(user.token)) });
    }
    ctx.clock.advance(30_000);
    let refused = 0;
    for (const user of users) {
      const challenge = await challengeFor(user.email);
      for (let i = 0; i < 9; i++) {
        const status = (await secondStep({ challenge, code: wrongCode(user.secret) })).status;
        expect([401, 429]).toContain(status);
        if (status === 429) refused += 1;
      }
    }
    expect(refused).toBe(3);
    // The address is held now, even for a right code of an account it never guessed at.
    const last = users.at(-1)!;
    expect((await signIn(last.email)).status).toBe(429);
  });

  it("accepts one code once even when it is sent twice at the same moment", async () => {
    const user = await ctx.createUser({ email: "ops@example.com", role: "admin" });
    const { secret } = await enrol(user.token);
    ctx.clock.advance(30_000);
    const [first, second] = [await challengeFor(user.email), await challengeFor(user.email)];
    const code = codeNow(secret);
    const answers = await Promise.all([secondStep({ challenge: first, code }), secondStep({ challenge: second, code })]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it("refuses a challenge after its 5 minutes, and bodies with neither or an unknown field name the field", async () => {
    const user = await ctx.createUser({ email: "ops@example.com", role: "admin" });
    const { secret } = await enrol(user.token);
    const challenge = await challengeFor(user.email);
    ctx.clock.advance(5 * 60_000 + 1000);
    expect((await secondStep({ challenge, code: codeNow(secret) })).status).toBe(401);
    const neither = await secondStep({ challenge });
    expect(neither.status).toBe(400);
    expect(((await neither.json()) as { error: { message: string } }).error.message).toMatch(/code/);
    const unknown = await secondStep({ challenge, code: "123456", remember: true });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch(/remember/);
    const letters = await ctx.request("/api/auth/two-step/confirm", { method: "POST", token: user.token, json: { code: "abcdef" } });
    expect(letters.status).toBe(400);
    expect(((await letters.json()) as { error: { message: string } }).error.message).toMatch(/code/);
  });

  it("turns off with a current code; the password alone signs in again", async () => {
    const user = await ctx.createUser({ email: "ops@example.com", role: "admin" });
    const { secret } = await enrol(user.token);
    ctx.clock.advance(30_000);
    expect((await ctx.request("/api/auth/two-step", { method: "DELETE", token: user.token, json: { code: wrongCode(secret) } })).status).toBe(401);
    expect((await ctx.request("/api/auth/two-step", { method: "DELETE", token: user.token, json: { code: codeNow(secret) } })).status).toBe(204);
    expect(await (await ctx.request("/api/auth/two-step", { token: user.token })).json()).toEqual({ enrolled: false, recoveryCodesLeft: 0 });
    expect(((await (await signIn(user.email)).json()) as { token?: string }).token).toBeDefined();
  });

  it("lets an admin reset another's two-step sign-in: audited, their sessions end, their password alone signs in", async () => {
    const admin = await ctx.createUser({ email: "lead@example.com", role: "admin" });
    const viewer = await ctx.createUser({ email: "ops@example.com", role: "viewer" });
    await enrol(viewer.token);
    const listed = (await (await ctx.request("/api/admin/users?search=ops@", { token: admin.token })).json()) as { users: Array<{ email: string; twoStep: boolean }> };
    expect(listed.users.find((u) => u.email === viewer.email)?.twoStep).toBe(true);

    expect((await ctx.request(`/api/admin/users/${viewer.id}/two-step/reset`, { method: "POST", token: viewer.token })).status).toBe(403);
    const reset = await ctx.request(`/api/admin/users/${viewer.id}/two-step/reset`, { method: "POST", token: admin.token });
    expect(reset.status).toBe(200);
    expect(await reset.json()).toEqual({ sessionsEnded: 1 });
    expect((await ctx.request("/api/auth/me", { token: viewer.token })).status).toBe(401);
    const row = await ctx.database.db.selectFrom("audit_log").selectAll().where("action", "=", "user.two_step_reset").executeTakeFirstOrThrow();
    expect(row).toMatchObject({ actor_email: admin.email, target_id: viewer.id, target_label: viewer.email });
    expect(((await (await signIn(viewer.email)).json()) as { token?: string }).token).toBeDefined();
    expect((await ctx.request(`/api/admin/users/${viewer.id}/two-step/reset`, { method: "POST", token: admin.token })).status).toBe(409);
    expect((await ctx.request(`/api/admin/users/no-such-user/two-step/reset`, { method: "POST", token: admin.token })).status).toBe(404);
  });
});
