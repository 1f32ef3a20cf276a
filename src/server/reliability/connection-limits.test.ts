import type { ServerType } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import net from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { Hono } from "hono";
import { createApp } from "../app.ts";
import type { AppConfig } from "../platform/config/config.ts";
import type { AppEnv } from "../platform/request/app-env.ts";
import { createLogger, setProcessLog } from "../platform/logging/logger.ts";
import { metricsText } from "../platform/metrics/metrics.ts";
import { serveApp } from "../serve.ts";
import { type TestContext, createTestContext } from "../testing/test-app.ts";

/**
 * Issue 31, "also seen": a partial request held a socket for node's default 300 s and a process
 * accepted connections without limit. The server as serve.ts runs it (node:http, its timeouts and
 * its connection cap) over real sockets: headers that do not arrive in time get 408 and a closed
 * connection, and connections beyond HTTP_MAX_CONNECTIONS are closed unread while the ones already
 * open are served. No database behaviour is involved, so SQLite alone.
 */
describe("how long and how many sockets a client may hold", () => {
  let ctx: TestContext;
  const servers: ServerType[] = [];
  const sockets: net.Socket[] = [];
  const printed: string[] = [];

  beforeAll(async () => {
    ctx = await createTestContext("sqlite");
    // The process's JSON log (where the refusal warning goes), each line's message kept.
    setProcessLog(createLogger("warn", { write: (line: string) => void printed.push((JSON.parse(line) as { msg: string }).msg) }));
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.destroy();
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    await ctx.close();
  });

  async function start(limits: Partial<AppConfig>, app: Hono<AppEnv> = ctx.app): Promise<number> {
    const server = await new Promise<ServerType>((resolve) => {
      const started: ServerType = serveApp(app, { ...ctx.config, port: 0, host: "127.0.0.1", ...limits }, () => resolve(started));
    });
    servers.push(server);
    return (server.address() as AddressInfo).port;
  }

  /** A connection and what the server sent on it; `closed` settles when the server closes it. */
  async function connect(port: number) {
    const socket = net.connect(port, "127.0.0.1");
    sockets.push(socket);
    let received = "";
    socket.on("data", (data: Buffer) => (received += data.toString()));
    socket.on("error", () => undefined);
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    return { socket, closed, received: () => received };
  }

  const isOpen = (closed: Promise<void>, withinMs: number) => Promise.race([closed.then(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(true), withinMs))]);

  it("closes a connection whose headers trickle in, or never come, at the headers timeout with 408", async () => {
    const port = await start({ httpHeadersTimeoutMs: 1000, httpRequestTimeoutMs: 5000 });
    const started = Date.now();
    const silent = await connect(port);
    const trickling = await connect(port);
    trickling.socket.write(`GET /api/health HTTP/1.1\r\nhost: 127.0.0.1\r\n`);
    const dripping = setInterval(() => trickling.socket.write("x-drip: 1\r\n"), 200);
    try {
      await Promise.all([silent.closed, trickling.closed]);
    } finally {
      clearInterval(dripping);
    }
    const heldMs = Date.now() - started;
    expect(heldMs).toBeGreaterThanOrEqual(950);
    expect(heldMs).toBeLessThan(3000);
    expect(trickling.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  });

  it("does not count the time taken to answer: a request that arrived whole is answered however long that takes", async () => {
    const slowAnswers = new Hono<AppEnv>().post("/test/slow-answer", async (c) => {
      const body = await c.req.text();
      await new Promise((resolve) => setTimeout(resolve, 1600));
      return c.json({ echoed: body });
    });
    const port = await start({ httpHeadersTimeoutMs: 1000, httpRequestTimeoutMs: 1000 }, createApp(ctx.deps, { extraRoutes: [slowAnswers] }));
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/api/test/slow-answer`, { method: "POST", body: `request ${i}` });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ echoed: `request ${i}` });
    }
  });

  it("closes connections beyond HTTP_MAX_CONNECTIONS unread, serves the open ones, counts and warns once", async () => {
    const port = await start({ httpMaxConnections: 3 });
    const refusedBefore = /hki_http_connections_refused_total (\d+)/.exec((await metricsText()).body)?.[1];
    const held = [await connect(port), await connect(port), await connect(port)];
    const beyond = [await connect(port), await connect(port)];
    for (const extra of beyond) {
      expect(await isOpen(extra.closed, 1000)).toBe(false);
      expect(extra.received()).toBe("");
    }
    // The connections within the cap stay open and are served.
    for (const connection of held) expect(await isOpen(connection.closed, 50)).toBe(true);
    held[0]!.socket.write(`GET /api/health HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`);
    await vi.waitFor(() => expect(held[0]!.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/));

    const refusedAfter = /hki_http_connections_refused_total (\d+)/.exec((await metricsText()).body)?.[1];
    expect(Number(refusedAfter) - Number(refusedBefore ?? 0)).toBe(2);
    expect(printed.filter((line) => line.includes("HTTP_MAX_CONNECTIONS"))).toEqual(["[http] 1 connection(s) refused: 3 already open in this process (HTTP_MAX_CONNECTIONS)"]);

    // A connection that closes makes room for a new one.
    held[1]!.socket.destroy();
    await held[1]!.closed;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const next = await connect(port);
    next.socket.write(`GET /api/health HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n`);
    await next.closed;
    expect(next.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  });
});
