import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compareRollups } from "../../domain/ledger/recompute.ts";
import { sqliteBusyRetries, storefrontOrdersTogether } from "../../platform/metrics/metrics.ts";
import { artist, event, order, postEvents, product, send } from "../../testing/storefront-events.ts";
import { createTestContext, type TestContext } from "../../testing/test-app.ts";
import { StorefrontEventsService } from "./storefront-events.service.ts";
import { WRITER_THREAD_NICE } from "./storefront-events.thread.ts";

const NOW = "2026-11-22T12:00:00.000Z";
const ordersTogether = async () => (await storefrontOrdersTogether.get()).values[0]?.value ?? 0;

/** On a SQLite file the events are applied by the writer thread, on its own connection (decision 0028). */
describe("POST /api/events on a SQLite file: the writer thread", () => {
  let dir: string;
  let ctx: TestContext;
  let key: string;
  let token: string;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "hki-events-thread-"));
    ctx = await createTestContext("sqlite", { now: NOW, sqlitePath: join(dir, "panel.sqlite") });
    key = (await ctx.createApiKey()).key;
    token = (await ctx.createUser({ email: "boss@hki.global", role: "admin" })).token;
    await send(ctx, key, [
      event("artist.created", artist("a1")),
      event("artist.created", artist("a2")),
      event("product.created", product("p1", "a1", { priceCents: 2500 })),
      event("product.created", product("p2", "a2", { priceCents: 4000 })),
    ]);
  });
  afterEach(async () => {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const todaySales = async () => {
    const res = await ctx.request("/api/admin/dashboard/stats", { token });
    expect(res.status).toBe(200);
    return ((await res.json()) as { todaySales: number }).todaySales;
  };

  it("applies a batch's paid orders together while screens are read, and the screens show them right after the answer", async () => {
    const before = await todaySales();
    const together = await ordersTogether();
    const orders = ["o1", "o2", "o3"].map((id) => event("order.paid", order(id, [{ lineId: "l1", productId: "p1", artistId: "a1" }])));
    const mixed = event("order.paid", order("o4", [{ lineId: "l1", productId: "p2", artistId: "a2", quantity: 2, unitPriceCents: 4000 }]));
    expect((await send(ctx, key, [...orders, mixed])).map((r) => r.status)).toEqual(["applied", "applied", "applied", "applied"]);
    // A screen was read a moment before: on the main thread these would have been applied one by one.
    expect((await ordersTogether()) - together).toBe(4);
    // The dashboard's cached answer gives way to the writer thread's commit.
    expect(await todaySales()).toBe(before + 3 * 25 + 80);
    expect(await compareRollups(ctx.database.db)).toEqual([]);
    expect((await send(ctx, key, [...orders, mixed])).map((r) => r.status)).toEqual(["duplicate", "duplicate", "duplicate", "duplicate"]);
    expect(await todaySales()).toBe(before + 3 * 25 + 80);
  });

  it("answers 503 for a batch it cannot apply, counts its waits, keeps nothing of it, and applies the batch sent again", async () => {
    // Another connection holds the write lock longer than a write waits for it (SQLITE_LOCK_BUDGET_MS).
    const busyRetries = async () => (await sqliteBusyRetries.get()).values[0]?.value ?? 0;
    const retriesBefore = await busyRetries();
    const blocker = new SQLite(join(dir, "panel.sqlite"));
    blocker.exec("begin immediate");
    const batch = [event("order.paid", order("o1", [{ lineId: "l1", productId: "p1", artistId: "a1" }])), event("product.updated", product("p1", "a1", { priceCents: 2600 }))];
    const refused = await postEvents(ctx, key, batch);
    blocker.exec("rollback");
    blocker.close();
    expect(refused.status).toBe(503);
    // The thread's waits for the lock show in this process's metrics.
    expect(await busyRetries()).toBeGreaterThan(retriesBefore);
    expect(await ctx.database.db.selectFrom("orders").select("id").where("external_order_id", "=", "o1").execute()).toEqual([]);
    expect((await send(ctx, key, batch)).map((r) => r.status)).toEqual(["applied", "applied"]);
    expect(await compareRollups(ctx.database.db)).toEqual([]);
  }, 20_000);

  it("applies a batch in one transaction: a failure part-way keeps nothing of it, and the batch sent again applies whole", async () => {
    // A fault of the database while the third event is applied (not a refusal: the batch cannot be answered).
    const other = new SQLite(join(dir, "panel.sqlite"));
    other.exec("create trigger visits_fail before insert on store_visits begin select raise(abort, 'the disk is on fire'); end");
    const before = await todaySales();
    const batch = [
      event("order.paid", order("f1", [{ lineId: "l1", productId: "p1", artistId: "a1" }])),
      event("product.updated", product("p2", "a2", { priceCents: 4100 })),
      event("store.visits", { artistId: "a1", day: "2026-11-22", visits: 7 }),
    ];
    const failed = await postEvents(ctx, key, batch);
    expect(failed.status).toBeGreaterThanOrEqual(500);
    // The first two events were applied in the batch's transaction, which never committed.
    expect(await ctx.database.db.selectFrom("orders").select("id").where("external_order_id", "=", "f1").execute()).toEqual([]);
    expect(await ctx.database.db.selectFrom("products").select("price_cents").where("external_id", "=", "p2").executeTakeFirstOrThrow()).toEqual({ price_cents: 4000 });
    expect(await todaySales()).toBe(before);
    other.exec("drop trigger visits_fail");
    other.close();
    expect((await send(ctx, key, batch)).map((r) => r.status)).toEqual(["applied", "applied", "applied"]);
    expect(await todaySales()).toBe(before + 25);
    expect(await compareRollups(ctx.database.db)).toEqual([]);
  });

  it("lets a write of the main thread waiting for the lock go before the thread's next batch", async () => {
    const probe = new SQLite(join(dir, "panel.sqlite"));
    probe.pragma("busy_timeout = 0");
    /** True while another connection (the writer thread) holds the write lock. */
    const locked = () => {
      try {
        probe.exec("begin immediate");
        probe.exec("rollback");
        return false;
      } catch {
        return true;
      }
    };
    // Straight to the service, so both batches are received before the first takes the lock (a
    // request's own rate-limit count would wait for it).
    const service = new StorefrontEventsService(ctx.deps);
    const long = Array.from({ length: 400 }, (_, i) => event("order.paid", order(`w${i}`, [{ lineId: "l1", productId: "p1", artistId: "a1" }])));
    const first = service.ingest(long, null);
    const second = service.ingest([event("error.reported", { level: "error", message: "from the second batch" })], null);
    let firstAnswered = false;
    void first.then(
      () => (firstAnswered = true),
      () => (firstAnswered = true),
    );
    while (!locked()) {
      expect(firstAnswered, "the first batch was answered before its lock was seen").toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    // Waits for the lock the first batch holds, with the second batch already received.
    const mainWrite = ctx.database.db.insertInto("error_logs").values({ id: "main-write", level: "error", message: "from the main thread", created_at: NOW, archived: 0 }).execute();
    await Promise.all([first, second, mainWrite]);
    probe.close();
    const reader = new SQLite(join(dir, "panel.sqlite"), { readonly: true });
    const order_ = reader.prepare("select message from error_logs order by rowid").pluck().all();
    reader.close();
    expect(order_).toEqual(["from the main thread", "from the second batch"]);
  });

  it.runIf(process.platform === "linux")("runs the writer thread at a lower priority than the thread answering the screens", async () => {
    /** A thread's nice value: field 19 of its stat, the 17th after the command's closing parenthesis. */
    const nice = (stat: string) => Number(readFileSync(stat, "utf8").split(") ")[1]!.split(" ")[16]);
    await send(ctx, key, [event("store.visits", { artistId: "a1", day: "2026-11-22", visits: 3 })]);
    const threads = readdirSync("/proc/self/task").map((tid) => nice(`/proc/self/task/${tid}/stat`));
    expect(threads).toContain(WRITER_THREAD_NICE);
    // This thread answered the requests: it keeps its priority.
    expect(nice("/proc/thread-self/stat")).toBe(0);
  });

  it("finishes a batch handed to the thread before the database closes", async () => {
    const batch = Array.from({ length: 50 }, (_, i) => event("order.paid", order(`c${i}`, [{ lineId: "l1", productId: "p1", artistId: "a1" }])));
    const answer = postEvents(ctx, key, batch);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const closing = ctx.database.close();
    const res = await answer;
    await closing;
    expect(res.status).toBe(200);
    const reopened = new SQLite(join(dir, "panel.sqlite"), { readonly: true });
    const count = reopened.prepare("select count(*) from orders where external_order_id like 'c%'").pluck().get();
    reopened.close();
    expect(count).toBe(50);
  });
});
