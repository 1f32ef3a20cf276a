import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../platform/clock.ts";
import { readCounters } from "./counters.ts";
import { LedgerError } from "./ledger-error.ts";
import { cancelOrder, feeCents, placeOrder, placeOrders, refundOrder } from "./orders.ts";
import { createProduct } from "./products.ts";
import { compareRollups } from "./recompute.ts";
import { type TestDatabase, testBackends } from "../../testing/test-databases.ts";
import { createVendor } from "./vendors.ts";

const clock = fixedClock("2026-03-10T12:00:00.000Z");

describe("feeCents", () => {
  it("rounds gross × rate / 10000 to the nearest cent", () => {
    expect(feeCents(10_000, 150)).toBe(150);
    expect(feeCents(2999, 150)).toBe(45); // 44.985
    expect(feeCents(2966, 150)).toBe(44); // 44.49
    expect(feeCents(0, 150)).toBe(0);
  });
});

describe.each(testBackends())("orders ledger on $kind", (backend) => {
  let t: TestDatabase;
  let vendorId = "";
  let productId = "";
  beforeEach(async () => {
    t = await backend.open();
    vendorId = (await createVendor(t.db, { name: "Ink", ownerName: "I", email: "i@x.com", slug: "ink" }, clock)).id;
    productId = (await createProduct(t.db, { vendorId, name: "Poster", priceCents: 2500 }, clock)).id;
  });
  afterEach(async () => {
    await t.close();
  });

  const place = (createdAt: string, quantity = 1, feeRateBasisPoints = 150) => placeOrder(t.db, { vendorId, productId, quantity, feeRateBasisPoints, createdAt, customerEmail: "c@x.com" }, clock);

  it("placeOrder fixes the fee and adds the sale to every rollup", async () => {
    const o = await place("2026-03-09T23:59:59.999Z", 2);
    await place("2026-03-10T00:00:00.000Z", 1, 100);
    expect(o).toMatchObject({ gross_cents: 5000, fee_cents: 75, product_name: "Poster", status: "paid" });
    const days = await t.db.selectFrom("daily_platform_totals").selectAll().orderBy("day").execute();
    expect(days.map((d) => [d.day, d.gross_cents, d.orders, d.fees_cents, d.items_sold])).toEqual([
      ["2026-03-09", 5000, 1, 75, 2],
      ["2026-03-10", 2500, 1, 25, 1],
    ]);
    const vt = await t.db.selectFrom("vendor_totals").selectAll().executeTakeFirstOrThrow();
    expect(vt).toMatchObject({ gross_cents: 7500, orders: 2, fees_cents: 100, items_sold: 3, last_sale_at: "2026-03-10T00:00:00.000Z" });
    const p = await t.db.selectFrom("products").selectAll().executeTakeFirstOrThrow();
    expect([p.units_sold, p.revenue_cents]).toEqual([3, 7500]);
    expect(await compareRollups(t.db)).toEqual([]);
  });

  it("placeOrders moves every rollup as placing each order alone does, and places none if one is refused", async () => {
    const other = (await createVendor(t.db, { name: "Ochre", ownerName: "O", email: "o@x.com", slug: "ochre" }, clock)).id;
    const print = (await createProduct(t.db, { vendorId: other, name: "Print", priceCents: 4000 }, clock)).id;
    const orders = await placeOrders(
      t.db,
      [
        { vendorId, productId, quantity: 2, feeRateBasisPoints: 150, createdAt: "2026-03-09T10:00:00.000Z" },
        { vendorId: other, productId: print, quantity: 1, feeRateBasisPoints: 150, createdAt: "2026-03-10T09:00:00.000Z" },
        { vendorId, productId, quantity: 1, feeRateBasisPoints: 200, createdAt: "2026-03-10T11:00:00.000Z" },
      ],
      clock,
    );
    expect(orders.map((o) => [o.gross_cents, o.fee_cents])).toEqual([
      [5000, 75],
      [4000, 60],
      [2500, 50],
    ]);
    const days = await t.db.selectFrom("daily_platform_totals").selectAll().orderBy("day").execute();
    expect(days.map((d) => [d.day, d.gross_cents, d.orders, d.fees_cents, d.items_sold])).toEqual([
      ["2026-03-09", 5000, 1, 75, 2],
      ["2026-03-10", 6500, 2, 110, 2],
    ]);
    const vt = await t.db.selectFrom("vendor_totals").selectAll().where("vendor_id", "=", vendorId).executeTakeFirstOrThrow();
    expect(vt).toMatchObject({ gross_cents: 7500, orders: 2, items_sold: 3, last_sale_at: "2026-03-10T11:00:00.000Z" });
    const balances = await t.db.selectFrom("payout_accounts").select(["vendor_id", "earned_cents", "balance_cents"]).orderBy("vendor_id").execute();
    expect(Object.fromEntries(balances.map((b) => [b.vendor_id, [Number(b.earned_cents), Number(b.balance_cents)]]))).toEqual({
      [vendorId]: [7375, 7375],
      [other]: [3940, 3940],
    });
    expect(await compareRollups(t.db)).toEqual([]);

    const before = await t.db
      .selectFrom("orders")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    await expect(
      placeOrders(
        t.db,
        [
          { vendorId, productId, quantity: 1, feeRateBasisPoints: 150 },
          { vendorId, productId: print, quantity: 1, feeRateBasisPoints: 150 },
        ],
        clock,
      ),
    ).rejects.toThrow(LedgerError);
    const after = await t.db
      .selectFrom("orders")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    expect(await compareRollups(t.db)).toEqual([]);
  });

  it("an explicit gross or unit price wins over the product price", async () => {
    const a = await placeOrder(t.db, { vendorId, productId, quantity: 2, unitPriceCents: 1000, feeRateBasisPoints: 150 }, clock);
    const b = await placeOrder(t.db, { vendorId, productId, quantity: 2, grossCents: 999, feeRateBasisPoints: 150 }, clock);
    expect([a.gross_cents, b.gross_cents, b.fee_cents]).toEqual([2000, 999, 15]);
  });

  it("refund and cancel take the sale back out, and last_sale_at falls back to the newest paid order", async () => {
    const older = await place("2026-03-01T10:00:00.000Z");
    const newest = await place("2026-03-05T10:00:00.000Z");
    await refundOrder(t.db, newest.id, clock);
    let vt = await t.db.selectFrom("vendor_totals").selectAll().executeTakeFirstOrThrow();
    expect(vt.last_sale_at).toBe(older.created_at);
    await cancelOrder(t.db, older.id, clock);
    vt = await t.db.selectFrom("vendor_totals").selectAll().executeTakeFirstOrThrow();
    expect(vt).toMatchObject({ last_sale_at: null, orders: 0, gross_cents: 0 });
    expect((await readCounters(t.db)).orders_paid).toBe(0);
    expect((await readCounters(t.db)).orders_total).toBe(2);
    expect(await compareRollups(t.db)).toEqual([]);
    await expect(refundOrder(t.db, older.id, clock)).rejects.toMatchObject({ code: "invalid_state" });
    await expect(refundOrder(t.db, "nope", clock)).rejects.toBeInstanceOf(LedgerError);
  });

  it("rejects bad input and foreign products without writing", async () => {
    const other = await createVendor(t.db, { name: "Other", ownerName: "O", email: "o@x.com", slug: "other" }, clock);
    await expect(placeOrder(t.db, { vendorId: other.id, productId, quantity: 1, feeRateBasisPoints: 150 }, clock)).rejects.toMatchObject({
      code: "invalid_input",
    });
    await expect(place("2026-03-01T00:00:00Z", 0)).rejects.toMatchObject({ code: "invalid_input" });
    expect((await readCounters(t.db)).orders_total).toBe(0);
  });

  it("runs inside the caller's transaction (rolled back together)", async () => {
    await expect(
      t.db.transaction().execute(async (trx) => {
        await placeOrder(trx, { vendorId, productId, quantity: 1, feeRateBasisPoints: 150 }, clock);
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect((await readCounters(t.db)).orders_total).toBe(0);
    expect(await compareRollups(t.db)).toEqual([]);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("orders ledger on postgres: the rows every sale shares are written last (decision 0024)", () => {
  it("an order waiting for today's platform totals has already written its product, vendor and payout rows and the counters", async () => {
    const t = await testBackends()
      .find((b) => b.kind === "postgres")!
      .open();
    let letGo = () => {};
    try {
      const vendorId = (await createVendor(t.db, { name: "Ink", ownerName: "I", email: "i@x.com", slug: "ink" }, clock)).id;
      const productId = (await createProduct(t.db, { vendorId, name: "Poster", priceCents: 2500 }, clock)).id;
      const sale = { vendorId, productId, quantity: 1, feeRateBasisPoints: 150, createdAt: "2026-03-10T09:00:00.000Z" };
      await placeOrder(t.db, sale, clock);
      // Another transaction holds the platform's day, as a concurrent sale of that day does until it commits.
      const heldUntil = new Promise<void>((resolve) => (letGo = resolve));
      let holding!: () => void;
      const isHolding = new Promise<void>((resolve) => (holding = resolve));
      const holder = t.db.transaction().execute(async (trx) => {
        await sql`update daily_platform_totals set orders = orders where day = '2026-03-10'`.execute(trx);
        holding();
        await heldUntil;
      });
      await isHolding;
      const waiting = placeOrder(t.db, sale, clock);
      let blocked: { pid: number; query: string } | undefined;
      for (let i = 0; i < 200 && !blocked; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        blocked = (
          await sql<{ pid: number; query: string }>`select pid, query from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`.execute(t.db)
        ).rows[0];
      }
      expect(blocked?.query).toMatch(/^insert into "daily_platform_totals"/);
      const written = await sql<{ table: string }>`select relation::regclass::text as table from pg_locks where pid = ${blocked!.pid} and mode = 'RowExclusiveLock' and relation is not null`.execute(
        t.db,
      );
      expect(written.rows.map((r) => r.table)).toEqual(expect.arrayContaining(["orders", "products", "vendor_totals", "daily_vendor_totals", "payout_accounts", "counters"]));
      letGo();
      await holder;
      await waiting;
      expect((await readCounters(t.db)).orders_paid).toBe(2);
      expect(await compareRollups(t.db)).toEqual([]);
    } finally {
      letGo();
      await t.close();
    }
  });
});
