import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLogResponseSchema } from "../../../contract/audit-log.ts";
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
      json: { isActive: false, reason: "Orders not shipped" },
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

  /** Every audit row written with this request id (the table), and the log's answer for a target (the API). */
  const rowsOfRequest = (requestId: string) => ctx.database.db.selectFrom("audit_log").selectAll().where("request_id", "=", requestId).execute();
  const logOf = async (targetType: string, targetId: string) => {
    const res = await ctx.request(`/api/admin/audit-log?targetType=${targetType}&targetId=${encodeURIComponent(targetId)}`, { token: admin.token });
    expect(res.status).toBe(200);
    return auditLogResponseSchema.parse(await res.json()).entries;
  };
  let calls = 0;
  /** Calls a route as the admin; answers its status, its body and the audit rows it wrote. */
  async function act(method: string, path: string, json?: unknown) {
    const requestId = `no-op-${++calls}`;
    const res = await ctx.request(path, { method, token: admin.token, headers: { "x-request-id": requestId }, ...(json === undefined ? {} : { json }) });
    return { status: res.status, body: (await res.json()) as unknown, audit: await rowsOfRequest(requestId) };
  }
  const productsWith = async (status: "listed" | "hidden", n: number) => {
    const rows = await ctx.database.db.selectFrom("products").select(["id", "name"]).where("status", "=", status).orderBy("id").limit(n).execute();
    expect(rows).toHaveLength(n);
    return rows;
  };
  const vendorsWith = async (isActive: 0 | 1, n: number) => {
    const rows = await ctx.database.db.selectFrom("vendors").select(["id", "name"]).where("is_active", "=", isActive).orderBy("id", "desc").limit(n).execute();
    expect(rows).toHaveLength(n);
    return rows;
  };

  it("hiding a hidden product or restoring a listed one writes no audit row; a bulk row names only the products it changed", async () => {
    const [hidden] = await productsWith("hidden", 1);
    const [listed] = await productsWith("listed", 1);
    const hiddenLog = await logOf("product", hidden!.id);
    const again = await act("PATCH", `/api/admin/products/${hidden!.id}/status`, { status: "hidden", reason: "Still trademarked" });
    expect(again.status).toBe(200);
    expect(again.audit).toEqual([]);
    const restoreListed = await act("PATCH", `/api/admin/products/${listed!.id}/status`, { status: "active" });
    expect(restoreListed.status).toBe(200);
    expect(restoreListed.audit).toEqual([]);
    const bulkNoOp = await act("POST", "/api/admin/products/bulk-status", { ids: [hidden!.id], status: "hidden", reason: "Again" });
    expect(bulkNoOp).toMatchObject({ status: 200, body: { changed: 0, unchanged: 1 }, audit: [] });
    expect(await logOf("product", hidden!.id)).toEqual(hiddenLog);

    // One listed and one hidden: the row is about the listed one alone, active before, hidden after.
    const mixed = await act("POST", "/api/admin/products/bulk-status", { ids: [hidden!.id, listed!.id], status: "hidden", reason: "Counterfeit" });
    expect(mixed).toMatchObject({ status: 200, body: { changed: 1, unchanged: 1 } });
    expect(mixed.audit).toHaveLength(1);
    expect(mixed.audit[0]).toMatchObject({ action: "product.bulk_hide", target_id: "1 products", target_label: listed!.name });
    expect(JSON.parse(mixed.audit[0]!.before_value!)).toEqual({ status: "active" });
    expect(JSON.parse(mixed.audit[0]!.after_value!)).toEqual({ status: "hidden" });
    expect(JSON.parse(mixed.audit[0]!.details)).toEqual({ productIds: [listed!.id], unchanged: 1, reason: "Counterfeit" });
  });

  it("enabling an active vendor or disabling a disabled one writes no audit row; a bulk row names only the vendors it changed", async () => {
    const [active, other] = await vendorsWith(1, 2);
    const [inactive] = await vendorsWith(0, 1);
    const activeLog = await logOf("vendor", active!.id);
    const enable = await act("PATCH", `/api/vendors/${active!.id}/status`, { isActive: true });
    expect(enable).toMatchObject({ status: 200, body: { id: active!.id, isActive: true }, audit: [] });
    const disable = await act("PATCH", `/api/vendors/${inactive!.id}/status`, { isActive: false, reason: "Orders not shipped" });
    expect(disable).toMatchObject({ status: 200, audit: [] });
    const bulkNoOp = await act("POST", "/api/admin/vendors/bulk-status", { ids: [active!.id, other!.id], isActive: true });
    expect(bulkNoOp).toMatchObject({ status: 200, body: { changed: 0, unchanged: 2 }, audit: [] });
    expect(await logOf("vendor", active!.id)).toEqual(activeLog);

    const mixed = await act("POST", "/api/admin/vendors/bulk-status", { ids: [inactive!.id, other!.id], isActive: false, reason: "Orders not shipped" });
    expect(mixed).toMatchObject({ status: 200, body: { changed: 1, unchanged: 1 } });
    expect(mixed.audit).toHaveLength(1);
    expect(mixed.audit[0]).toMatchObject({ action: "vendor.bulk_disable", target_id: "1 vendors", target_label: other!.name });
    expect(JSON.parse(mixed.audit[0]!.before_value!)).toEqual({ isActive: true });
    expect(JSON.parse(mixed.audit[0]!.after_value!)).toEqual({ isActive: false });
    expect(JSON.parse(mixed.audit[0]!.details)).toMatchObject({ vendorIds: [other!.id], unchanged: 1 });
  });

  it("archiving archived error-log entries, cleaning up nothing, ending no session or giving a role it has writes no audit row", async () => {
    const entries = await ctx.database.db.selectFrom("error_logs").select("id").where("archived", "=", 0).where("level", "=", "warning").orderBy("id").limit(2).execute();
    expect(entries).toHaveLength(2);
    const ids = entries.map((e) => e.id);
    expect((await act("POST", `/api/admin/errors/${ids[0]}/archive`)).audit).toHaveLength(1);
    expect(await act("POST", `/api/admin/errors/${ids[0]}/archive`)).toMatchObject({ status: 200, audit: [] });
    const selected = await act("POST", "/api/admin/errors/archive", { ids });
    expect(selected).toMatchObject({ status: 200, body: { count: 1 } });
    expect(selected.audit.map((a) => JSON.parse(a.details))).toEqual([{ ids: [ids[1]], archived: 1, unchanged: 1 }]);
    expect(await act("POST", "/api/admin/errors/archive", { ids })).toMatchObject({ status: 200, body: { count: 0 }, audit: [] });
    expect((await act("POST", "/api/admin/errors/archive-all", { level: "warning" })).status).toBe(200);
    expect(await act("POST", "/api/admin/errors/archive-all", { level: "warning" })).toMatchObject({ status: 200, body: { count: 0 }, audit: [] });
    await act("DELETE", "/api/admin/errors/cleanup-archived");
    expect(await act("DELETE", "/api/admin/errors/cleanup-archived")).toMatchObject({ status: 200, body: { count: 0 }, audit: [] });

    const viewer = await ctx.createUser({ email: "no-op-viewer@example.com", role: "viewer" });
    expect(await act("PATCH", `/api/admin/users/${viewer.id}`, { role: "viewer" })).toMatchObject({ status: 200, audit: [] });
    expect((await act("DELETE", `/api/admin/users/${viewer.id}/sessions`)).audit).toHaveLength(1);
    expect(await act("DELETE", `/api/admin/users/${viewer.id}/sessions`)).toMatchObject({ status: 200, body: { revoked: 0 }, audit: [] });
  });
});
