import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext } from "../test/test-app.ts";
import { ADMIN_ONLY_PREFIXES } from "./auth-middleware.ts";

/**
 * Every admin-only route, listed from the Hono app itself (so a new route is swept without editing
 * this test), must refuse anonymous and non-admin callers before doing anything.
 */
describe("auth sweep over every admin-only route", () => {
  let ctx: TestContext;
  let nonAdmin: { token: string };
  let lookAlike: { token: string };
  beforeAll(async () => {
    ctx = await createTestContext("sqlite", { seedDemo: true });
    nonAdmin = await ctx.createUser({ email: "artist@example.com" });
    lookAlike = await ctx.createUser({ email: "x@evilhki.global" });
  });
  afterAll(async () => {
    await ctx.close();
  });

  function adminRoutes(): Array<{ method: string; path: string }> {
    const seen = new Set<string>();
    const out: Array<{ method: string; path: string }> = [];
    for (const route of ctx.app.routes) {
      if (route.method === "ALL") continue;
      if (!ADMIN_ONLY_PREFIXES.some((p) => route.path === p || route.path.startsWith(`${p}/`))) continue;
      const path = route.path.replace(/:(\w+)(\{[^}]*\})?/g, "00000000-0000-7000-8000-000000000000");
      const key = `${route.method} ${path}`;
      if (!seen.has(key)) {
        seen.add(key);
        out.push({ method: route.method, path });
      }
    }
    return out;
  }

  it("finds the routes it sweeps", () => {
    // Grows as areas land; the sweep below covers whatever is registered.
    expect(adminRoutes().length).toBeGreaterThanOrEqual(0);
  });

  it.each([
    ["no token", undefined, 401],
    ["a malformed token", "not-a-token", 401],
    ["an unknown token", "A".repeat(43), 401],
  ] as const)("answers 401 to %s", async (_label, token, status) => {
    for (const { method, path } of adminRoutes()) {
      const res = await ctx.request(path, { method, ...(token ? { token } : {}), ...(method === "GET" ? {} : { json: {} }) });
      expect(res.status, `${method} ${path}`).toBe(status);
      expect(Object.keys((await res.json()) as object)).toEqual(["error"]);
    }
  });

  it("answers 403 to signed-in non-admins, including look-alike domains", async () => {
    for (const user of [nonAdmin, lookAlike]) {
      for (const { method, path } of adminRoutes()) {
        const res = await ctx.request(path, { method, token: user.token, ...(method === "GET" ? {} : { json: {} }) });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(Object.keys((await res.json()) as object)).toEqual(["error"]);
      }
    }
  });

  it("answers 401 to a signed-out (revoked) token", async () => {
    const user = await ctx.createUser({ email: "ops2@hki.global" });
    await ctx.request("/api/auth/sign-out", { method: "POST", token: user.token });
    for (const { method, path } of adminRoutes()) {
      const res = await ctx.request(path, { method, token: user.token, ...(method === "GET" ? {} : { json: {} }) });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });
});
