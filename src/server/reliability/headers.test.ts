import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import type { AppEnv } from "../platform/request/app-env.ts";
import { type TestContext, createTestContext } from "../testing/test-app.ts";

/** Security headers on every kind of answer, API and static; no cookie auth; no CORS for strangers. */
describe("security headers", () => {
  let ctx: TestContext;
  let app: Hono<AppEnv>;
  let staticRoot: string;
  let adminToken: string;
  beforeAll(async () => {
    ctx = await createTestContext("sqlite");
    adminToken = (await ctx.createUser({ email: "headers-admin@hki.global" })).token;
    staticRoot = mkdtempSync(join(tmpdir(), "hki-static-"));
    mkdirSync(join(staticRoot, "assets"));
    writeFileSync(join(staticRoot, "index.html"), "<!doctype html><title>HKI</title>");
    writeFileSync(join(staticRoot, "assets", "app-abc123.js"), "console.log(1)");
    writeFileSync(join(staticRoot, "favicon.svg"), "<svg/>");
    const failing = new Hono<AppEnv>()
      .get("/boom", () => {
        throw new Error("boom");
      })
      .get("/busy", () => {
        // Only the database client's own errors are outages (db/client-errors.ts).
        throw new SQLite.SqliteError("database is locked", "SQLITE_BUSY");
      });
    app = createApp({ ...ctx.deps, staticRoot }, { extraRoutes: [failing] });
  });
  afterAll(async () => {
    rmSync(staticRoot, { recursive: true, force: true });
    await ctx.close();
  });

  const cases: Array<[string, string, RequestInit, number]> = [
    ["2xx API", "/api/health", {}, 200],
    ["2xx admin API", "/api/admin/settings", {}, 200],
    ["400", "/api/admin/analytics?days=-5", {}, 400],
    ["401", "/api/admin/vendors", { headers: {} }, 401],
    ["404 API", "/api/no-such-route", {}, 404],
    ["413", "/api/auth/sign-in", { method: "POST", headers: { "content-type": "application/json" }, body: "x".repeat(1024 * 1024 + 10) }, 413],
    ["415", "/api/auth/sign-in", { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" }, 415],
    ["500", "/api/boom", {}, 500],
    ["503", "/api/busy", {}, 503],
    ["static asset", "/assets/app-abc123.js", {}, 200],
    ["static file", "/favicon.svg", {}, 200],
    ["SPA page", "/vendors/some-page", {}, 200],
    ["static 404", "/assets/missing.js", {}, 404],
  ];

  it.each(cases)("%s", async (_label, path, init, status) => {
    const headers = new Headers(init.headers);
    if (!init.headers) headers.set("authorization", `Bearer ${adminToken}`);
    const res = await app.request(path, { ...init, headers });
    expect(res.status).toBe(status);
    const csp = res.headers.get("content-security-policy") ?? "";
    for (const directive of ["default-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) expect(csp).toContain(directive);
    expect(csp).not.toMatch(/script-src[^;]*('unsafe-inline'|'unsafe-eval')/);
    expect(Number(/max-age=(\d+)/.exec(res.headers.get("strict-transport-security") ?? "")?.[1])).toBeGreaterThanOrEqual(31_536_000);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toMatch(/no-referrer|same-origin|strict-origin/);
    expect(res.headers.get("x-powered-by")).toBeNull();
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("gives no Access-Control-Allow-Origin to a foreign origin, preflight or not", async () => {
    const origin = "https://evil.example";
    const preflight = await app.request("/api/admin/vendors", { method: "OPTIONS", headers: { origin, "access-control-request-method": "GET", "access-control-request-headers": "authorization" } });
    expect(preflight.status).toBeLessThan(500);
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();
    const get = await app.request("/api/admin/vendors", { headers: { origin, authorization: `Bearer ${adminToken}` } });
    expect(get.status).toBe(200);
    expect(get.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("accepts no cookie as authentication, whatever its name", async () => {
    for (const name of ["token", "session", "auth", "authorization", "__session", "sid"]) {
      const res = await app.request("/api/auth/me", { headers: { cookie: `${name}=${adminToken}` } });
      expect(res.status, name).toBe(401);
    }
  });
});
