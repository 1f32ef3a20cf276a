import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../app.ts";
import type { AppEnv } from "./app-env.ts";
import { LedgerError } from "../../domain/ledger/ledger-error.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";

type ErrorAnswer = { error: { code: string; message: string; fields?: Record<string, string> } };

describe.each(testDatabaseKinds)("endpoints registered from their definitions (%s)", (kind) => {
  let ctx: TestContext;
  let headers: Record<string, string>;
  beforeAll(async () => {
    ctx = await createTestContext(kind, { seedDemo: true });
    headers = (await ctx.createUser({ email: "router-admin@hki.global" })).headers;
  });
  afterAll(async () => {
    await ctx.close();
  });

  it("names every invalid query parameter in `fields`, the first one in the message", async () => {
    const res = await ctx.request("/api/admin/vendors?page=0&limit=500&status=gone", { headers });
    expect(res.status).toBe(400);
    const body = (await res.json()) as ErrorAnswer;
    expect(body.error.code).toBe("invalid_input");
    expect(Object.keys(body.error.fields ?? {}).sort()).toEqual(["limit", "page", "status"]);
    expect(body.error.message).toMatch(/^page: /);
  });

  it("names each bad setting in `fields` and writes none of the changes", async () => {
    const before = await (await ctx.request("/api/admin/settings", { headers })).json();
    const res = await ctx.request("/api/admin/settings", { method: "PUT", headers, json: { support_email: "not-an-email", platform_fee_percentage: "250", announcement_message: "fine" } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as ErrorAnswer;
    expect(body.error.code).toBe("invalid_setting");
    expect(Object.keys(body.error.fields ?? {}).sort()).toEqual(["platform_fee_percentage", "support_email"]);
    // The message names the first at fault in the settings' own order (the body is read as a strict object of the known keys).
    expect(body.error.message).toBe(`platform_fee_percentage: ${body.error.fields!.platform_fee_percentage}`);
    expect(await (await ctx.request("/api/admin/settings", { headers })).json()).toEqual(before);
  });

  it("names the field of a repeated query key and of a NUL character; a body that is not JSON has no fields", async () => {
    const repeated = (await (await ctx.request("/api/admin/vendors?page=1&page=2", { headers })).json()) as ErrorAnswer;
    expect(repeated.error.fields).toEqual({ page: "must be given once" });
    const nul = (await (await ctx.request("/api/vendors/x/status", { method: "PATCH", headers, json: { isActive: true, "note\u0000": 1 } })).json()) as ErrorAnswer;
    expect(nul.error.fields).toEqual({ "(key)": "must not contain NUL characters" });
    const notJson = await ctx.request("/api/vendors/x/status", { method: "PATCH", headers: { ...headers, "content-type": "text/plain" }, body: "isActive=true" });
    expect(notJson.status).toBe(415);
    expect(((await notJson.json()) as ErrorAnswer).error.fields).toBeUndefined();
  });

  it("marks answers that need a token as not to be stored by caches", async () => {
    expect((await ctx.request("/api/admin/dashboard/stats", { headers })).headers.get("cache-control")).toBe("no-store");
    expect((await ctx.request("/api/health")).headers.get("cache-control")).toBeNull();
  });

  it("maps the ledger's domain errors to 404, 400 and 409 with their code", async () => {
    const throwing = new Hono<AppEnv>();
    throwing.get("/ledger-error/:code", (c) => {
      throw new LedgerError(c.req.param("code") as "not_found", `ledger said ${c.req.param("code")}`);
    });
    const app = createApp(ctx.deps, { extraRoutes: [throwing] });
    for (const [code, status] of [
      ["not_found", 404],
      ["invalid_input", 400],
      ["invalid_state", 409],
    ] as const) {
      const res = await app.request(`/api/ledger-error/${code}`);
      expect(res.status, code).toBe(status);
      expect(await res.json()).toEqual({ error: { code, message: `ledger said ${code}` } });
    }
  });
});
