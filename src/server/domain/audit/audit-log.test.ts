import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";

describe.each(testDatabaseKinds)("audit rows of admin actions (%s)", (kind) => {
  let ctx: TestContext;
  let admin: Awaited<ReturnType<TestContext["createUser"]>>;
  beforeAll(async () => {
    ctx = await createTestContext(kind, { seedDemo: true });
    admin = await ctx.createUser({ email: "auditor@hki.global" });
  });
  afterAll(async () => {
    await ctx.close();
  });

  // The demo data has audit rows of its own: only this test's admin's rows count.
  const rows = (action: string) => ctx.database.db.selectFrom("audit_log").selectAll().where("action", "=", action).where("actor_id", "=", admin.id).orderBy("created_at").orderBy("id").execute();

  it("records who, from where, which request, and the value before and after", async () => {
    const vendor = await ctx.database.db.selectFrom("vendors").select(["id", "name"]).where("is_active", "=", 1).orderBy("id").limit(1).executeTakeFirstOrThrow();
    const res = await ctx.request(`/api/vendors/${vendor.id}/status`, {
      method: "PATCH",
      token: admin.token,
      json: { isActive: false },
      headers: { "x-request-id": "req-42", "user-agent": "audit-test" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("req-42");
    const [row] = await rows("vendor.disable");
    expect(row).toMatchObject({
      actor_id: admin.id,
      actor_email: admin.email,
      actor_role: "admin",
      target_type: "vendor",
      target_id: vendor.id,
      target_label: vendor.name,
      user_agent: "audit-test",
      request_id: "req-42",
    });
    expect(row!.ip_address).toBeTruthy();
    expect(JSON.parse(row!.before_value!)).toEqual({ isActive: true });
    expect(JSON.parse(row!.after_value!)).toEqual({ isActive: false });
  });

  it("gives every request an id of its own when the client sends none or an unsafe one", async () => {
    const plain = await ctx.request("/api/health");
    const forged = await ctx.request("/api/health", { headers: { "x-request-id": "bad id <script>" } });
    expect(plain.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(forged.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("writes one row per settings save with each changed key's old and new value, none for a save that changes nothing", async () => {
    const current = (await (await ctx.request("/api/admin/settings", { token: admin.token })).json()) as Record<string, { value: string }>;
    const save = (json: Record<string, string>) => ctx.request("/api/admin/settings", { method: "PUT", token: admin.token, json });
    expect((await save({ announcement_message: "Audit me", support_email: "help@hki.global", platform_fee_percentage: current.platform_fee_percentage!.value })).status).toBe(200);
    expect((await save({ announcement_message: "Audit me" })).status).toBe(200);
    const saved = await rows("settings.update");
    expect(saved).toHaveLength(1);
    expect(JSON.parse(saved[0]!.before_value!)).toEqual({ announcement_message: current.announcement_message!.value, support_email: current.support_email!.value });
    expect(JSON.parse(saved[0]!.after_value!)).toEqual({ announcement_message: "Audit me", support_email: "help@hki.global" });
  });

  it("records archiving one error-log entry", async () => {
    const entry = await ctx.database.db.selectFrom("error_logs").select(["id"]).where("archived", "=", 0).limit(1).executeTakeFirstOrThrow();
    expect((await ctx.request(`/api/admin/errors/${entry.id}/archive`, { method: "POST", token: admin.token })).status).toBe(200);
    expect(await rows("error_logs.archive")).toMatchObject([{ target_type: "error_log", target_id: entry.id, actor_email: admin.email }]);
  });
});
