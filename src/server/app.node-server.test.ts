import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverResponseClass } from "./app.ts";
import { type TestContext, createTestContext } from "./testing/test-app.ts";

/**
 * The app served by node:http as serve.ts serves it (the response class writing the security
 * headers, request headers read from node's request, the request id and Cache-Control set on node's
 * response up front): every kind of answer carries what the in-process tests see, and an answer
 * repeated many times stays the same.
 */
describe("the app behind node:http", () => {
  let ctx: TestContext;
  let server: ReturnType<typeof serve>;
  let base: string;
  let admin: { headers: Record<string, string> };
  beforeAll(async () => {
    ctx = await createTestContext("sqlite");
    admin = await ctx.createUser({ email: "ops@hki.global", role: "admin" });
    await new Promise<void>((resolve) => {
      server = serve({ fetch: ctx.app.fetch, port: 0, hostname: "127.0.0.1", serverOptions: { ServerResponse: serverResponseClass(ctx.config) } }, () => resolve());
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await ctx.close();
  });

  it("answers an admin read the same way every time, never cached, with its own request id", async () => {
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await fetch(`${base}/api/admin/dashboard/stats`, { headers: admin.headers }));
    const bodies = await Promise.all(answers.map((res) => res.text()));
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(Number(res.headers.get("content-length"))).toBe(Buffer.byteLength(bodies[0]!));
    }
    expect(new Set(bodies).size).toBe(1);
    expect(new Set(answers.map((res) => res.headers.get("x-request-id"))).size).toBe(5);
  });

  it("keeps a request id the client chose, and refuses a forged one", async () => {
    const kept = await fetch(`${base}/api/health`, { headers: { "X-Request-Id": "trace-42" } });
    expect(kept.headers.get("x-request-id")).toBe("trace-42");
    const forged = await fetch(`${base}/api/health`, { headers: { "X-Request-Id": "a b\tc" } });
    expect(forged.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("marks refusals and errors of token endpoints not to be cached, and reads the token from node's headers", async () => {
    const anonymous = await fetch(`${base}/api/admin/dashboard/stats`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("cache-control")).toBe("no-store");
    expect(anonymous.headers.get("x-request-id")).toBeTruthy();
    const wrongToken = await fetch(`${base}/api/admin/dashboard/stats`, { headers: { Authorization: "Bearer not-a-session" } });
    expect(wrongToken.status).toBe(401);
    const badQuery = await fetch(`${base}/api/admin/vendors?limit=-3`, { headers: admin.headers });
    expect(badQuery.status).toBe(400);
    expect(badQuery.headers.get("cache-control")).toBe("no-store");
    const missing = await fetch(`${base}/api/nowhere`, { headers: admin.headers });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("cache-control")).toBe("no-store");
  });

  it("leaves public answers without a token cacheable", async () => {
    const res = await fetch(`${base}/api/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).not.toBe("no-store");
  });

  it("signs in through a JSON body read with node's content type", async () => {
    const res = await fetch(`${base}/api/auth/sign-in`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "nobody@hki.global", password: "wrong password" }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const notJson = await fetch(`${base}/api/auth/sign-in`, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "{}" });
    expect(notJson.status).toBe(415);
  });
});
