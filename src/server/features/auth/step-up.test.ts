import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Secret, TOTP } from "otpauth";
import { TEST_PASSWORD, type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";

/** Step-up for dangerous actions (docs/product.md "Step-up"), as finance and an admin meet it through the API. */
describe.each(testDatabaseKinds)("step-up for dangerous actions (%s)", (kind) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext(kind);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const codeNow = (secret: string) => TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30, timestamp: ctx.clock.now().getTime() });
  const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;

  /** A finance member with two-step sign-in, signed in through both steps: the token and the app's secret. */
  async function enrolledFinance(): Promise<{ token: string; secret: string; recoveryCodes: string[] }> {
    const user = await ctx.createUser({ email: "books@example.com", role: "finance" });
    const { secret } = (await (await ctx.request("/api/auth/two-step/setup", { method: "POST", token: user.token })).json()) as { secret: string };
    const confirm = await ctx.request("/api/auth/two-step/confirm", { method: "POST", token: user.token, json: { code: codeNow(secret) } });
    const { recoveryCodes } = (await confirm.json()) as { recoveryCodes: string[] };
    ctx.clock.advance(30_000);
    const { secondStep } = (await (await ctx.request("/api/auth/sign-in", { method: "POST", json: { email: user.email, password: TEST_PASSWORD } })).json()) as { secondStep: { challenge: string } };
    const signedIn = await ctx.request("/api/auth/sign-in/second-step", { method: "POST", json: { challenge: secondStep.challenge, code: codeNow(secret) } });
    expect(signedIn.status).toBe(200);
    return { token: ((await signedIn.json()) as { token: string }).token, secret, recoveryCodes };
  }
  const startRun = (token: string) => ctx.request("/api/admin/financial/payouts/runs", { method: "POST", token, json: { dryRun: true } });

  it("lets a run start within 10 minutes of the sign-in's code, refuses it after with step_up_required, and accepts it after a fresh check", async () => {
    const { token, secret } = await enrolledFinance();
    expect((await startRun(token)).status).not.toBe(403);

    ctx.clock.advance(10 * 60_000 + 1000);
    const refused = await startRun(token);
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toEqual({
      code: "step_up_required",
      message: "Confirm it's you: this action needs a second-factor check, a code from your authenticator app or a passkey (in the last 10 minutes)",
    });
    // Reads and actions that are not dangerous go on without a check.
    expect((await ctx.request("/api/admin/financial/overview", { token })).status).toBe(200);
    expect((await ctx.request("/api/admin/financial/payouts/runs/01890000-0000-7000-8000-000000000000/cancel", { method: "POST", token })).status).toBe(404);

    // A wrong code is refused and changes nothing.
    const wrong = String((Number(codeNow(secret)) + 1) % 1_000_000).padStart(6, "0");
    expect((await ctx.request("/api/auth/step-up", { method: "POST", token, json: { code: wrong } })).status).toBe(401);
    expect((await startRun(token)).status).toBe(403);

    const check = await ctx.request("/api/auth/step-up", { method: "POST", token, json: { code: codeNow(secret) } });
    expect(check.status).toBe(200);
    expect(await check.json()).toEqual({ validUntil: new Date(ctx.clock.now().getTime() + 10 * 60_000).toISOString() });
    expect((await startRun(token)).status).not.toBe(403);
    // The same code is not accepted twice, here as anywhere.
    expect((await ctx.request("/api/auth/step-up", { method: "POST", token, json: { code: codeNow(secret) } })).status).toBe(401);
    const audit = await ctx.database.db
      .selectFrom("audit_log")
      .select(["action", "details"])
      .where("action", "in", ["auth.step_up", "auth.step_up_failed"])
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    expect(audit.map((a) => a.action)).toEqual(["auth.step_up_failed", "auth.step_up", "auth.step_up_failed"]);
  });

  it("holds the check to the session that passed it, and takes a recovery code too", async () => {
    const { token, recoveryCodes } = await enrolledFinance();
    ctx.clock.advance(11 * 60_000);
    expect((await startRun(token)).status).toBe(403);
    expect((await ctx.request("/api/auth/step-up", { method: "POST", token, json: { recoveryCode: recoveryCodes[0] } })).status).toBe(200);
    expect((await startRun(token)).status).not.toBe(403);
  });

  it("guards every action the definitions call dangerous: role changes, access removal, API keys, webhooks, settings", async () => {
    const admin = await ctx.createUser({ email: "boss@example.com", role: "admin" });
    const { secret } = (await (await ctx.request("/api/auth/two-step/setup", { method: "POST", token: admin.token })).json()) as { secret: string };
    await ctx.request("/api/auth/two-step/confirm", { method: "POST", token: admin.token, json: { code: codeNow(secret) } });
    ctx.clock.advance(11 * 60_000);
    const viewer = await ctx.createUser({ email: "someone@example.com", role: "viewer" });
    for (const [method, path, json] of [
      ["PATCH", `/api/admin/users/${viewer.id}`, { role: "support" }],
      ["DELETE", `/api/admin/users/${viewer.id}/access`, undefined],
      ["POST", "/api/admin/integrations/api-keys", { name: "Shop", scopes: ["events:write"] }],
      ["POST", "/api/admin/integrations/webhooks", { url: "https://shop.example/hooks", eventTypes: ["payout.paid"] }],
      ["PUT", "/api/admin/settings", { platform_fee_percentage: "2" }],
    ] as const) {
      const res = await ctx.request(path, { method, token: admin.token, ...(json ? { json } : {}) });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect((await errorOf(res)).code, path).toBe("step_up_required");
    }
    // An admin without two-step sign-in has nothing to be asked for (docs/product.md "Step-up"): the 'Require' setting closes that gap.
    const plain = await ctx.createUser({ email: "plain@example.com", role: "admin" });
    expect((await ctx.request("/api/admin/settings", { method: "PUT", token: plain.token, json: { platform_fee_percentage: "2" } })).status).toBe(200);
    expect((await ctx.request("/api/auth/step-up", { method: "POST", token: plain.token, json: { code: "123456" } })).status).toBe(409);
  });
});
