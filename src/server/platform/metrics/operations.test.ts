import type { AddressInfo } from "node:net";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { metricsText, setJobDepthSource } from "./metrics.ts";
import { startMetricsServer } from "./metrics-server.ts";

const METRICS_TOKEN = "metrics-token-for-tests-0123456789";

/** Readiness, metrics and caching headers (issue 15: logs, metrics, readiness; finding 8). */
describe.each(testDatabaseKinds)("operations (%s)", (kind) => {
  let ctx: TestContext;
  afterEach(async () => {
    setJobDepthSource(undefined);
    await ctx.close();
  });

  it("GET /api/ready answers when the database answers and every migration ran; 503 naming what is missing otherwise", async () => {
    ctx = await createTestContext(kind);
    const ready = await ctx.request("/api/ready");
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { status: string; database: string; migrations: number };
    expect(body).toMatchObject({ status: "ready", database: kind });
    expect(body.migrations).toBeGreaterThanOrEqual(8);
    await sql`delete from kysely_migration where name = ${"010-hardening"}`.execute(ctx.database.db);
    const notReady = await ctx.request("/api/ready");
    expect(notReady.status).toBe(503);
    expect(notReady.headers.get("retry-after")).toBe("5");
    expect(await notReady.json()).toEqual({ error: { code: "unavailable", message: "Not ready: 1 migration(s) not applied (010-hardening)" } });
    // Liveness does not care.
    expect((await ctx.request("/api/health")).status).toBe(200);
  });

  it("marks every answer that needs a token, and sign-in, no-store; public reads stay cacheable", async () => {
    ctx = await createTestContext(kind);
    const user = await ctx.createUser({ email: "shopper@example.com" });
    const cases: Array<[string, RequestInit & { json?: unknown; token?: string }]> = [
      ["/api/admin/dashboard/stats", {}],
      ["/api/admin/dashboard/stats", { token: user.token }],
      ["/api/admin/dashboard/stats", { token: "x".repeat(43) }],
      ["/api/auth/me", {}],
      ["/api/auth/me", { token: user.token }],
      ["/api/auth/sign-in", { method: "POST", json: { email: "nobody@example.com", password: "wrong" } }],
      ["/api/debug/admin", { token: user.token }],
      ["/api/vendors", {}],
    ];
    for (const [path, init] of cases) {
      const res = await ctx.request(path, init);
      expect(res.headers.get("cache-control"), `${path} ${res.status}`).toBe("no-store");
    }
    expect((await ctx.request("/api/health")).headers.get("cache-control")).toBeNull();
    expect((await ctx.request("/api/config")).headers.get("cache-control")).toBeNull();
  });

  it("/metrics on the main port only with METRICS_TOKEN, outside the API document", async () => {
    ctx = await createTestContext(kind);
    expect((await ctx.request("/metrics")).status).toBe(404);
    await ctx.close();

    ctx = await createTestContext(kind, { env: { METRICS_TOKEN } });
    setJobDepthSource(async () => [{ kind: "payout-run", status: "queued", count: 3 }]);
    // Traffic to count: a defined route, a refused sign-in limit, a cache read.
    const admin = await ctx.createUser({ email: "ops@hki.global" });
    await ctx.request("/api/health");
    await ctx.request("/api/admin/dashboard/stats", { token: admin.token });
    await ctx.request("/api/admin/dashboard/stats", { token: admin.token });
    for (let i = 0; i < 61; i++) await ctx.deps.limiter.hit("signin-ip:metrics-test", { limit: 60, windowMs: 60_000 });

    expect((await ctx.request("/metrics")).status).toBe(401);
    expect((await ctx.request("/metrics", { headers: { authorization: `Bearer ${METRICS_TOKEN}x` } })).status).toBe(401);
    const res = await ctx.request("/metrics", { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    expect(text).toMatch(/hki_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status="200"\} \d+/);
    expect(text).toMatch(/hki_http_request_duration_seconds_count\{method="GET",route="\/api\/admin\/dashboard\/stats",status="200"\} \d+/);
    expect(text).toMatch(/hki_cache_lookups_total\{cache="read",result="hit"\} \d+/);
    expect(text).toMatch(/hki_rate_limit_rejections_total\{rule="signin-ip"\} \d+/);
    expect(text).toContain('hki_job_queue_depth{kind="payout-run",status="queued"} 3');
    expect(text).toContain("hki_sqlite_busy_retries_total");
    expect(text).toContain("hki_process_cpu_seconds_total");
    // Unknown paths share one label: an attacker cannot grow the metric set.
    await ctx.request("/api/no/such/route-123");
    expect(await (await ctx.request("/metrics", { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text()).not.toContain("route-123");

    const document = (await (await ctx.request("/api/openapi.json")).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).some((p) => p.includes("metrics"))).toBe(false);
  });
});

describe("METRICS_PORT listener", () => {
  it("serves GET /metrics and nothing else", async () => {
    const server = await startMetricsServer(0, "127.0.0.1", metricsText);
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const res = await fetch(`${base}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("hki_http_request_duration_seconds");
      expect((await fetch(`${base}/api/health`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: "POST" })).status).toBe(404);
    } finally {
      server.close();
    }
  });
});
