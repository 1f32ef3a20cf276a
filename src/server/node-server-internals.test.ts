import { serve } from "@hono/node-server";
import { getConnInfo } from "@hono/node-server/conninfo";
import { readFileSync } from "node:fs";
import { IncomingMessage, type OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Hono } from "hono";
import { stream } from "hono/streaming";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeRequest, nodeResponse, requestHeader } from "./platform/http/exchange-headers.ts";

/**
 * The request path leans on how @hono/node-server hands a request to the app and writes its answer,
 * which is not its documented API (platform/http/exchange-headers.ts, security-headers.ts,
 * client-abort.ts; docs/performance.md): package.json therefore takes its patch releases only
 * (`~`), and this test fails when an update changes any of these internals:
 *
 * - the bindings `{ incoming, outgoing }`, node's own request and response, are the app's `c.env`;
 * - `serverOptions.ServerResponse` is the class of every response;
 * - an answer is written by one `writeHead(status, record)` with a plain header record, before
 *   which nothing went through node's header store (SecureServerResponse adds its headers to that
 *   record; a header store would be copied header by header);
 * - `getConnInfo` reads the client's address from node's socket.
 */
interface WriteHeadCall {
  status: number;
  headers: unknown;
  storeBefore: string[];
}

const calls: WriteHeadCall[] = [];

class RecordingResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- node's overloads
  override writeHead(statusCode: number, ...rest: any[]): this {
    calls.push({ status: statusCode, headers: typeof rest[0] === "string" ? rest[1] : rest[0], storeBefore: this.getHeaderNames() });
    return super.writeHead(statusCode, ...(rest as [string, OutgoingHttpHeaders]));
  }
}

describe("@hono/node-server's internals the request path relies on", () => {
  const seen: Array<{ incoming: boolean; outgoing: boolean; ownClass: boolean; header: string | undefined; address: string | undefined }> = [];
  const app = new Hono();
  app.use(async (c, next) => {
    seen.push({
      incoming: c.env !== undefined && (c.env as { incoming?: unknown }).incoming instanceof IncomingMessage && nodeRequest(c) !== undefined,
      outgoing: nodeResponse(c) !== undefined,
      ownClass: nodeResponse(c) instanceof RecordingResponse,
      header: requestHeader(c, "X-Probe"),
      address: getConnInfo(c).remote.address,
    });
    await next();
  });
  app.get("/json", (c) => c.json({ ok: true }));
  app.get("/text", (c) => c.text("plain", 201, { "X-Own": "1" }));
  app.get("/stream", (c) => stream(c, async (s) => void (await s.write("a"))));
  app.get("/empty", (c) => c.body(null, 204));

  let server: ReturnType<typeof serve>;
  let base: string;
  beforeAll(async () => {
    await new Promise<void>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1", serverOptions: { ServerResponse: RecordingResponse as unknown as typeof ServerResponse } }, () => resolve());
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("is pinned to patch releases in package.json", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { dependencies: Record<string, string> };
    expect(pkg.dependencies["@hono/node-server"]).toMatch(/^~\d+\.\d+\.\d+$/);
  });

  it.each([
    ["/json", 200, "application/json"],
    ["/text", 201, "text/plain; charset=UTF-8"],
    ["/stream", 200, undefined],
    ["/empty", 204, undefined],
  ])("hands %s node's request and response as c.env and writes it with one writeHead of a plain record", async (path, status, contentType) => {
    calls.length = 0;
    seen.length = 0;
    const res = await fetch(`${base}${path}`, { headers: { "X-Probe": "seen" } });
    await res.arrayBuffer();
    expect(res.status).toBe(status);
    expect(seen).toEqual([{ incoming: true, outgoing: true, ownClass: true, header: "seen", address: "127.0.0.1" }]);
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call!.status).toBe(status);
    expect(call!.storeBefore).toEqual([]);
    expect(call!.headers !== null && typeof call!.headers === "object" && !Array.isArray(call!.headers)).toBe(true);
    // Names in the record may have any case (the lightweight answers of c.json write "Content-Type").
    const record = Object.fromEntries(Object.entries(call!.headers as Record<string, unknown>).map(([name, value]) => [name.toLowerCase(), value]));
    if (contentType) expect(record["content-type"]).toBe(contentType);
    if (path === "/text") expect(record["x-own"]).toBe("1");
  });
});
