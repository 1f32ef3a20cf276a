import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Secret, TOTP } from "otpauth";
import { meResponseSchema } from "../../../contract/auth.ts";
import { TEST_PASSWORD, type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";

/** 'Require two-step sign-in for all staff' (docs/product.md "Two-step sign-in"), as staff and an admin meet it through the API. */
describe.each(testDatabaseKinds)("two-step sign-in required for all staff (%s)", (kind) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext(kind);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const codeNow = (secret: string) => TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30, timestamp: ctx.clock.now().getTime() });
  const signIn = async (email: string) => {
    const res = await ctx.request("/api/auth/sign-in", { method: "POST", json: { email, password: TEST_PASSWORD } });
    expect(res.status).toBe(200);
    return (await res.json()) as { token?: string; twoStepEnrolmentDue?: boolean; secondStep?: { challenge: string } };
  };
  const requireTwoStep = async (token: string, value: boolean) => {
    const res = await ctx.request("/api/admin/settings", { method: "PUT", token, json: { require_two_step_sign_in: value } });
    expect(res.status, await res.clone().text()).toBe(200);
  };
  const enrol = async (token: string) => {
    const { secret } = (await (await ctx.request("/api/auth/two-step/setup", { method: "POST", token })).json()) as { secret: string };
    const confirm = await ctx.request("/api/auth/two-step/confirm", { method: "POST", token, json: { code: codeNow(secret) } });
    expect(confirm.status).toBe(200);
    return secret;
  };

  it("sends staff without a second factor to enrol at their next sign-in: the answer says so and the panel waits until they do", async () => {
    const admin = await ctx.createUser({ email: "boss@example.com", role: "admin" });
    const finance = await ctx.createUser({ email: "books@example.com", role: "finance" });
    await requireTwoStep(admin.token, true);
    // Sessions opened before keep going: the requirement meets each at its next sign-in.
    expect((await ctx.request("/api/admin/vendors", { token: finance.token })).status).toBe(200);

    const answer = await signIn(finance.email);
    expect(answer.twoStepEnrolmentDue).toBe(true);
    const token = answer.token!;
    const me = meResponseSchema.parse(await (await ctx.request("/api/auth/me", { token })).json());
    expect(me.user).toMatchObject({ staffRole: "finance", twoStepEnrolmentDue: true });
    // Every panel route, read or change, waits for the enrolment; the enrolment itself is open.
    for (const [method, path] of [
      ["GET", "/api/admin/vendors"],
      ["GET", "/api/admin/financial/overview"],
      ["POST", "/api/admin/financial/payouts/runs"],
    ] as const) {
      const res = await ctx.request(path, { method, token, ...(method === "POST" ? { json: { dryRun: true } } : {}) });
      expect(res.status, path).toBe(403);
      expect(((await res.json()) as { error: { code: string; message: string } }).error).toEqual({
        code: "two_step_enrolment_required",
        message: "Two-step sign-in is required for all staff: set it up to continue",
      });
    }
    await enrol(token);
    expect(meResponseSchema.parse(await (await ctx.request("/api/auth/me", { token })).json()).user.twoStepEnrolmentDue).toBe(false);
    expect((await ctx.request("/api/admin/vendors", { token })).status).toBe(200);
    // Next time the password is followed by the code, as for anyone enrolled.
    ctx.clock.advance(30_000);
    expect((await signIn(finance.email)).secondStep).toBeDefined();
  });

  it("asks nothing more of staff who have a second factor, nor of anyone while the setting is off", async () => {
    const admin = await ctx.createUser({ email: "boss@example.com", role: "admin" });
    const support = await ctx.createUser({ email: "help@example.com", role: "support" });
    const off = await signIn(support.email);
    expect(off.twoStepEnrolmentDue).toBeUndefined();
    expect((await ctx.request("/api/admin/vendors", { token: off.token! })).status).toBe(200);
    await enrol(admin.token);
    await requireTwoStep(admin.token, true);
    expect((await signIn(admin.email)).secondStep).toBeDefined();
  });

  it("keeps the last factor while it is required: turning it off is refused (409), an admin's reset still works and the next sign-in enrols again", async () => {
    const admin = await ctx.createUser({ email: "boss@example.com", role: "admin" });
    const support = await ctx.createUser({ email: "help@example.com", role: "support" });
    const secret = await enrol(support.token);
    await requireTwoStep(admin.token, true);
    ctx.clock.advance(30_000);
    const off = await ctx.request("/api/auth/two-step", { method: "DELETE", token: support.token, json: { code: codeNow(secret) } });
    expect(off.status).toBe(409);
    expect(((await off.json()) as { error: { message: string } }).error.message).toBe(
      "Two-step sign-in is required for all staff: it cannot be turned off (an admin can reset it if your phone is lost)",
    );
    expect((await ctx.request("/api/auth/two-step", { token: support.token })).status).toBe(200);
    expect(((await (await ctx.request("/api/auth/two-step", { token: support.token })).json()) as { enrolled: boolean }).enrolled).toBe(true);

    const reset = await ctx.request(`/api/admin/users/${support.id}/two-step/reset`, { method: "POST", token: admin.token });
    expect(reset.status).toBe(200);
    expect((await signIn(support.email)).twoStepEnrolmentDue).toBe(true);
  });

  it("holds a new invitee's first session at the enrolment too", async () => {
    const admin = await ctx.createUser({ email: "ops@hki.global" });
    await requireTwoStep(admin.token, true);
    const sent = await ctx.request("/api/admin/users/invite", { method: "POST", token: admin.token, json: { email: "newbie@example.com", role: "support" } });
    const link = ((await sent.json()) as { invitation: { link: string } }).invitation.link;
    const accepted = await ctx.request("/api/auth/invitations/accept", {
      method: "POST",
      json: { token: new URL(link).searchParams.get("token"), name: "Newbie", password: "a long enough passphrase" },
    });
    const session = (await accepted.json()) as { token: string; twoStepEnrolmentDue?: boolean };
    expect(session.twoStepEnrolmentDue).toBe(true);
    expect((await ctx.request("/api/admin/vendors", { token: session.token })).status).toBe(403);
  });
});
