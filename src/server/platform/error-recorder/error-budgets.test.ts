import { Hono } from "hono";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../app.ts";
import type { AppEnv } from "../request/app-env.ts";
import { createLogger } from "../logging/logger.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { ERROR_LOG_BUDGETS } from "./error-recorder.ts";

/** Issue 15 finding 4: an attacker must not be able to spend the error log's room. */
describe.each(testDatabaseKinds)("error-log budgets (%s)", (kind) => {
  let ctx: TestContext;
  let app: Hono<AppEnv>;
  let admin: Awaited<ReturnType<TestContext["createUser"]>>;

  beforeEach(async () => {
    ctx = await createTestContext(kind);
    admin = await ctx.createUser({ email: "ops@hki.global" });
    // A real server error, as any route could have one.
    const failing = new Hono<AppEnv>().get("/broken", () => {
      throw new Error("the real failure");
    });
    app = createApp(ctx.deps, { extraRoutes: [failing] });
  });
  afterEach(async () => {
    await ctx.close();
  });

  const as = (token: string, path: string, init: RequestInit = {}, ip = "198.51.100.7") =>
    Promise.resolve(app.request(path, { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` } }, { incoming: { socket: { remoteAddress: ip } } }));
  const rows = () => ctx.database.db.selectFrom("error_logs").select(["level", "status_code", "message", "user_email", "request_id"]).execute();

  it("310 refused requests to distinct paths from one non-admin leave room for the admin's real error and a test error", async () => {
    const storefrontUser = await ctx.createUser({ email: "shopper@example.com" });
    for (let i = 0; i < 310; i++) expect((await as(storefrontUser.token, `/api/admin/probe-${i}`)).status).toBe(403);
    const logged = await rows();
    // One source gets its own budget, no more.
    expect(logged.filter((r) => r.status_code === 403)).toHaveLength(ERROR_LOG_BUDGETS.perSource.limit);

    const broken = await as(admin.token, "/api/broken", { headers: { "x-request-id": "req-real-failure" } });
    expect(broken.status).toBe(500);
    expect(await rows()).toContainEqual({ level: "error", status_code: 500, message: "the real failure", user_email: "ops@hki.global", request_id: "req-real-failure" });
    const test = await as(admin.token, "/api/debug/test-error", { method: "POST" });
    expect(test.status).toBe(418);
    expect(((await test.json()) as { error: { message: string } }).error.message).toBe("Test error logged");

    // The dropped ones are counted and shown on the health page.
    const debug = (await (await as(admin.token, "/api/debug/admin")).json()) as { errorLogDrops: Record<string, number> };
    expect(debug.errorLogDrops).toEqual({ hours: 24, error: 0, warning: 310 - ERROR_LOG_BUDGETS.perSource.limit, info: 0 });
  }, 60_000);

  it("a 403 flood from many sources fills only the 403 budget: 5xx and test entries still have room", async () => {
    const perKind = ERROR_LOG_BUDGETS.perKind.warning.limit;
    const users = [];
    for (let i = 0; i < 40; i++) users.push(await ctx.createUser({ email: `shopper-${i}@example.com` }));
    // 40 sources × 5 distinct paths each = 200 refused requests, more than the 403 budget.
    for (let round = 0; round < 5; round++) {
      await Promise.all(users.map((u, i) => as(u.token, `/api/admin/p-${round}-${i}`, {}, `203.0.113.${i}`)));
    }
    expect((await rows()).filter((r) => r.status_code === 403)).toHaveLength(perKind);
    // 429s are a kind of their own too: the 403 flood did not use their room (checked by budget name).
    expect((await as(admin.token, "/api/broken")).status).toBe(500);
    expect((await as(admin.token, "/api/debug/test-error", { method: "POST" })).status).toBe(418);
    const logged = await rows();
    expect(logged.filter((r) => r.level === "error")).toHaveLength(1);
    expect(logged.filter((r) => r.level === "info")).toHaveLength(1);
    const debug = (await (await as(admin.token, "/api/debug/admin")).json()) as { errorLogDrops: Record<string, number> };
    expect(debug.errorLogDrops.warning).toBe(200 - perKind);
  }, 60_000);

  it("anonymous sources are told apart by address: one address's flood does not silence another's", async () => {
    for (let i = 0; i < 30; i++) await ctx.deps.errors.record({ level: "warning", message: `m${i}`, statusCode: 429, source: "ip:198.51.100.1" });
    expect(await ctx.deps.errors.record({ level: "warning", message: "other", statusCode: 429, source: "ip:198.51.100.2" })).toBe(true);
    expect(await ctx.deps.errors.record({ level: "warning", message: "again", statusCode: 429, source: "ip:198.51.100.1" })).toBe(false);
    // A new minute, new room.
    ctx.clock.advance(61_000);
    expect(await ctx.deps.errors.record({ level: "warning", message: "later", statusCode: 429, source: "ip:198.51.100.1" })).toBe(true);
  });

  it("writes one JSON access line per request with the request id and user id, and no secrets", async () => {
    const lines: string[] = [];
    ctx.deps.logger = createLogger("info", { write: (line: string) => void lines.push(line) });
    const res = await as(admin.token, "/api/admin/dashboard/stats?token=SeCrEt-Query-Token&page=1", { headers: { "x-request-id": "req-42" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("req-42");
    const entry = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
    expect(entry).toMatchObject({ level: "info", msg: "request", method: "GET", status: 200, userId: admin.id, requestId: "req-42", clientIp: "198.51.100.7", route: "/api/admin/dashboard/stats" });
    // The dashboard declares no query: every value goes, keys stay (redact.ts).
    expect(entry.path).toBe("/api/admin/dashboard/stats?token=[redacted]&page=[redacted]");
    expect(typeof entry.durationMs).toBe("number");
    expect(lines.join("\n")).not.toContain("SeCrEt");
    expect(lines.join("\n")).not.toContain(admin.token);
    // A declared plain filter keeps its value.
    await as(admin.token, "/api/admin/analytics?days=7&token=SeCrEt-Query-Token");
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ status: 200, path: "/api/admin/analytics?days=7&token=[redacted]" });
    // Failures too, at their level.
    await as(admin.token, "/api/broken");
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ level: "error", status: 500, path: "/api/broken" });
  });
});
