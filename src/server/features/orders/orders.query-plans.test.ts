import { type KyselyPlugin, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORDER_SORTS, type OrdersFilters } from "../../../contract/orders.ts";
import { placeOrder, refundOrderPart } from "../../domain/ledger/orders.ts";
import { createProduct } from "../../domain/ledger/products.ts";
import { createVendor } from "../../domain/ledger/vendors.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { OrdersService, readOrderPage } from "./orders.service.ts";

/**
 * At 5M orders no request of the Orders screen may read the whole table (docs/product.md "Orders"):
 * every statement the list and the detail run, for every filter and order with and without a
 * cursor, is captured and explained. SQLite, with the statistics of 5M orders: a SEARCH or an
 * index walk, never a bare SCAN of orders, and no sort of a walked page (the index gives the
 * order). PostgreSQL, with sequential scans priced out: an index serves every statement (a
 * statement no index can serve still shows a Seq Scan on orders).
 */

/** Statistics of 5M orders by 50k artists and 1M buyers (sqlite_stat1: rows, then rows per leading key prefix). */
const ORDER_STATS: Record<string, string> = {
  orders_created_idx: "5000000 2 1",
  orders_vendor_created_idx: "5000000 100 2 1",
  orders_product_idx: "5000000 5",
  orders_external_idx: "5000000 2 1",
  orders_status_created_idx: "5000000 1700000 2 1",
  orders_email_created_idx: "5000000 5 2 1",
  orders_amount_idx: "5000000 500 1",
  orders_status_amount_idx: "5000000 1700000 500 1",
  orders_vendor_amount_idx: "5000000 100 5 1",
  orders_payment_intent_idx: "5000000 2",
  orders_charge_idx: "5000000 2",
  orders_part_refunded_idx: "200000 2 1",
  orders_disputed_idx: "1000 2 1",
};
const OTHER_ROWS: Record<string, number> = { vendors: 50_000, order_refunds: 200_000 };

function pretendFiveMillionOrders(sqlite: NonNullable<TestContext["database"]["sqlite"]>): void {
  sqlite.exec("ANALYZE");
  const rows = sqlite.prepare("select tbl, idx, stat from sqlite_stat1").all() as Array<{ tbl: string; idx: string | null; stat: string }>;
  const update = sqlite.prepare("update sqlite_stat1 set stat = ? where tbl = ? and idx is ?");
  for (const r of rows) {
    const scaled = (n: number) => [String(n), ...r.stat.split(" ").slice(1)].join(" ");
    // The primary key's index (sqlite_autoindex_orders_1) is scaled too: SQLite sizes the table by it.
    if (r.tbl === "orders") update.run((r.idx !== null && ORDER_STATS[r.idx]) || scaled(5_000_000), r.tbl, r.idx);
    const n = OTHER_ROWS[r.tbl];
    if (n !== undefined) update.run(scaled(n), r.tbl, r.idx);
  }
  // Samples of 60 rows (when SQLite keeps them) would contradict the statistics above.
  const hasSamples = sqlite.prepare("select 1 from sqlite_schema where name = 'sqlite_stat4'").get() !== undefined;
  if (hasSamples) sqlite.exec("delete from sqlite_stat4");
  sqlite.exec("ANALYZE sqlite_schema");
}

