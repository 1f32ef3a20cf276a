import { type ServerType, serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../app.ts";
import { createLogger } from "../platform/logging/logger.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../testing/test-app.ts";

/**
 * Issue 18, finding 6: a client that resets its connection in the middle of sending a body used to
 * get a 503 "database temporarily unavailable", an error-level error-log row "aborted" and a
 * `[db] unavailable` line, because Node reports the reset as ECONNRESET, a code the database
 * failures also carry. The attack, on a real server over a real socket: the abandoned request
 * leaves a debug access line (status 499) and nothing else, and the server carries on.
 */
describe.each(testDatabaseKinds)("a connection reset mid-body is the client's doing (%s)", (kind) => {
  let ctx: TestContext;
  let server: ServerType;
  let port: number;
  let adminToken: string;
  const accessLines: Array<Record<string, unknown>> = [];
  const printed: string[] = [];

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    adminToken = (await ctx.createUser({ email: "abort-admin@hki.global" })).token;
    const logger = createLogger("debug", { write: (line: string) => void accessLines.push(JSON.parse(line) as Record<string, unknown>) });
    const app = createApp({ ...ctx.deps, logger });
    for (const method of ["error", "warn", "log", "info"] as const) vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(" ")));
    await new Promise<void>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve());
    });
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await new Promise((resolve) => server.close(resolve));
    await ctx.close();
  });

  /** Sends the headers and half of the announced body, waits until the server is reading it, then resets the connection (RST). */
  async function resetMidBody(method: string, path: string, headers: Record<string, string>): Promise<string> {
    const requestId = `abort-${Math.random().toString(36).slice(2)}`;
    const socket = net.connect(port, "127.0.0.1");
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    const head = Object.entries({ host: `127.0.0.1:${port}`, "content-type": "application/json", "content-length": "1000", "x-request-id": requestId, ...headers })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("");
    socket.write(`${method} ${path} HTTP/1.1\r\n${head}\r\n{"email":"abort@example.com","password":"half a bo`);
    await new Promise((resolve) => setTimeout(resolve, 150));
    socket.resetAndDestroy();
    // The server hears the reset, fails the body read and writes its access line.
    const deadline = Date.now() + 5000;
    while (!accessLines.some((l) => l.requestId === requestId) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    return requestId;
  }

  it("no 503, no error-log row, no database line: one debug access line with 499; the next request is served", async () => {
    const signIn = await resetMidBody("POST", "/api/auth/sign-in", {});
    const settings = await resetMidBody("PUT", "/api/admin/settings", { authorization: `Bearer ${adminToken}` });

    for (const requestId of [signIn, settings]) {
      const lines = accessLines.filter((l) => l.requestId === requestId);
      expect(lines, `access line of ${requestId}`).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: "debug", status: 499 });
    }
    expect(accessLines.filter((l) => l.status === 503 || l.level === "error")).toEqual([]);
    expect(await ctx.database.db.selectFrom("error_logs").selectAll().execute()).toEqual([]);
    expect(printed.filter((line) => /\[db\]|unavailable|aborted/i.test(line))).toEqual([]);

    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(health.status).toBe(200);
    // A whole request on a fresh connection still works, body and all.
    const res = await fetch(`http://127.0.0.1:${port}/api/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "abort@example.com", password: "wrong password" }),
    });
    expect(res.status).toBe(401);
  });
});
