import { randomBytes } from "node:crypto";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../app.ts";
import type { AppEnv } from "../app-env.ts";
import { type TestContext, createTestContext } from "../testing/test-app.ts";
import { appRoutes, fillPath } from "../testing/app-routes.ts";
import { databaseChecksum } from "../testing/db-checksum.ts";

/**
 * Canary secrets (passwords, bearer tokens, query-string tokens) sent through every route, the
 * failing ones included, must never show up in what the process prints or in any table. The server
 * writes no log files of its own: stdout/stderr and the error_logs table are all its logs.
 */
describe("secrets are never logged", () => {
  let ctx: TestContext;
  let app: Hono<AppEnv>;
  const canaryPassword = `CanaryPw-${randomBytes(8).toString("hex")}`;
  const canaryQueryToken = `CanaryQt${randomBytes(8).toString("hex")}`;
  let adminToken: string;
  let userToken: string;
  const printed: string[] = [];

  beforeAll(async () => {
    ctx = await createTestContext("sqlite", { seedDemo: true });
    adminToken = (await ctx.createUser({ email: "canary-admin@hki.global" })).token;
    userToken = (await ctx.createUser({ email: "canary-user@example.com" })).token;
    // Failures that quote their input in the usual leaky ways.
    const leaky = new Hono<AppEnv>().post("/leaky-failure", async (c) => {
      const auth = c.req.header("authorization") ?? "";
      throw new Error(`upstream refused ${auth} with password=${canaryPassword} token=${c.req.query("token")} {"password":"${canaryPassword}"}`);
    });
    app = createApp(ctx.deps, { extraRoutes: [leaky] });
    const capture = (...args: unknown[]) => {
      printed.push(args.map(String).join(" "));
    };
    for (const method of ["log", "info", "warn", "error", "debug"] as const) vi.spyOn(console, method).mockImplementation(capture);
    for (const stream of [process.stdout, process.stderr]) {
      const original = stream.write.bind(stream);
      vi.spyOn(stream, "write").mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
        printed.push(String(chunk));
        return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof stream.write);
    }
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await ctx.close();
  });

  it("sends canaries through every route and finds them nowhere afterwards", async () => {
    // Signing out revokes the token it is sent with, so that route goes last.
    const routes = appRoutes(app).sort((a, b) => Number(a.path === "/api/auth/sign-out") - Number(b.path === "/api/auth/sign-out"));
    expect(routes.map((r) => r.path)).toContain("/api/leaky-failure");
    let sent = 0;
    const statuses = new Set<number>();
    for (const route of routes) {
      for (const token of [adminToken, userToken, `${canaryQueryToken}x`.slice(0, 43).padEnd(43, "A"), canaryPassword]) {
        const query = `?token=${canaryQueryToken}&access_token=${canaryQueryToken}&password=${canaryPassword}&page=1`;
        const body = { password: canaryPassword, email: "canary-admin@hki.global", token: canaryQueryToken, isActive: true, announcement_message: "hello", nested: { secret: canaryPassword } };
        const res = await app.request(fillPath(route.path, "01890000-0000-7000-8000-000000000000") + query, {
          method: route.method,
          headers: { authorization: `Bearer ${token}`, cookie: `session=${canaryQueryToken}`, "x-api-key": canaryQueryToken, ...(route.method === "GET" ? {} : { "content-type": "application/json" }) },
          ...(route.method === "GET" ? {} : { body: JSON.stringify(body) }),
        });
        await res.text();
        statuses.add(res.status);
        sent += 1;
      }
    }
    // Beta-password guesses with the canary until they are rate-limited (429 is logged as a warning).
    for (let i = 0; i < 12; i++) {
      const res = await app.request(`/api/beta/verify?token=${canaryQueryToken}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ password: canaryPassword }) });
      statuses.add(res.status);
    }
    expect(statuses).toContain(500);
    expect(statuses).toContain(403);
    expect(statuses).toContain(429);
    expect(sent).toBeGreaterThan(routes.length * 3);

    // Background error-log writes (for database failures) must have landed before the look.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const logged = await ctx.database.db.selectFrom("error_logs").selectAll().execute();
    expect(logged.length).toBeGreaterThan(0);
    const tables = JSON.stringify(await dumpAll());
    const out = printed.join("\n");
    expect(out).toContain("leaky-failure");
    for (const secret of [canaryPassword, canaryQueryToken, adminToken, userToken]) {
      expect(out.includes(secret), `printed output contains ${secret.slice(0, 12)}…`).toBe(false);
      expect(tables.includes(secret), `a table contains ${secret.slice(0, 12)}…`).toBe(false);
    }
    // databaseChecksum reads every table: proof the dump covered them all.
    expect(Object.keys(await databaseChecksum(ctx.database.db)).length).toBeGreaterThan(10);
  }, 60_000);

  async function dumpAll(): Promise<unknown[]> {
    const out: unknown[] = [];
    for (const table of await ctx.database.db.introspection.getTables()) {
      out.push(await (ctx.database.db as unknown as import("kysely").Kysely<Record<string, Record<string, unknown>>>).selectFrom(table.name).selectAll().execute());
    }
    return out;
  }
});
