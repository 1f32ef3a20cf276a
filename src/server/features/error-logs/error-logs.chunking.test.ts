import { type ServerType, serve } from "@hono/node-server";
import { Worker } from "node:worker_threads";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ErrorLevel, ErrorListResponse, ErrorMessageResponse } from "../../../contract/error-logs.ts";
import { newId } from "../../platform/db/ids.ts";
import { type TestContext, createTestContext } from "../../testing/test-app.ts";
import { listErrorLogsQuery } from "./error-logs.queries.ts";

/**
 * docs/product.md §12.3: bulk writes run in short chunks so the synchronous SQLite driver keeps serving other
 * requests. 200k rows are inserted through the raw better-sqlite3 handle (one transaction, a second
 * or so), then a cheap request is timed again and again while archive-all and cleanup run. The app
 * listens on a real socket: requests then arrive as I/O events between chunks, as in production
 * (in-process app.request calls would only ever run on the microtask queue).
 */
const NOW = "2026-11-22T12:00:00.000Z";
const ROWS = 200_000;
const DAY = 86_400_000;
/** Worker-thread source: fetches the health URL back to back and reports each latency until told to stop. */
const HEALTH_POLLER = `
const { parentPort, workerData } = require("node:worker_threads");
let stop = false;
parentPort.on("message", () => { stop = true; });
(async () => {
  while (!stop) {
    const started = performance.now();
    try {
      const res = await fetch(workerData.url);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error("health answered " + res.status);
      parentPort.postMessage({ latency: performance.now() - started });
    } catch (err) {
      parentPort.postMessage({ error: String(err) });
      break;
    }
  }
  parentPort.close();
})();
`;
const percentile = (ms: number[], p: number) => [...ms].sort((a, b) => a - b)[Math.min(ms.length - 1, Math.floor((ms.length * p) / 100))] ?? 0;

/**
 * "Answers in under 100 ms" as a test that holds on a busy 2-core CI machine: many calls served
 * during the job, 95% of them under 100 ms, none held for the whole job (an unchunked 200k-row
 * UPDATE blocks every request for seconds, so only one or two calls would complete). A single call
 * can exceed 100 ms on a loaded machine with nothing else running in the process (measured: 115 ms
 * once in 775 idle calls at load average 10; one 1.1 s stall in five runs at load 10).
 */
function expectResponsive(latencies: number[]): void {
  expect(latencies.length).toBeGreaterThan(20);
  expect(percentile(latencies, 95)).toBeLessThan(100);
  expect(Math.max(...latencies)).toBeLessThan(1500);
}

const slowest = (ms: number[]) =>
  [...ms]
    .sort((a, b) => b - a)
    .slice(0, 5)
    .map((m) => m.toFixed(1))
    .join(", ");

