import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ErrorLevel, ErrorListResponse, ErrorMessageResponse } from "../../contract/error-logs.ts";
import { newId } from "../db/ids.ts";
import { type TestContext, createTestContext } from "../test/test-app.ts";
import { listErrorLogsQuery } from "./error-logs.queries.ts";

/**
 * DESIGN.md: bulk writes run in short chunks so the synchronous SQLite driver keeps serving other
 * requests. 200k rows are inserted through the raw better-sqlite3 handle (one transaction, a second
 * or so), then a cheap request is timed again and again while archive-all and cleanup run.
 */
const NOW = "2026-11-22T12:00:00.000Z";
const ROWS = 200_000;
const DAY = 86_400_000;

describe("archive-all and cleanup on 200k rows (sqlite)", () => {
  let ctx: TestContext;
  let token: string;

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
  }, 60_000);

  afterEach(async () => {
    await ctx.close();
  });

  /** Runs `work` while timing back-to-back GET /api/health calls; returns the work's answer and the latencies. */
  async function whileTiming<T>(work: Promise<T>): Promise<{ result: T; latencies: number[] }> {
    let done = false;
    const finished = work.finally(() => {
      done = true;
    });
    const latencies: number[] = [];
    while (!done) {
      const started = performance.now();
      const res = await ctx.request("/api/health");
      expect(res.status).toBe(200);
      latencies.push(performance.now() - started);
    }
    return { result: await finished, latencies };
  }

  it("archive-all and cleanup keep a cheap request under 100 ms while they run", async () => {
    const archiveAll = ctx
      .request("/api/admin/errors/archive-all", { method: "POST", token })
      .then(async (res) => ({ status: res.status, body: (await res.json()) as ErrorMessageResponse }));
    const archived = await whileTiming(archiveAll);
    expect(archived.result.status).toBe(200);
    expect(archived.result.body.message).toBe("Archived 200,000 errors");
    // The cheap request really ran during the archive (many times), and never waited long.
    expect(archived.latencies.length).toBeGreaterThan(20);
    expect(Math.max(...archived.latencies)).toBeLessThan(100);
    console.info(
      `[chunking] archive-all 200k: ${archived.latencies.length} health calls meanwhile, max ${Math.max(...archived.latencies).toFixed(1)} ms`,
    );

    const listRes = await ctx.request("/api/admin/errors?archived=true&limit=1", { token });
    const list = (await listRes.json()) as ErrorListResponse;
    expect(list.counts).toEqual({ all: ROWS, error: 66_667, warning: 66_667, info: 66_666 });

    ctx.clock.advance(30 * DAY + 1);
    const cleanup = ctx
      .request("/api/admin/errors/cleanup-archived", { method: "DELETE", token })
      .then(async (res) => ({ status: res.status, body: (await res.json()) as ErrorMessageResponse }));
    const cleaned = await whileTiming(cleanup);
    expect(cleaned.result.body.message).toBe("Deleted 200,000 archived errors older than 30 days");
    expect(cleaned.latencies.length).toBeGreaterThan(20);
    expect(Math.max(...cleaned.latencies)).toBeLessThan(100);
    console.info(
      `[chunking] cleanup 200k: ${cleaned.latencies.length} health calls meanwhile, max ${Math.max(...cleaned.latencies).toFixed(1)} ms`,
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