describe.each(testDatabaseKinds)("orders query plans (%s)", (kind) => {
  let ctx: TestContext;
  const statements: Array<{ sql: string; parameters: readonly unknown[] }> = [];
  const walks = new Set<string>();
  let vendorId = "";
  let orderId = "";

  beforeAll(async () => {
    ctx = await createTestContext(kind, { now: "2026-11-20T00:00:00.000Z" });
    const db = ctx.database.db;
    const ids: string[] = [];
    for (let v = 0; v < 3; v++) ids.push((await createVendor(db, { name: `Plan ${v}`, ownerName: "O", email: `plan${v}@example.com`, slug: `plan-${v}` }, ctx.clock)).id);
    vendorId = ids[0]!;
    const products = await Promise.all(ids.map((id) => createProduct(db, { vendorId: id, name: "Print", priceCents: 2500 }, ctx.clock)));
    for (let i = 0; i < 60; i++) {
      const o = await placeOrder(
        db,
        {
          vendorId: ids[i % 3]!,
          productId: products[i % 3]!.id,
          quantity: 1,
          feeRateBasisPoints: 1000,
          createdAt: new Date(Date.UTC(2026, 9, 1) + i * 3_600_000).toISOString(),
          customerEmail: `b${i % 6}@example.com`,
          externalOrderId: `ord_${Math.floor(i / 3)}`,
          externalLineId: `l${i % 3}`,
        },
        ctx.clock,
      );
      if (i % 9 === 0) await refundOrderPart(db, o.id, { refundId: `re_${i}`, amountCents: 100, refundedAt: o.created_at });
      orderId = o.id;
    }
    if (ctx.database.sqlite) pretendFiveMillionOrders(ctx.database.sqlite);

    // Every statement the screen runs, compiled as sent (raw statements included).
    const capture: KyselyPlugin = {
      transformQuery(args) {
        statements.push(db.getExecutor().compileQuery(args.node, args.queryId));
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const logged = db.withPlugin(capture);
    const filterSets: OrdersFilters[] = [
      {},
      { status: "paid" },
      { vendorId },
      { vendorId, status: "refunded" },
      { search: "b1@example.com" },
      { search: "b1@example.com", status: "paid" },
      { search: "ord_3" },
      { from: "2026-10-01", to: "2026-10-02" },
      { from: "2026-10-01", status: "paid", vendorId },
      { status: "partially_refunded" },
      { status: "disputed" },
      { vendorId, status: "partially_refunded" },
      { search: "b1@example.com", status: "disputed" },
      { from: "2026-10-01", to: "2026-10-02", status: "partially_refunded" },
    ];
    for (const filters of filterSets) {
      for (const sort of ORDER_SORTS) {
        const first = await readOrderPage(logged, filters, sort, undefined, 2);
        if (first.next) await readOrderPage(logged, filters, sort, first.next, 2);
      }
    }
    // The statements that walk an index for their page (the others have no ORDER BY to keep).
    for (const s of statements) if (/order by "o"\."\w+" (asc|desc), o\.id/.test(s.sql)) walks.add(s.sql);
    await new OrdersService({ database: { ...ctx.database, db: logged }, config: ctx.deps.config }).detail(orderId);
  });
  afterAll(async () => {
    await ctx.close();
  });

  async function plan(s: { sql: string; parameters: readonly unknown[] }): Promise<string> {
    if (ctx.database.sqlite) return (ctx.database.sqlite.prepare(`EXPLAIN QUERY PLAN ${s.sql}`).all(...s.parameters) as Array<{ detail: string }>).map((r) => r.detail).join("\n");
    return ctx.database.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const rows = await sql.raw<{ "QUERY PLAN": string }>(`explain ${s.sql.replace(/\$(\d+)/g, (_, n: string) => literal(s.parameters[Number(n) - 1]))}`).execute(trx);
      return rows.rows.map((r) => r["QUERY PLAN"]).join("\n");
    });
  }
  const literal = (v: unknown) => (typeof v === "number" ? String(v) : `'${String(v).replace(/'/g, "''")}'`);

  it("captured the list's walks and narrowed reads and the detail's statements", () => {
    const onOrders = statements.filter((s) => /from orders o/.test(s.sql));
    expect(onOrders.length).toBeGreaterThan(80);
    expect(walks.size).toBeGreaterThan(5);
    expect(statements.some((s) => s.sql.includes('from "order_refunds"'))).toBe(true);
  });

  it("reads orders through an index in every statement", async () => {
    for (const s of statements.filter((x) => /orders/.test(x.sql))) {
      const p = await plan(s);
      if (kind === "sqlite") {
        expect(p, s.sql).not.toMatch(/^SCAN o$|^SCAN orders$|SCAN o\n|SCAN orders\n|SCAN o$/m);
        expect(p, s.sql).toMatch(/(SEARCH|SCAN) o USING (COVERING )?INDEX|SEARCH o USING INTEGER PRIMARY KEY|SEARCH orders USING/);
      } else {
        expect(p, s.sql).not.toMatch(/Seq Scan on orders/);
      }
    }
  });

  it("never sorts a walked page: the index gives the order", async () => {
    for (const s of walks) {
      const statement = statements.find((x) => x.sql === s)!;
      const p = await plan(statement);
      if (kind === "sqlite") expect(p, s).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
    }
  });

  // Last: it takes the statistics away. A database never analysed (every one the panel creates)
  // ties the status index with the artist's or buyer's: the narrower one must still be walked.
  it("walks an artist's or a buyer's index for their orders of one status, statistics or not", async () => {
    if (ctx.database.sqlite) ctx.database.sqlite.exec("delete from sqlite_stat1; ANALYZE sqlite_schema");
    const narrowedByStatus = statements.filter((x) => /o\.(vendor_id|customer_email) = /.test(x.sql) && /o\.status/.test(x.sql));
    expect(narrowedByStatus.length).toBeGreaterThan(4);
    for (const statement of narrowedByStatus) expect(await plan(statement), statement.sql).not.toMatch(/orders_status_(created|amount)_idx/);
  });

  // After the statistics are gone: SQLite would walk every paid order (84 s at 5M orders) for the few partly refunded ones.
  it.runIf(kind === "sqlite")("walks the partly refunded orders' own index without statistics, with or without a date range or sort by amount", async () => {
    const partlyRefunded = statements.filter((x) => /o\.refunded_cents > 0/.test(x.sql) && !/o\.(vendor_id|customer_email|external_order_id) = /.test(x.sql));
    expect(partlyRefunded.length).toBeGreaterThan(4);
    for (const statement of partlyRefunded) expect(await plan(statement), statement.sql).toMatch(/USING (COVERING )?INDEX orders_part_refunded_idx/);
  });
});
