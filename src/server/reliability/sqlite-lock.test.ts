import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FileApp, openFileApp } from "../testing/file-app.ts";

/**
 * Another connection (a CLI, a backup, a second process) holding SQLite's write lock: short holds
 * are waited out, long ones turn writes into a quick 503 while reads keep being answered, and the
 * app recovers the moment the lock goes. better-sqlite3 is synchronous, so this only holds because
 * the driver waits on timers (sqlite-driver.ts) instead of inside SQLite's blocking busy wait.
 */
describe("SQLite lock held by another connection", () => {
  let ctx: FileApp;
  let other: SQLite.Database;
  let n = 0;
  beforeAll(async () => {
    ctx = await openFileApp();
    other = new SQLite(ctx.dbPath);
    other.pragma("busy_timeout = 0");
  });
  afterAll(async () => {
    if (other.inTransaction) other.exec("rollback");
    other.close();
    await ctx.close();
  });

  function write(): Promise<Response> {
    n += 1;
    return Promise.resolve(ctx.app.request("/api/admin/settings", { method: "PUT", headers: ctx.adminHeaders, body: JSON.stringify({ announcement_message: `lock ${n}` }) }));
  }
  function read(): Promise<Response> {
    return Promise.resolve(ctx.app.request("/api/admin/settings", { headers: ctx.adminHeaders }));
  }
  /** Holds the write lock for `ms`, released on a timer (the app runs meanwhile in this same process). */
  function holdLock(ms: number): Promise<void> {
    other.exec("begin exclusive");
    return new Promise((resolve) =>
      setTimeout(() => {
        other.exec("commit");
        resolve();
      }, ms),
    );
  }
  async function timed(p: Promise<Response>): Promise<{ res: Response; ms: number }> {
    const start = Date.now();
    const res = await p;
    return { res, ms: Date.now() - start };
  }

  it("held for 2 s: writes wait and succeed, reads are answered meanwhile", async () => {
    const released = holdLock(2000);
    const pendingWrite = timed(write());
    const reads = await Promise.all([timed(read()), timed(read()), timed(read())]);
    for (const r of reads) {
      expect(r.res.status).toBe(200);
      expect(r.ms).toBeLessThan(500);
    }
    const { res, ms } = await pendingWrite;
    await released;
    expect(res.status).toBe(200);
    expect(ms).toBeGreaterThanOrEqual(1900);
    expect(((await res.json()) as Record<string, { value: string }>).announcement_message?.value).toBe(`lock ${n}`);
  });

  it("held for 10 s: writes answer 503 with Retry-After within about 5 s, reads keep working, recovery at once", async () => {
    const released = holdLock(10_000);
    const start = Date.now();
    const pendingWrites = [timed(write()), timed(write())];
    // Reads during the whole outage, once every 500 ms.
    const readTimes: number[] = [];
    while (Date.now() - start < 6000) {
      const r = await timed(read());
      expect(r.res.status).toBe(200);
      readTimes.push(r.ms);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    for (const w of await Promise.all(pendingWrites)) {
      expect(w.res.status).toBe(503);
      expect(Number(w.res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(Object.keys((await w.res.json()) as object)).toEqual(["error"]);
      expect(w.ms).toBeGreaterThan(4000);
      expect(w.ms).toBeLessThan(6500);
    }
    expect(Math.max(...readTimes)).toBeLessThan(500);
    await released;
    const after = await timed(write());
    expect(after.res.status).toBe(200);
    expect(after.ms).toBeLessThan(500);
  }, 20_000);
});
