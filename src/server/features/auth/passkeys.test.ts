import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Secret, TOTP } from "otpauth";
import type { Passkey, PasskeyCreationOptions, PasskeyRequestOptions } from "../../../contract/auth.ts";
import { SoftwareAuthenticator } from "../../testing/software-authenticator.ts";
import { TEST_PASSWORD, type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { canRemoveLastFactor } from "../../platform/identity/second-factors.ts";
import { PasskeysService } from "./passkeys.service.ts";

const PANEL = "https://admin.example.com";

/** Passkeys (docs/product.md "Two-step sign-in") as a user meets them through the API, with a software authenticator. */
describe.each(testDatabaseKinds)("passkeys (%s)", (kind) => {
  let ctx: TestContext;
  let authenticator: SoftwareAuthenticator;
  beforeEach(async () => {
    ctx = await createTestContext(kind, { env: { PUBLIC_URL: PANEL } });
    authenticator = new SoftwareAuthenticator(PANEL);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const post = (path: string, json?: unknown, token?: string) => ctx.request(path, { method: "POST", ...(json !== undefined ? { json } : {}), ...(token ? { token } : {}) });

  async function registrationOptions(token: string): Promise<PasskeyCreationOptions> {
    const res = await post("/api/auth/passkeys/registration-options", undefined, token);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as PasskeyCreationOptions;
  }

  /** Registers a passkey through the API as the user menu does; answers it. */
  async function register(token: string, name: string): Promise<Passkey> {
    const response = authenticator.register(await registrationOptions(token));
    const res = await post("/api/auth/passkeys", { name, response }, token);
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as Passkey;
  }

  async function signInOptions(): Promise<PasskeyRequestOptions> {
    const res = await post("/api/auth/sign-in/passkey/options");
    expect(res.status).toBe(200);
    return (await res.json()) as PasskeyRequestOptions;
  }

  const list = async (token: string) => ((await (await ctx.request("/api/auth/passkeys", { token })).json()) as { passkeys: Passkey[] }).passkeys;
  const auditActions = async (targetType: string) =>
    (await ctx.database.db.selectFrom("audit_log").select(["action", "details"]).where("target_type", "=", targetType).orderBy("created_at").orderBy("id").execute()).map((r) => r.action);

  it("registers several passkeys with a discoverable, verified credential; lists, renames and removes them, one audit row each", async () => {
    const user = await ctx.createUser({ email: "ops@example.com", role: "admin" });
    const options = await registrationOptions(user.token);
    expect(options.rp).toEqual({ name: "HKI Global Admin", id: "admin.example.com" });
    expect(options.attestation).toBe("none");
    expect(options.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
    const laptop = await register(user.token, "  Laptop  ");
    const key = await register(user.token, "YubiKey");
    expect(laptop.name).toBe("Laptop");
    expect((await list(user.token)).map((p) => p.name)).toEqual(["Laptop", "YubiKey"]);
    // The next registration's options name both, so an authenticator does not make a second one.
    expect((await registrationOptions(user.token)).excludeCredentials?.map((c) => c.id).sort()).toEqual([...authenticator.credentialIds].sort());

    const renamed = await ctx.request(`/api/auth/passkeys/${key.id}`, { method: "PATCH", token: user.token, json: { name: "Desk key" } });
    expect(renamed.status).toBe(200);
    expect(((await renamed.json()) as Passkey).name).toBe("Desk key");
    expect((await ctx.request(`/api/auth/passkeys/${laptop.id}`, { method: "DELETE", token: user.token })).status).toBe(204);
    expect((await list(user.token)).map((p) => p.name)).toEqual(["Desk key"]);
    expect(await auditActions("passkey")).toEqual(["auth.passkey_add", "auth.passkey_add", "auth.passkey_rename", "auth.passkey_remove"]);

    // Another user sees none of them and cannot touch them.
    const other = await ctx.createUser({ email: "other@example.com", role: "admin" });
    expect(await list(other.token)).toEqual([]);
    expect((await ctx.request(`/api/auth/passkeys/${key.id}`, { method: "PATCH", token: other.token, json: { name: "Mine" } })).status).toBe(404);
    expect((await ctx.request(`/api/auth/passkeys/${key.id}`, { method: "DELETE", token: other.token })).status).toBe(404);
  });

  it("signs in with a passkey alone (no e-mail), as the password sign-in answers, and records when it was used", async () => {
    const user = await ctx.createUser({ email: "ops@example.com", role: "admin" });
    const laptop = await register(user.token, "Laptop");
    const options = await signInOptions();
    expect(options.allowCredentials).toEqual([]);
    expect(options.rpId).toBe("admin.example.com");
    expect(options.userVerification).toBe("required");
    const res = await post("/api/auth/sign-in/passkey", { response: authenticator.assert(options) });
    expect(res.status, await res.clone().text()).toBe(200);
    const session = (await res.json()) as { token: string; expiresAt: string; user: { email: string; isAdmin: boolean } };
    expect(session.user).toMatchObject({ email: "ops@example.com", isAdmin: true });
    expect((await ctx.request("/api/auth/me", { token: session.token })).status).toBe(200);
    expect((await list(user.token)).find((p) => p.id === laptop.id)?.lastUsedAt).toBe(ctx.clock.now().toISOString());
    const signIns = await ctx.database.db.selectFrom("audit_log").select("details").where("action", "=", "auth.sign_in").where("target_id", "=", user.id).execute();
    expect(signIns.map((r) => JSON.parse(r.details) as Record<string, unknown>)).toContainEqual(expect.objectContaining({ method: "passkey", device: "Laptop" }));
  });

  it("refuses another origin, another RP ID, a replayed challenge, an unknown passkey, a counter going back and no user verification", async () => {
    const user = await ctx.createUser({ email: "ops@example.com", role: "admin" });
    await register(user.token, "Laptop");
    const attempt = async (bend: Parameters<SoftwareAuthenticator["assert"]>[1], options?: PasskeyRequestOptions, by = authenticator) =>
      (await post("/api/auth/sign-in/passkey", { response: by.assert(options ?? (await signInOptions()), bend) })).status;

    expect(await attempt({ origin: "https://evil.example" })).toBe(401);
    expect(await attempt({ rpId: "evil.example" })).toBe(401);
    expect(await attempt({ flags: 0x01 })).toBe(401);
    // A passkey this panel never registered (another authenticator's).
    const stranger = new SoftwareAuthenticator(PANEL);
    stranger.register({ ...(await registrationOptions(user.token)) });
    expect(await attempt({}, undefined, stranger)).toBe(401);

    // A challenge works once: the same options answered again, even correctly, are refused.
    const options = await signInOptions();
    expect(await attempt({}, options)).toBe(200);
    expect(await attempt({}, options)).toBe(401);
    // A challenge of another ceremony, or older than 5 minutes, is refused too.
    expect(await attempt({ challenge: (await registrationOptions(user.token)).challenge })).toBe(401);
    const stale = await signInOptions();
    ctx.clock.advance(5 * 60_000 + 1000);
    expect(await attempt({}, stale)).toBe(401);

    // A counter lower than the last one seen: a cloned authenticator.
    expect(await attempt({ signCount: 100 })).toBe(200);
    expect(await attempt({ signCount: 50 })).toBe(401);
    expect(await attempt({ signCount: 100 })).toBe(401);
    expect(await attempt({ signCount: 101 })).toBe(200);

    const failures = await ctx.database.db.selectFrom("audit_log").select("details").where("action", "=", "auth.sign_in_failed").execute();
    expect(failures.length).toBeGreaterThanOrEqual(8);
    expect(failures.every((r) => (JSON.parse(r.details) as { factor?: string }).factor === "passkey")).toBe(true);
  });

  it("refuses a registration made on another origin or RP ID, without user verification, or for a spent challenge, naming `response`", async () => {
    const user = await ctx.createUser({ email: "ops@example.com", role: "admin" });
    const refused = async (bend: Parameters<SoftwareAuthenticator["register"]>[1], options?: PasskeyCreationOptions) => {
      const res = await post("/api/auth/passkeys", { name: "Laptop", response: authenticator.register(options ?? (await registrationOptions(user.token)), bend) }, user.token);
      expect(res.status).toBe(400);
      return ((await res.json()) as { error: { fields: Record<string, string> } }).error.fields;
    };
    expect((await refused({ origin: "https://evil.example" })).response).toMatch(/origin/i);
    expect((await refused({ rpId: "evil.example" })).response).toMatch(/RP ID/i);
    expect((await refused({ flags: 0x01 | 0x40 })).response).toMatch(/verif/i);
    const options = await registrationOptions(user.token);
    expect((await post("/api/auth/passkeys", { name: "Laptop", response: authenticator.register(options) }, user.token)).status).toBe(201);
    expect((await refused({}, options)).response).toMatch(/expired or was answered already/);
    // Options made for one user cannot register a passkey on another's account.
    const other = await ctx.createUser({ email: "other@example.com", role: "admin" });
    expect((await post("/api/auth/passkeys", { name: "Theirs", response: authenticator.register(await registrationOptions(user.token)) }, other.token)).status).toBe(400);
    expect(await list(user.token)).toHaveLength(1);
    expect(await list(other.token)).toHaveLength(0);
    expect(await auditActions("passkey")).toEqual(["auth.passkey_add"]);
  });

  it("strict bodies: unknown keys, a missing or control-character name and a malformed response are 400 naming the field", async () => {
    const user = await ctx.createUser({ email: "ops@example.com", role: "admin" });
    const response = authenticator.register(await registrationOptions(user.token));
    const fields = async (json: unknown) => {
      const res = await post("/api/auth/passkeys", json, user.token);
      expect(res.status).toBe(400);
      return Object.keys(((await res.json()) as { error: { fields: Record<string, string> } }).error.fields);
    };
    expect(await fields({ name: "Laptop", response, admin: true })).toContain("admin");
    expect(await fields({ name: "Laptop", response: { ...response, extra: 1 } })).toContain("response.extra");
    expect(await fields({ name: "  ", response })).toContain("name");
    expect(await fields({ name: "Lap\u202Etop", response })).toContain("name");
    expect(await fields({ name: "Laptop", response: { ...response, id: "not base64url!" } })).toContain("response.id");
    expect(await fields({ name: "Laptop" })).toContain("response");
    const signIn = await post("/api/auth/sign-in/passkey", { response: { ...response, response: {} } });
    expect(signIn.status).toBe(400);
  });

  it("a password sign-in of a user with only passkeys asks for a second step, which a passkey answers", async () => {
    const user = await ctx.createUser({ email: "ops@example.com", role: "admin" });
    await register(user.token, "Laptop");
    const signIn = await post("/api/auth/sign-in", { email: user.email, password: TEST_PASSWORD });
    const { secondStep } = (await signIn.json()) as { secondStep: { challenge: string; factors: string[] } };
    expect(secondStep.factors).toEqual(["passkey"]);
    // No authenticator app: a 6-digit code cannot answer it.
    expect((await post("/api/auth/sign-in/second-step", { challenge: secondStep.challenge, code: "123456" })).status).toBe(401);

    const optionsRes = await post("/api/auth/sign-in/second-step/passkey/options", { challenge: secondStep.challenge });
    expect(optionsRes.status).toBe(200);
    const options = (await optionsRes.json()) as PasskeyRequestOptions;
    expect(options.allowCredentials?.map((c) => c.id)).toEqual(authenticator.credentialIds);
    // A passkey answer made for the sign-in-alone ceremony does not count as this second step.
    const wrongCeremony = authenticator.assert(await signInOptions());
    expect((await post("/api/auth/sign-in/second-step/passkey", { challenge: secondStep.challenge, response: wrongCeremony })).status).toBe(401);
    const done = await post("/api/auth/sign-in/second-step/passkey", { challenge: secondStep.challenge, response: authenticator.assert(options) });
    expect(done.status, await done.clone().text()).toBe(200);
    expect(((await done.json()) as { user: { email: string } }).user.email).toBe(user.email);
    // The sign-in's challenge is spent.
    expect((await post("/api/auth/sign-in/second-step/passkey/options", { challenge: secondStep.challenge })).status).toBe(401);
    const rows = await ctx.database.db.selectFrom("audit_log").select(["action", "details"]).where("target_id", "=", user.id).execute();
    expect(rows.some((r) => r.action === "auth.sign_in" && (JSON.parse(r.details) as { secondStep?: string }).secondStep === "passkey")).toBe(true);
    expect(rows.some((r) => r.action === "auth.sign_in_failed" && (JSON.parse(r.details) as { factor?: string }).factor === "passkey")).toBe(true);
  });

  it("a second step by another user's passkey is refused", async () => {
    const user = await ctx.createUser({ email: "ops@example.com", role: "admin" });
    await register(user.token, "Mine");
    const intruder = await ctx.createUser({ email: "intruder@example.com", role: "admin" });
    const theirs = new SoftwareAuthenticator(PANEL);
    const response = theirs.register(await registrationOptions(intruder.token));
    expect((await post("/api/auth/passkeys", { name: "Theirs", response }, intruder.token)).status).toBe(201);
    const { secondStep } = (await (await post("/api/auth/sign-in", { email: user.email, password: TEST_PASSWORD })).json()) as { secondStep: { challenge: string } };
    const options = (await (await post("/api/auth/sign-in/second-step/passkey/options", { challenge: secondStep.challenge })).json()) as PasskeyRequestOptions;
    expect((await post("/api/auth/sign-in/second-step/passkey", { challenge: secondStep.challenge, response: theirs.assert(options, { credentialId: theirs.credentialIds[0]! }) })).status).toBe(401);
  });

  it("counts passkey sign-ins in the sign-in limit per address: the 61st attempt in 15 minutes answers 429", async () => {
    await ctx.createUser({ email: "ops@example.com", role: "admin" });
    const options = await signInOptions();
    // A passkey this panel never registered.
    const stranger = new SoftwareAuthenticator(PANEL);
    stranger.register({ rp: { name: "Elsewhere", id: "admin.example.com" }, user: { id: "dXNlcg", name: "u", displayName: "u" }, challenge: "c", pubKeyCredParams: [] });
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await post("/api/auth/sign-in/passkey", { response: stranger.assert(options) })).status);
    expect(statuses.slice(0, 60).every((s) => s === 401)).toBe(true);
    expect(statuses[60]).toBe(429);
  });

  it("limits the passkey ceremonies one address starts (options, each storing a challenge): the 121st in 15 minutes answers 429", async () => {
    for (let i = 0; i < 120; i++) expect((await post("/api/auth/sign-in/passkey/options")).status).toBe(200);
    const refused = await post("/api/auth/sign-in/passkey/options");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    ctx.clock.advance(15 * 60_000 + 1000);
    expect((await post("/api/auth/sign-in/passkey/options")).status).toBe(200);
    // Expired challenges are cleared as new ones are made: the table does not keep the flood.
    expect(await ctx.database.db.selectFrom("webauthn_challenges").select("id").execute()).toHaveLength(1);
  });

  it("an admin's two-step reset removes the user's passkeys and the password alone signs in again", async () => {
    const user = await ctx.createUser({ email: "ops@example.com", role: "admin" });
    await register(user.token, "Laptop");
    const admin = await ctx.createUser({ email: "boss@hki.global", role: "admin" });
    // The Users tab offers the reset for a passkey alone, as for an authenticator app.
    const staff = (await (await ctx.request("/api/admin/users?limit=100", { token: admin.token })).json()) as { users: Array<{ email: string; twoStep?: boolean }> };
    expect(staff.users.find((u) => u.email === user.email)?.twoStep).toBe(true);
    const reset = await ctx.request(`/api/admin/users/${user.id}/two-step/reset`, { method: "POST", token: admin.token });
    expect(reset.status).toBe(200);
    expect(await ctx.database.db.selectFrom("passkeys").select("id").where("user_id", "=", user.id).execute()).toEqual([]);
    const row = await ctx.database.db.selectFrom("audit_log").select("details").where("action", "=", "user.two_step_reset").executeTakeFirstOrThrow();
    expect(JSON.parse(row.details)).toMatchObject({ passkeysRemoved: 1 });
    // The password alone signs in again.
    expect(((await (await post("/api/auth/sign-in", { email: user.email, password: TEST_PASSWORD })).json()) as { token?: string }).token).toBeDefined();
  });

  it("keeps the last factor while two-step sign-in is required (canRemoveLastFactor)", async () => {
    expect(canRemoveLastFactor({ totp: false, passkeys: 1 }, "passkey", false)).toBe(true);
    expect(canRemoveLastFactor({ totp: false, passkeys: 1 }, "passkey", true)).toBe(false);
    expect(canRemoveLastFactor({ totp: false, passkeys: 2 }, "passkey", true)).toBe(true);
    expect(canRemoveLastFactor({ totp: true, passkeys: 1 }, "passkey", true)).toBe(true);
    expect(canRemoveLastFactor({ totp: true, passkeys: 0 }, "totp", true)).toBe(false);
    expect(canRemoveLastFactor({ totp: true, passkeys: 1 }, "totp", true)).toBe(true);

    const user = await ctx.createUser({ email: "ops@example.com", role: "admin" });
    const only = await register(user.token, "Only");
    const required = new PasskeysService(ctx.deps, async () => true);
    const actor = { user: { id: user.id, email: user.email, name: null, role: "admin" as const, isAdmin: true }, clientIp: "127.0.0.1", userAgent: null, requestId: "test" };
    await expect(required.remove(actor, only.id)).rejects.toMatchObject({ status: 409 });
    expect(await list(user.token)).toHaveLength(1);
    // With an authenticator app as well, the passkey may go.
    const setup = (await (await post("/api/auth/two-step/setup", undefined, user.token)).json()) as { secret: string };
    const code = TOTP.generate({ secret: Secret.fromBase32(setup.secret), algorithm: "SHA1", digits: 6, period: 30, timestamp: ctx.clock.now().getTime() });
    expect((await post("/api/auth/two-step/confirm", { code }, user.token)).status).toBe(200);
    await required.remove(actor, only.id);
    expect(await list(user.token)).toHaveLength(0);
  });

  it("with 'Require two-step sign-in' on, a passkey is a second factor: it ends enrolment, keeps the authenticator app removable, and the last one stays", async () => {
    const admin = await ctx.createUser({ email: "boss@example.com", role: "admin" });
    const staff = await ctx.createUser({ email: "books@example.com", role: "finance" });
    const setting = await ctx.request("/api/admin/settings", { method: "PUT", token: admin.token, json: { require_two_step_sign_in: true } });
    expect(setting.status, await setting.clone().text()).toBe(200);
    // Held at enrolment: the staff screens wait; adding a passkey lets the same session through.
    const held = (await (await post("/api/auth/sign-in", { email: staff.email, password: TEST_PASSWORD })).json()) as { token: string; twoStepEnrolmentDue?: boolean };
    expect(held.twoStepEnrolmentDue).toBe(true);
    expect((await ctx.request("/api/admin/vendors", { token: held.token })).status).toBe(403);
    const only = await register(held.token, "Laptop");
    expect((await ctx.request("/api/admin/vendors", { token: held.token })).status).toBe(200);
    // The last passkey stays while two-step sign-in is required.
    const removeLast = await ctx.request(`/api/auth/passkeys/${only.id}`, { method: "DELETE", token: held.token });
    expect(removeLast.status).toBe(409);
    // With a passkey left, the authenticator app may be turned off.
    const setup = (await (await post("/api/auth/two-step/setup", undefined, held.token)).json()) as { secret: string };
    const code = () => TOTP.generate({ secret: Secret.fromBase32(setup.secret), algorithm: "SHA1", digits: 6, period: 30, timestamp: ctx.clock.now().getTime() });
    expect((await post("/api/auth/two-step/confirm", { code: code() }, held.token)).status).toBe(200);
    ctx.clock.advance(30_000);
    const off = await ctx.request("/api/auth/two-step", { method: "DELETE", token: held.token, json: { code: code() } });
    expect(off.status, await off.clone().text()).toBe(204);
    // The next password sign-in asks for the passkey, not for enrolment.
    const next = (await (await post("/api/auth/sign-in", { email: staff.email, password: TEST_PASSWORD })).json()) as { secondStep?: { factors: string[] }; twoStepEnrolmentDue?: boolean };
    expect(next.secondStep?.factors).toEqual(["passkey"]);
  });

  it("a passkey-only account confirms a dangerous action with its passkey (step-up); another's passkey or none is refused", async () => {
    const admin = await ctx.createUser({ email: "boss@example.com", role: "admin" });
    await register(admin.token, "Laptop");
    const changeSettings = () => ctx.request("/api/admin/settings", { method: "PUT", token: admin.token, json: { support_email: `help-${Date.now()}@example.com` } });
    // A passkey is a second factor: this session has not been checked, so the action waits.
    const refused = await changeSettings();
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("step_up_required");

    const stepUpOptions = async (token: string) => {
      const res = await post("/api/auth/step-up/passkey/options", undefined, token);
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as PasskeyRequestOptions;
    };
    // Another user's passkey cannot answer this user's ceremony.
    const other = await ctx.createUser({ email: "other@example.com", role: "admin" });
    const theirs = new SoftwareAuthenticator(PANEL);
    expect((await post("/api/auth/passkeys", { name: "Theirs", response: theirs.register(await registrationOptions(other.token)) }, other.token)).status).toBe(201);
    expect((await post("/api/auth/step-up/passkey", { response: theirs.assert(await stepUpOptions(admin.token)) }, admin.token)).status).toBe(401);
    expect((await changeSettings()).status).toBe(403);

    const confirmed = await post("/api/auth/step-up/passkey", { response: authenticator.assert(await stepUpOptions(admin.token)) }, admin.token);
    expect(confirmed.status, await confirmed.clone().text()).toBe(200);
    expect(Date.parse(((await confirmed.json()) as { validUntil: string }).validUntil) - ctx.clock.now().getTime()).toBe(10 * 60_000);
    expect((await changeSettings()).status).toBe(200);
    // Ten minutes on, it is asked again.
    ctx.clock.advance(10 * 60_000 + 1000);
    expect((await changeSettings()).status).toBe(403);
    expect(await auditActions("user")).toEqual(expect.arrayContaining(["auth.step_up_failed", "auth.step_up"]));

    // Without a passkey there is nothing to confirm with.
    const plain = await ctx.createUser({ email: "plain@example.com", role: "admin" });
    expect((await post("/api/auth/step-up/passkey/options", undefined, plain.token)).status).toBe(409);
  });
});
