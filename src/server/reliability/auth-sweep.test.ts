import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppRoute, UNKNOWN_ID, appRoutes, definitionOf, fillPath, isAdminOnly, wellFormed } from "../testing/app-routes.ts";
import { STAFF_ROLES, type StaffRole, accessRefusal, roleMayCall } from "../../contract/access.ts";
import { type TestContext, createTestContext } from "../testing/test-app.ts";
import { sessionIdForToken } from "../platform/identity/local-auth-provider.ts";

/**
 * Every admin-only route × method, listed from the Hono app itself (so a new route is swept without
 * editing this test), must refuse every kind of bad credential before doing anything: 401 or 403,
 * the bare error shape and nothing else in the body, never 2xx or 5xx.
 */
describe("auth sweep over every admin-only route", () => {
  let ctx: TestContext;
  let routes: AppRoute[];
  const tokens: Record<string, string> = {};
  const roleTokens = {} as Record<StaffRole, string>;
  beforeAll(async () => {
    ctx = await createTestContext("sqlite", { seedDemo: true });
    routes = appRoutes(ctx.app).filter((r) => isAdminOnly(r.path));

    const admin = await ctx.createUser({ email: "sweep-admin@hki.global" });
    tokens.nonAdmin = (await ctx.createUser({ email: "artist@example.com" })).token;
    tokens.viewer = (await ctx.createUser({ email: "support-viewer@example.com", role: "viewer" })).token;
    roleTokens.admin = (await ctx.createUser({ email: "role-admin@example.com", role: "admin" })).token;
    roleTokens.finance = (await ctx.createUser({ email: "role-finance@example.com", role: "finance" })).token;
    roleTokens.support = (await ctx.createUser({ email: "role-support@example.com", role: "support" })).token;
    roleTokens.viewer = tokens.viewer;
    for (const email of ["x@evilhki.global", "x@hki.global.evil.com", "x@sub.hki.global", "hki.global@example.com", "x@hki-global.com"]) {
      tokens[`look-alike ${email}`] = (await ctx.createUser({ email })).token;
    }
    // Tokens are opaque random values stored by their hash (no signature to forge); the analogue of a
    // bad signature is a real admin token with one character changed.
    const last = admin.token.slice(-1);
    tokens.tampered = admin.token.slice(0, -1) + (last === "A" ? "B" : "A");
    tokens.malformed = "not-a-token";
    tokens.unknown = randomBytes(32).toString("base64url");
    tokens.jwtLike = "eyJhbGciOiJub25lIn0.eyJyb2xlIjoiYWRtaW4ifQ.";
    tokens.sqlLike = "' OR '1'='1";
    tokens.huge = "A".repeat(10_000);

    const expiredToken = randomBytes(32).toString("base64url");
    const now = ctx.clock.now().getTime();
    await ctx.database.db
      .insertInto("sessions")
      .values({ id: sessionIdForToken(expiredToken), user_id: admin.id, created_at: new Date(now - 13 * 3600_000).toISOString(), expires_at: new Date(now - 1000).toISOString(), revoked_at: null })
      .execute();
    tokens.expired = expiredToken;

    const revoked = await ctx.createUser({ email: "ops2@hki.global" });
    expect((await ctx.request("/api/auth/sign-out", { method: "POST", token: revoked.token })).status).toBe(204);
    tokens.revoked = revoked.token;
  });
  afterAll(async () => {
    await ctx.close();
  });

  it("finds the routes it sweeps, every area included", () => {
    const paths = routes.map((r) => `${r.method} ${r.path}`);
    for (const expected of [
      "GET /api/admin/vendors",
      "PATCH /api/vendors/:id/status",
      "DELETE /api/vendors/:id",
      "PUT /api/admin/settings",
      "GET /api/admin/errors",
      "GET /api/admin/dashboard/stats",
      "GET /api/debug/admin",
      "GET /api/admin/users",
      "POST /api/admin/users/invite",
      "PATCH /api/admin/users/:id",
      "GET /api/admin/audit-log",
    ]) {
      expect(paths).toContain(expected);
    }
  });

  async function expectRefused(route: AppRoute, headers: Record<string, string>, status: number, label: string): Promise<void> {
    const { query, json } = wellFormed(route);
    const res = await ctx.request(fillPath(route.path, UNKNOWN_ID) + query, { method: route.method, headers, ...(json !== undefined ? { json } : {}) });
    expect(res.status, `${label}: ${route.method} ${route.path}`).toBe(status);
    // No data in the body: exactly the error shape, nothing else.
    const body = (await res.json()) as { error: Record<string, unknown> };
    expect(Object.keys(body)).toEqual(["error"]);
    expect(Object.keys(body.error).sort()).toEqual(["code", "message"]);
  }

  it("answers 401 to no token and to every kind of invalid token", async () => {
    await Promise.all(routes.map((route) => expectRefused(route, {}, 401, "no token")));
    for (const label of ["malformed", "unknown", "tampered", "jwtLike", "sqlLike", "huge", "expired", "revoked"]) {
      await Promise.all(routes.map((route) => expectRefused(route, { authorization: `Bearer ${tokens[label]}` }, 401, label)));
    }
  });

  it("answers 401 to a valid token sent any way other than the bearer header (a cookie, a query string, Basic)", async () => {
    const admin = await ctx.createUser({ email: "cookie-admin@hki.global" });
    const ways: Array<Record<string, string>> = [
      { cookie: `token=${admin.token}; session=${admin.token}` },
      { authorization: `Basic ${Buffer.from(`x:${admin.token}`).toString("base64")}` },
      { authorization: admin.token },
    ];
    for (const headers of ways) {
      await Promise.all(routes.map((route) => expectRefused(route, headers, 401, JSON.stringify(headers))));
    }
    const res = await ctx.request(`/api/admin/vendors?token=${admin.token}&access_token=${admin.token}`);
    expect(res.status).toBe(401);
  });

  it("answers 403 to signed-in non-admins, including look-alike domains", async () => {
    for (const [label, token] of Object.entries(tokens).filter(([l]) => l === "nonAdmin" || l.startsWith("look-alike"))) {
      await Promise.all(routes.map((route) => expectRefused(route, { authorization: `Bearer ${token}` }, 403, label)));
    }
  });

  it("lets a viewer read every admin route and refuses every change with 403 (docs/product.md §1.3)", async () => {
    const viewer = { authorization: `Bearer ${tokens.viewer}` };
    const reads = routes.filter((r) => r.method === "GET");
    const changes = routes.filter((r) => r.method !== "GET");
    expect(reads.length).toBeGreaterThan(5);
    expect(changes.length).toBeGreaterThan(5);
    await Promise.all(changes.map((route) => expectRefused(route, viewer, 403, "viewer change")));
    for (const route of changes) {
      const { query, json } = wellFormed(route);
      const res = await ctx.request(fillPath(route.path, UNKNOWN_ID) + query, { method: route.method, headers: viewer, ...(json !== undefined ? { json } : {}) });
      expect(((await res.json()) as { error: { message: string } }).error.message, `${route.method} ${route.path}`).toBe("Read-only access: viewers cannot make changes");
    }
    // Every read passes the guard: whatever it answers (200, or 404 for an unknown id), never 401/403.
    for (const route of reads) {
      const { query } = wellFormed(route);
      const res = await ctx.request(fillPath(route.path, UNKNOWN_ID) + query, { headers: viewer });
      expect([401, 403], `viewer GET ${route.path}`).not.toContain(res.status);
      if (route.params.length === 0) expect(res.status, `viewer GET ${route.path}`).toBe(200);
    }
    // Methods no route registers are refused to a viewer too (never a 404 that reveals the path).
    for (const path of [...new Set(routes.map((r) => fillPath(r.path, UNKNOWN_ID)))]) {
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        expect((await ctx.request(path, { method, headers: viewer })).status, `${method} ${path}`).toBe(403);
      }
    }
  });

  it('holds every role to each endpoint\'s declared roles: allowed gets past the guard, anything else a 403 saying who may (docs/product.md "Roles")', async () => {
    let allowed = 0;
    let refused = 0;
    for (const role of STAFF_ROLES) {
      for (const route of routes) {
        const definition = definitionOf(route);
        expect(definition, `${route.method} ${route.path} is registered from a definition`).toBeDefined();
        const { query, json } = wellFormed(route);
        const res = await ctx.request(fillPath(route.path, UNKNOWN_ID) + query, { method: route.method, token: roleTokens[role], ...(json !== undefined ? { json } : {}) });
        const label = `${role} ${route.method} ${route.path}`;
        if (roleMayCall(definition!.access, role)) {
          allowed += 1;
          // Past the guard: whatever the endpoint answers (200, 404 for an unknown id, 409, 422), never 401 nor the role's 403.
          expect(res.status, label).not.toBe(401);
          if (res.status === 403) expect(((await res.json()) as { error: { code: string } }).error.code, label).not.toBe("forbidden");
        } else {
          refused += 1;
          expect(res.status, label).toBe(403);
          const body = (await res.json()) as { error: { code: string; message: string } };
          expect(body.error, label).toEqual({ code: "forbidden", message: accessRefusal(definition!.access, role) });
        }
      }
    }
    // Every role is refused something but the admin, and allowed something (every read at least).
    expect(allowed).toBeGreaterThan(routes.length * 2);
    expect(refused).toBeGreaterThan(routes.length / 2);
  });

  it("guards every method on every admin path, not only the registered ones", async () => {
    const paths = [...new Set(routes.map((r) => fillPath(r.path, UNKNOWN_ID)))];
    for (const path of paths) {
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        const res = await ctx.request(path, { method });
        expect(res.status, `${method} ${path}`).toBe(401);
      }
    }
  });

  it("answers 404 to unknown ids for an admin, never another row", async () => {
    const admin = await ctx.createUser({ email: "ids-admin@hki.global" });
    const withIds = appRoutes(ctx.app).filter((r) => r.params.length > 0);
    expect(withIds.length).toBeGreaterThan(0);
    for (const route of withIds) {
      const { query, json } = wellFormed(route);
      for (const id of [UNKNOWN_ID, "1", "0", "' OR 1=1 --", "%", "*", "x".repeat(300)]) {
        const res = await ctx.request(fillPath(route.path, id) + query, { method: route.method, token: admin.token, ...(json !== undefined ? { json } : {}) });
        expect(res.status, `${route.method} ${route.path} id=${id.slice(0, 20)}`).toBe(404);
        expect(Object.keys((await res.json()) as object)).toEqual(["error"]);
      }
    }
  });
});
