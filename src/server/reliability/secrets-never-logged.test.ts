import { randomBytes } from "node:crypto";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../app.ts";
import type { AppEnv } from "../platform/request/app-env.ts";
import { createLogger } from "../platform/logging/logger.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../testing/test-app.ts";
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
    // Every level printed (the JSON log on stdout, here spied on): access lines and the unhandled failure's stack included.
    ctx = await createTestContext("sqlite", { seedDemo: true, env: { LOG_LEVEL: "debug" } });
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
          headers: {
            authorization: `Bearer ${token}`,
            cookie: `session=${canaryQueryToken}`,
            "x-api-key": canaryQueryToken,
            ...(route.method === "GET" ? {} : { "content-type": "application/json" }),
          },
          ...(route.method === "GET" ? {} : { body: JSON.stringify(body) }),
        });
        await res.text();
        statuses.add(res.status);
        sent += 1;
      }
    }
    // Beta-password guesses with the canary until they are rate-limited (429 is logged as a warning).
    for (let i = 0; i < 12; i++) {
      const res = await app.request(`/api/beta/verify?token=${canaryQueryToken}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ password: canaryPassword }),
      });
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

/**
 * Issue 18, finding 7 (an outside attack run): secrets that reached the logs and tables by other
 * ways than secret-named fields. Each case reproduces the attack and looks where it used to land.
 */
describe.each(testDatabaseKinds)("issue 18 finding 7: what is written down keeps no secret (%s)", (kind) => {
  let ctx: TestContext;
  let app: Hono<AppEnv>;
  let admin: { id: string; token: string };
  let viewer: { token: string };
  let user: { token: string };
  const lines: string[] = [];
  /** Short and plain on purpose: these must be caught by the rule, not by looking like a token. */
  const canary = (label: string) => `cAnArY${label}${randomBytes(4).toString("hex")}`;

  beforeAll(async () => {
    ctx = await createTestContext(kind, { seedDemo: true });
    admin = await ctx.createUser({ email: "secrets-admin@hki.global" });
    viewer = await ctx.createUser({ email: "secrets-viewer@example.com", role: "viewer" });
    user = await ctx.createUser({ email: "secrets-user@example.com" });
    app = createApp({ ...ctx.deps, logger: createLogger("debug", { write: (line: string) => void lines.push(line) }) });
  });
  afterAll(async () => {
    await ctx.close();
  });

  const call = (path: string, init: RequestInit & { token?: string; json?: unknown } = {}) => {
    const { token, json, headers, ...rest } = init;
    const all = new Headers(headers);
    if (token) all.set("authorization", `Bearer ${token}`);
    if (json !== undefined) all.set("content-type", "application/json");
    return app.request(path, { ...rest, headers: all, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) });
  };
  const accessLine = (requestId: string) => JSON.parse(lines.find((l) => l.includes(`"requestId":"${requestId}"`))!) as { path: string; status: number };

  it("access lines: no export token in a path, no value of an undeclared query key (invite, code, key, t, pw, sig, jwt, auth)", async () => {
    const created = await call("/api/admin/exports", { method: "POST", token: admin.token, json: { kind: "audit-log", filters: {} } });
    expect(created.status).toBe(201);
    const downloadPath = new URL(((await created.json()) as { url: string }).url).pathname;
    const exportToken = downloadPath.split("/").pop()!;
    expect((await call(downloadPath, { headers: { "x-request-id": "f7-download" } })).status).toBe(200);

    const secrets = Object.fromEntries(["invite", "code", "key", "t", "pw", "sig", "jwt", "auth"].map((k) => [k, canary(k)]));
    const query = new URLSearchParams({ ...secrets, page: "2", status: "active" }).toString();
    expect((await call(`/api/admin/vendors?${query}`, { token: admin.token, headers: { "x-request-id": "f7-query" } })).status).toBe(200);

    expect(accessLine("f7-download").path).toBe("/api/exports/[redacted]");
    // Keys kept; only the values the list's definition declares plain (page, status) survive.
    expect(accessLine("f7-query").path).toBe(
      `/api/admin/vendors?${Object.keys(secrets)
        .map((k) => `${k}=[redacted]`)
        .join("&")}&page=2&status=active`,
    );
    const out = lines.join("\n");
    for (const secret of [exportToken, ...Object.values(secrets)]) expect(out).not.toContain(secret);
  });

  it("error_logs: the path, query, user agent, headers and context of a refused request keep no secret", async () => {
    const [code, bearer, beta, cookie] = [canary("code"), canary("ua"), canary("beta"), canary("cookie")];
    const res = await call(`/api/admin/vendors?code=${code}&page=2`, {
      token: user.token,
      headers: { "user-agent": `Mozilla/5.0 (attack run) Bearer ${bearer}`, "x-beta-password": beta, cookie: `sid=${cookie}`, "x-request-id": "f7-refused" },
    });
    expect(res.status).toBe(403);
    const row = await ctx.database.db.selectFrom("error_logs").selectAll().where("request_id", "=", "f7-refused").executeTakeFirstOrThrow();
    expect(row.endpoint).toBe("/api/admin/vendors?code=[redacted]&page=2");
    expect(row.user_agent).toBe("Mozilla/5.0 (attack run) Bearer [redacted]");
    const context = JSON.parse(row.context!) as { query: Record<string, string>; headers: Record<string, string> };
    expect(context.query).toEqual({ code: "[redacted]", page: "2" });
    expect(context.headers).toMatchObject({ authorization: "[redacted]", "x-beta-password": "[redacted]", cookie: "[redacted]" });
    const written = JSON.stringify(row) + lines.join("\n");
    for (const secret of [code, bearer, beta, cookie, user.token]) expect(written).not.toContain(secret);
  });

  it("sign-in: a password typed into the e-mail field is refused (400) before it becomes a limit's key or an audit row's target", async () => {
    const password = `Hunter2-${canary("pw")}`;
    for (let i = 0; i < 3; i++) {
      const res = await call("/api/auth/sign-in", { method: "POST", json: { email: password, password: "anything" } });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { fields: Record<string, string> } }).error.fields).toHaveProperty("email");
    }
    const tables = JSON.stringify([
      await ctx.database.db.selectFrom("audit_log").selectAll().execute(),
      await ctx.database.db.selectFrom("rate_limits").selectAll().execute(),
      await ctx.database.db.selectFrom("error_logs").selectAll().execute(),
    ]);
    expect(tables).not.toContain(password);
    expect(lines.join("\n")).not.toContain(password);
    // What a viewer reads of the audit log.
    const audit = await call("/api/admin/audit-log?limit=100", { token: viewer.token });
    expect(audit.status).toBe(200);
    expect(await audit.text()).not.toContain(password);
    // A real address still signs in (and a wrong password for it is still a 401).
    expect((await call("/api/auth/sign-in", { method: "POST", json: { email: "secrets-admin@hki.global", password: "wrong" } })).status).toBe(401);
  });

  it("audit rows: the user agent is scrubbed, and an export's filters keep only their plain values", async () => {
    const [agent, vendorId] = [canary("agent"), canary("vendor")];
    const res = await call("/api/admin/exports", {
      method: "POST",
      token: admin.token,
      headers: { "user-agent": `curl/8 Bearer ${agent}`, "x-request-id": "f7-export" },
      json: { kind: "payouts", filters: { status: "paid", vendorId } },
    });
    expect(res.status).toBe(201);
    const row = await ctx.database.db.selectFrom("audit_log").selectAll().where("request_id", "=", "f7-export").executeTakeFirstOrThrow();
    expect(row).toMatchObject({ action: "export.create", actor_id: admin.id, user_agent: "curl/8 Bearer [redacted]" });
    expect(JSON.parse(row.details)).toEqual({ kind: "payouts", filters: { status: "paid", vendorId: "[redacted]" }, rowCount: null });
    expect(JSON.stringify(row)).not.toMatch(new RegExp(`${agent}|${vendorId}`));
  });
});
