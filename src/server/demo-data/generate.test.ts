import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixedClock } from "../platform/clock.ts";
import { readCounters } from "../domain/ledger/counters.ts";
import { placeOrder, refundOrder } from "../domain/ledger/orders.ts";
import { compareRollups } from "../domain/ledger/recompute.ts";
import { openDatabase, type Database } from "../platform/db/connect.ts";
import { migrateToLatest } from "../platform/db/migrate.ts";
import { generateLargeDataset } from "./generate.ts";

const clock = fixedClock("2026-03-10T15:30:00.000Z");
const small = { vendors: 200, products: 1500, orders: 2000, errorLogs: 500, days: 400, seed: 3, clock };

async function sqliteDatabase(): Promise<Database> {
  const database = openDatabase({ kind: "sqlite", path: ":memory:" });
  await migrateToLatest(database.db);
  return database;
}

describe("generateLargeDataset", () => {
  it("keeps a SQLite file's write-ahead log smaller than the file while it loads, and leaves checkpoints to the checkpointer again afterwards", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hki-generate-"));
    const path = join(dir, "set.sqlite");
    const database = openDatabase({ kind: "sqlite", path });
    try {
      await migrateToLatest(database.db);
      await generateLargeDataset(database, { ...small, vendors: 400, products: 6000, orders: 20_000 });
      // The load's own checkpoints start the log again after each of its commits, so the log holds
      // at most one commit's pages. With the checkpointer thread alone (which never caught up with
      // back-to-back commits) it held the whole load and outgrew the file (59 against 41 MB here).
      expect(statSync(`${path}-wal`).size).toBeLessThan(statSync(path).size);
      expect(database.sqlite!.pragma("wal_autocheckpoint", { simple: true })).toBe(0);
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("writes the requested counts with rollups equal to a recomputation (SQLite fast path)", async () => {
    const database = await sqliteDatabase();
    try {
      const summary = await generateLargeDataset(database, small);
      expect(summary).toMatchObject({ vendors: 200, products: 1500, orders: 2000, errorLogs: 500 });
      const c = await readCounters(database.db);
      // 200 artists and 2 applicants waiting (one per hundred).
      expect([c.vendors_total, c.vendors_pending, c.products_total, c.orders_total]).toEqual([202, 2, 1500, 2000]);
      expect(await compareRollups(database.db)).toEqual([]);
      // The ledger keeps working on generated data.
      const order = await database.db.selectFrom("orders").selectAll().where("status", "=", "paid").limit(1).executeTakeFirstOrThrow();
      await refundOrder(database.db, order.id, clock);
      if (order.product_id) {
        await placeOrder(database.db, { vendorId: order.vendor_id, productId: order.product_id, quantity: 1, feeRateBasisPoints: 150 }, clock);
      }
      expect(await compareRollups(database.db)).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it("adds consistently to existing data when run twice with different seeds", async () => {
    const database = await sqliteDatabase();
    try {
      await generateLargeDataset(database, { ...small, vendors: 50, products: 200, orders: 300, errorLogs: 10 });
      await generateLargeDataset(database, { ...small, vendors: 50, products: 200, orders: 300, errorLogs: 10, seed: 4 });
      expect((await readCounters(database.db)).orders_total).toBe(600);
      expect(await compareRollups(database.db)).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it.runIf(process.env.TEST_DATABASE_URL)("works on PostgreSQL through multi-row inserts", async () => {
    const { testBackends } = await import("../testing/test-databases.ts");
    const backend = testBackends().find((b) => b.kind === "postgres");
    if (!backend) return;
    const t = await backend.open();
    try {
      await generateLargeDataset({ kind: "postgres", db: t.db }, { ...small, vendors: 60, products: 300, orders: 600, errorLogs: 50 });
      expect(await compareRollups(t.db)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe("generateLargeDataset: audit rows", () => {
  it("writes as many audit rows as asked (default: as many as error logs), targeting generated vendors, all in the past", async () => {
    const database = await sqliteDatabase();
    try {
      await generateLargeDataset(database, { ...small, vendors: 30, products: 100, orders: 100, errorLogs: 40 });
      const count = async () =>
        Number(
          (
            await database.db
              .selectFrom("audit_log")
              .select((eb) => eb.fn.countAll<number>().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(await count()).toBe(40);
      const vendorRows = await database.db
        .selectFrom("audit_log")
        .leftJoin("vendors", "vendors.id", "audit_log.target_id")
        .select(["vendors.id as vendor"])
        .where("audit_log.target_type", "=", "vendor")
        .execute();
      expect(vendorRows.length).toBeGreaterThan(0);
      expect(vendorRows.every((r) => r.vendor !== null)).toBe(true);
      const future = await database.db.selectFrom("audit_log").select("id").where("created_at", ">", clock.now().toISOString()).execute();
      expect(future).toEqual([]);
      await generateLargeDataset(database, { ...small, vendors: 5, products: 10, orders: 10, errorLogs: 0, auditRows: 25, seed: 9 });
      expect(await count()).toBe(65);
    } finally {
      await database.close();
    }
  });
});
