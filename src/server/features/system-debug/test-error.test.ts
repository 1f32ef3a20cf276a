import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { TEST_ERROR_STATUS } from "./system-debug.service.ts";

describe.each(testDatabaseKinds)("POST /api/debug/test-error (%s)", (kind) => {
  let ctx: TestContext;

  beforeEach(async () => {
    ctx = await createTestContext(kind);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const logRows = () => ctx.database.db.selectFrom("error_logs").select(["level", "message", "endpoint", "method", "status_code", "user_email"]).execute();

  it("writes exactly one info row and answers the error payload", async () => {
    const admin = await ctx.createUser({ email: "boss@hki.global" });
    const res = await ctx.request("/api/debug/test-error", { method: "POST", token: admin.token });
    expect(res.status).toBe(TEST_ERROR_STATUS);
    expect(await res.json()).toEqual({ error: { code: "test_error", message: "Test error logged" } });
    // Not also an 'error' row from the 5xx logging middleware.
    expect(await logRows()).toEqual([
      {
        level: "info",
        message: "Test error logged from the admin panel",
        endpoint: "/api/debug/test-error",
        method: "POST",
        status_code: TEST_ERROR_STATUS,
        user_email: "boss@hki.global",
      },
    ]);
  });

  it("says so when the per-minute cap stops the row from being written", async () => {
    const admin = await ctx.createUser({ email: "boss@hki.global" });
    // The recorder keeps at most 10 identical entries a minute.
    for (let i = 0; i < 10; i++) await ctx.request("/api/debug/test-error", { method: "POST", token: admin.token });
    const res = await ctx.request("/api/debug/test-error", { method: "POST", token: admin.token });
    expect(res.status).toBe(TEST_ERROR_STATUS);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/not logged/);
    expect(await logRows()).toHaveLength(10);
  });

  it("is admin-only and writes nothing for a signed-out caller", async () => {
    expect((await ctx.request("/api/debug/test-error", { method: "POST" })).status).toBe(401);
    expect((await logRows()).filter((r) => r.level === "info")).toEqual([]);
  });
});
