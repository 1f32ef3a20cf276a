import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAnswerHeader } from "./exchange-headers.ts";
import { CONTENT_SECURITY_POLICY, secureServerResponse, securityHeaders } from "./security-headers.ts";

/**
 * Served by node:http (as serve.ts runs the app), the response class writes the security headers;
 * the middleware then adds nothing. Every kind of answer carries them: JSON, a streamed body, a
 * thrown error, and a header the app set itself keeps the app's value.
 */
describe("security headers written by the node:http response class", () => {
  let server: ReturnType<typeof serve>;
  let base: string;
  beforeAll(async () => {
    const app = new Hono();
    app.use("*", securityHeaders());
    app.get("/json", (c) => c.json({ ok: true }));
    app.get("/stream", (c) => c.body(new ReadableStream({ start: (ctl) => (ctl.enqueue(new TextEncoder().encode("a,b\n")), ctl.close()) })));
    app.get("/framed", (c) => c.text("own", 200, { "X-Frame-Options": "SAMEORIGIN" }));
    app.get("/preset", (c) => (setAnswerHeader(c, "Cache-Control", "no-store"), setAnswerHeader(c, "X-Step", "first"), setAnswerHeader(c, "x-step", "second"), c.json({ ok: true })));
    app.get("/preset-own", (c) => (setAnswerHeader(c, "cache-control", "no-store"), c.json({ ok: true }, 200, { "Cache-Control": "max-age=60" })));
    app.get("/preset-empty", (c) => (setAnswerHeader(c, "Cache-Control", "no-store"), c.body(null, 204)));
    app.get("/preset-stream", (c) => (setAnswerHeader(c, "Cache-Control", "no-store"), c.body(new ReadableStream({ start: (ctl) => (ctl.enqueue(new TextEncoder().encode("a\n")), ctl.close()) }))));
    app.get("/boom", () => {
      throw new Error("boom");
    });
    await new Promise<void>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1", serverOptions: { ServerResponse: secureServerResponse() } }, () => resolve());
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  for (const path of ["/json", "/stream", "/boom", "/nowhere"]) {
    it(`${path}: every security header, once`, async () => {
      const res = await fetch(`${base}${path}`);
      expect(res.headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.headers.get("cross-origin-opener-policy")).toBe("same-origin");
      expect(res.headers.get("permissions-policy")).toBe("camera=(), microphone=(), geolocation=()");
    });
  }

  it("writes a header set before the answer once, with its last value, on every kind of answer", async () => {
    const json = await fetch(`${base}/preset`);
    expect(json.headers.get("cache-control")).toBe("no-store");
    expect(json.headers.get("x-step")).toBe("second");
    expect(await json.json()).toEqual({ ok: true });
    for (const path of ["/preset-empty", "/preset-stream"]) {
      const res = await fetch(`${base}${path}`);
      expect(res.headers.get("cache-control"), path).toBe("no-store");
      expect(res.headers.get("x-frame-options"), path).toBe("DENY");
    }
  });

  it("lets the answer's own value win over a header set before it, whatever the names' case", async () => {
    const res = await fetch(`${base}/preset-own`);
    expect(res.headers.get("cache-control")).toBe("max-age=60");
  });

  it("keeps a header the app set itself", async () => {
    const res = await fetch(`${base}/framed`);
    expect(res.headers.get("x-frame-options")).toBe("SAMEORIGIN");
  });
});
