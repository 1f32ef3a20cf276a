import { Hono } from "hono";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "./app.ts";
import type { AppEnv } from "./platform/request/app-env.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "./testing/test-app.ts";

describe.each(testDatabaseKinds)("HTTP basics (%s)", (kind) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext(kind);
  });
  afterEach(async () => {
    await ctx.close();
  });

  it("answers /api/health with the database it uses", async () => {
    const res = await ctx.request("/api/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ok", database: kind });
  });

  it("puts the security headers on every kind of answer", async () => {
    for (const path of ["/api/health", "/api/nope", "/api/admin/anything"]) {
      const res = await ctx.request(path);
      expect(res.headers.get("content-security-policy"), path).toMatch(/default-src 'self'/);
      expect(res.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
      expect(res.headers.get("content-security-policy")).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(Number(/max-age=(\d+)/.exec(res.headers.get("strict-transport-security") ?? "")?.[1])).toBeGreaterThanOrEqual(31536000);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBeTruthy();
      expect(res.headers.get("x-powered-by")).toBeNull();
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
    }
  });

  it("answers unknown API routes with the JSON error shape", async () => {
    const res = await ctx.request("/api/does-not-exist", { method: "POST" });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: "not_found" } });
  });

  it("rejects bad JSON with 400, the wrong content type with 415 and bodies over 1 MB with 413", async () => {
    const badJson = await ctx.request("/api/auth/sign-in", { method: "POST", headers: { "content-type": "application/json" }, body: "{nope" });
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ error: { code: "invalid_json" } });

    const wrongType = await ctx.request("/api/auth/sign-in", { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" });
    expect(wrongType.status).toBe(415);

    const huge = await ctx.request("/api/auth/sign-in", {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(2 * 1024 * 1024) },
      body: JSON.stringify({ email: "a".repeat(2 * 1024 * 1024), password: "x" }),
    });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ error: { code: "payload_too_large" } });
  });

  it("records an unhandled failure in error_logs without secrets, and answers a generic 500", async () => {
    const failing = new Hono<AppEnv>().get("/boom", () => {
      throw new Error("exploded while using password=hunter2-canary");
    });
    const app = createApp(ctx.deps, { extraRoutes: [failing] });
    const admin = await ctx.createUser({ email: "ops@hki.global" });
    const res = await app.request("/api/boom?token=canary-query-token&page=2", {
      headers: { ...admin.headers, "user-agent": "vitest-agent" },
    });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toMatch(/exploded|hunter2|at /);

    const rows = await ctx.database.db.selectFrom("error_logs").selectAll().where("endpoint", "like", "/api/boom%").execute();
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject({ level: "error", method: "GET", status_code: 500, user_email: "ops@hki.global", user_agent: "vitest-agent" });
    expect(row.stack_trace).toBeTruthy();
    const everything = JSON.stringify(row);
    for (const secret of ["hunter2-canary", "canary-query-token", admin.token]) expect(everything).not.toContain(secret);
  });

  it("caps repeats of one failure so a crash loop cannot flood the table", async () => {
    const failing = new Hono<AppEnv>().get("/loop", () => {
      throw new Error("same failure");
    });
    const app = createApp(ctx.deps, { extraRoutes: [failing] });
    for (let i = 0; i < 40; i++) expect((await app.request("/api/loop")).status).toBe(500);
    const { count } = await ctx.database.db
      .selectFrom("error_logs")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("message", "=", "same failure")
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(10);
  });

  it("logs refused admin access (403) as a warning", async () => {
    const user = await ctx.createUser({ email: "someone@example.com" });
    expect((await ctx.request("/api/admin/settings", { token: user.token })).status).toBe(403);
    const row = await ctx.database.db.selectFrom("error_logs").selectAll().where("status_code", "=", 403).executeTakeFirst();
    expect(row).toMatchObject({ level: "warning", user_email: "someone@example.com" });
  });
});