describe("archive-all and cleanup on 200k rows (sqlite)", () => {
  let ctx: TestContext;
  let token: string;
  let server: ServerType;
  let base: string;

  beforeEach(async () => {
    ctx = await createTestContext("sqlite", { now: NOW });
    token = (await ctx.createUser({ email: "ops@hki.global" })).token;
    const sqlite = ctx.database.sqlite!;
    const insert = sqlite.prepare(
      `insert into error_logs (id, level, message, endpoint, method, status_code, ip_address, created_at, archived_at, archived)
       values (?, ?, ?, '/api/x', 'GET', 500, '10.0.0.1', ?, null, 0)`,
    );
    const levels = ["error", "warning", "info"] as const;
    const t0 = Date.parse(NOW) - 60 * DAY;
    sqlite.transaction(() => {
      for (let i = 0; i < ROWS; i++) insert.run(newId(), levels[i % 3], `failure ${i}`, new Date(t0 + i * 1000).toISOString());
    })();
    await new Promise<void>((resolve) => {
      server = serve({ fetch: ctx.app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
        base = `http://127.0.0.1:${info.port}`;
        resolve();
      });
    });
  }, 60_000);

  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
    await ctx.close();
  });

  const call = (path: string, init: RequestInit = {}) => fetch(`${base}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });

  /**
   * Runs `work` while a worker thread (its own event loop, like a separate client) calls GET
   * /api/health back to back; returns the work's answer and the latencies the worker saw.
   */
  async function whileTiming<T>(work: () => Promise<T>): Promise<{ result: T; latencies: number[] }> {
    const worker = new Worker(HEALTH_POLLER, { eval: true, workerData: { url: `${base}/api/health` } });
    const latencies: number[] = [];
    const stopped = new Promise<void>((resolve, reject) => {
      worker.on("message", (m: { latency?: number; error?: string }) => {
        if (m.error) reject(new Error(m.error));
        if (m.latency !== undefined) latencies.push(m.latency);
      });
      worker.on("exit", () => resolve());
    });
    // Wait until the poller is running, so the whole bulk operation is observed.
    while (latencies.length < 3) await new Promise((r) => setTimeout(r, 5));
    const result = await work();
    worker.postMessage("stop");
    await stopped;
    return { result, latencies };
  }

  it("archive-all and cleanup keep a cheap request under 100 ms while they run", async () => {
    const archived = await whileTiming(async () => {
      const res = await call("/api/admin/errors/archive-all", { method: "POST" });
      return { status: res.status, body: (await res.json()) as ErrorMessageResponse };
    });
    expect(archived.result.status).toBe(200);
    expect(archived.result.body.message).toBe("Archived 200,000 errors");
    // The cheap request really ran during the archive (many times), and never waited long.
    console.info(`[chunking] archive-all slowest health calls: ${slowest(archived.latencies)}`);
    expectResponsive(archived.latencies);
    console.info(
      `[chunking] archive-all 200k: ${archived.latencies.length} health calls meanwhile, p50 ${percentile(archived.latencies, 50).toFixed(1)} ms, p95 ${percentile(archived.latencies, 95).toFixed(1)} ms, max ${Math.max(...archived.latencies).toFixed(1)} ms`,
    );

    const listRes = await call("/api/admin/errors?archived=true&limit=1");
    const list = (await listRes.json()) as ErrorListResponse;
    expect(list.counts).toEqual({ all: ROWS, error: 66_667, warning: 66_667, info: 66_666 });

    ctx.clock.advance(30 * DAY + 1);
    // Test sessions last an hour: sign in again after moving the clock.
    token = (await ctx.createUser({ email: "ops2@hki.global" })).token;
    const cleaned = await whileTiming(async () => {
      const res = await call("/api/admin/errors/cleanup-archived", { method: "DELETE" });
      return { status: res.status, body: (await res.json()) as ErrorMessageResponse };
    });
    expect(cleaned.result.body.message).toBe("Deleted 200,000 archived errors older than 30 days");
    console.info(`[chunking] cleanup slowest health calls: ${slowest(cleaned.latencies)}`);
    expectResponsive(cleaned.latencies);
    console.info(
      `[chunking] cleanup 200k: ${cleaned.latencies.length} health calls meanwhile, p50 ${percentile(cleaned.latencies, 50).toFixed(1)} ms, p95 ${percentile(cleaned.latencies, 95).toFixed(1)} ms, max ${Math.max(...cleaned.latencies).toFixed(1)} ms`,
    );
    const left = ctx.database.sqlite!.prepare("select count(*) as n from error_logs").get() as { n: number };
    expect(left.n).toBe(0);
  }, 120_000);

  it("lists deep pages by cursor through the index (no table scan, no sort)", () => {
    const plan = (level?: ErrorLevel) => {
      const compiled = listErrorLogsQuery(ctx.database.db, {
        archived: false,
        level,
        limit: 20,
        offset: 0,
        after: { createdAt: "2026-10-10T00:00:00.000Z", id: "z" },
      }).compile();
      const rows = ctx.database.sqlite!.prepare(`explain query plan ${compiled.sql}`).all(...(compiled.parameters as unknown[]));
      return (rows as Array<{ detail: string }>).map((r) => r.detail).join(" | ");
    };
    expect(plan()).toMatch(/USING INDEX error_logs_view_idx/);
    expect(plan("info")).toMatch(/USING INDEX error_logs_view_level_idx/);
    for (const p of [plan(), plan("info")]) expect(p).not.toMatch(/TEMP B-TREE|SCAN error_logs$/);
  });
});
