import { sql } from "kysely";
import { COUNTER_NAMES, COUNTERS, type CounterName } from "./counters.ts";
import { readProductLimit } from "./product-limit.ts";
import { type Executor, inTransaction } from "../../platform/db/executor.ts";
import { dayOf } from "./ledger-error.ts";
import { rebuildProductSalesAndWindows, shiftDay } from "./period-totals.ts";

/**
 * Rollups and counters computed from scratch over the raw rows (vendors, products, orders,
 * subscriptions, store_visits, payouts). These queries scan whole tables: they are for tests, which
 * check the incremental rollups against them, and for operators repairing a damaged database
 * — never for a request path. Everything is held in memory, fine up to a few million orders.
 */

type Row = Record<string, number | string | null>;

export interface RollupSnapshot {
  counters: Record<CounterName, number>;
  /** key: day */
  dailyPlatform: Map<string, Row>;
  /** key: vendor_id|day */
  dailyVendor: Map<string, Row>;
  /** key: vendor_id */
  vendorTotals: Map<string, Row>;
  /** key: product id; units_sold and revenue_cents */
  productTotals: Map<string, Row>;
  /** key: vendor_id; earned, paid out, in flight, balance, last payout (docs/product.md §15) */
  payoutAccounts: Map<string, Row>;
  /** key: account status; vendors owed money and the sum owed */
  balanceTotals: Map<string, Row>;
  /** key: run id; payouts counted and summed by status */
  payoutRuns: Map<string, Row>;
  /** key: product_id|day; paid sales per product and day (docs/decisions/0013-top-lists.md) */
  productSalesDays: Map<string, Row>;
  /** key: product_id|period_days; sales over each rolling window, internal vendors left out */
  productPeriodTotals: Map<string, Row>;
  /** key: vendor_id|period_days */
  vendorPeriodTotals: Map<string, Row>;
}

const PLATFORM_FIELDS = ["gross_cents", "orders", "fees_cents", "items_sold", "new_vendors", "new_products", "refunds_cents", "payouts_cents", "mrr_change_cents"] as const;
const VENDOR_DAY_FIELDS = ["gross_cents", "orders", "fees_cents", "items_sold"] as const;
const VENDOR_FIELDS = ["listed_products", "gross_cents", "orders", "fees_cents", "items_sold", "visits", "last_sale_at"] as const;
const PRODUCT_FIELDS = ["units_sold", "revenue_cents"] as const;
const ACCOUNT_FIELDS = ["earned_cents", "paid_out_cents", "in_flight_cents", "balance_cents", "last_payout_at"] as const;
const BALANCE_TOTAL_FIELDS = ["vendors_owed", "owed_cents"] as const;
const RUN_FIELDS = ["payouts", "total_cents", "pending", "processing", "unknown", "paid", "paid_cents", "failed", "canceled"] as const;

const SALES_FIELDS = ["gross_cents", "orders", "units"] as const;

const TIME_FIELDS = new Set(["last_sale_at", "last_payout_at"]);

function zeroRow(fields: readonly string[]): Row {
  return Object.fromEntries(fields.map((f) => [f, TIME_FIELDS.has(f) ? null : 0]));
}

function add(map: Map<string, Row>, key: string, fields: readonly string[], values: Row): void {
  const row = map.get(key) ?? zeroRow(fields);
  for (const [k, v] of Object.entries(values)) {
    row[k] = typeof v === "number" || (typeof v === "string" && !TIME_FIELDS.has(k)) ? Number(row[k]) + Number(v) : v;
  }
  map.set(key, row);
}

const dayExpr = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 10)`;

/** What every rollup and counter should hold, computed from the raw rows. */
export async function computeExpectedRollups(db: Executor): Promise<RollupSnapshot> {
  const one = async (q: Promise<{ n: unknown } | undefined>) => Number((await q)?.n ?? 0);
  const counters = {} as Record<CounterName, number>;
  // The counters that count a table's rows, all of them or those with one column at one value.
  const ROW_COUNTS: Array<[CounterName, "vendors" | "products" | "subscriptions" | "orders", [column: string, value: number | string]?]> = [
    [COUNTERS.vendorsTotal, "vendors"],
    [COUNTERS.vendorsActive, "vendors", ["is_active", 1]],
    [COUNTERS.vendorsInternal, "vendors", ["is_internal", 1]],
    [COUNTERS.productsTotal, "products"],
    [COUNTERS.productsListed, "products", ["status", "listed"]],
    [COUNTERS.productsHidden, "products", ["status", "hidden"]],
    [COUNTERS.subscriptionsActive, "subscriptions", ["status", "active"]],
    [COUNTERS.ordersTotal, "orders"],
    [COUNTERS.ordersPaid, "orders", ["status", "paid"]],
  ];
  for (const [name, table, where] of ROW_COUNTS) {
    let q = db.selectFrom(table).select((eb) => eb.fn.countAll().as("n"));
    if (where) q = q.where(sql.ref(where[0]), "=", where[1]);
    counters[name] = await one(q.executeTakeFirst());
  }
  // Vendors whose listed products exceed the max_products_per_vendor setting, counted from the products themselves.
  const productLimit = await readProductLimit(db);
  counters[COUNTERS.vendorsOverProductLimit] = await one(
    db
      .selectFrom((eb) =>
        eb
          .selectFrom("products")
          .select("vendor_id")
          .where("status", "=", "listed")
          .groupBy("vendor_id")
          .having((h) => h(h.fn.countAll(), ">", productLimit))
          .as("over"),
      )
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirst(),
  );
  counters[COUNTERS.mrrCents] = await one(
    db
      .selectFrom("subscriptions")
      .select((eb) => eb.fn.coalesce(eb.fn.sum("monthly_fee_cents"), eb.lit(0)).as("n"))
      .where("status", "=", "active")
      .executeTakeFirst(),
  );

  const dailyPlatform = new Map<string, Row>();
  const dailyVendor = new Map<string, Row>();
  const vendorTotals = new Map<string, Row>();
  const productTotals = new Map<string, Row>();

  const sales = await db
    .selectFrom("orders")
    .select((eb) => [
      "vendor_id",
      dayExpr("created_at").as("day"),
      eb.fn.sum<number>("gross_cents").as("gross_cents"),
      eb.fn.countAll<number>().as("orders"),
      eb.fn.sum<number>("fee_cents").as("fees_cents"),
      eb.fn.sum<number>("quantity").as("items_sold"),
      eb.fn.max("created_at").as("last_sale_at"),
    ])
    .where("status", "=", "paid")
    .groupBy(["vendor_id", dayExpr("created_at")])
    .execute();
  for (const s of sales) {
    const v = { gross_cents: Number(s.gross_cents), orders: Number(s.orders), fees_cents: Number(s.fees_cents), items_sold: Number(s.items_sold) };
    add(dailyPlatform, s.day, PLATFORM_FIELDS, v);
    add(dailyVendor, `${s.vendor_id}|${s.day}`, VENDOR_DAY_FIELDS, v);
    add(vendorTotals, s.vendor_id, VENDOR_FIELDS, v);
    const vt = vendorTotals.get(s.vendor_id);
    if (vt && (vt.last_sale_at === null || String(vt.last_sale_at) < s.last_sale_at)) vt.last_sale_at = s.last_sale_at;
  }

  // The platform's other figures per day: vendors joined and products created; refunds by the day
  // they happened; recurring revenue changes on the days subscriptions started and were cancelled
  // (payouts by the day they were paid come with the payouts below). Each counts rows (sum null)
  // or sums a column, of the rows with `where` if given, grouped by the day of `day`.
  const PER_DAY: Array<{
    field: (typeof PLATFORM_FIELDS)[number];
    table: "vendors" | "products" | "orders" | "subscriptions";
    day: string;
    sum: string | null;
    where?: [column: string, op: "=" | "is not", value: string | null];
    sign: 1 | -1;
  }> = [
    { field: "new_vendors", table: "vendors", day: "joined_at", sum: null, sign: 1 },
    { field: "new_products", table: "products", day: "created_at", sum: null, sign: 1 },
    { field: "refunds_cents", table: "orders", day: "updated_at", sum: "gross_cents", where: ["status", "=", "refunded"], sign: 1 },
    { field: "mrr_change_cents", table: "subscriptions", day: "started_at", sum: "monthly_fee_cents", sign: 1 },
    { field: "mrr_change_cents", table: "subscriptions", day: "cancelled_at", sum: "monthly_fee_cents", where: ["cancelled_at", "is not", null], sign: -1 },
  ];
  for (const { field, table, day, sum, where, sign } of PER_DAY) {
    let q = db
      .selectFrom(table)
      .select((eb) => [dayExpr(day).as("day"), (sum === null ? eb.fn.countAll<number>() : eb.fn.sum<number>(sql.ref(sum))).as("n")])
      .groupBy(dayExpr(day));
    if (where) q = q.where(sql.ref(where[0]), where[1], where[2]);
    for (const r of await q.execute()) add(dailyPlatform, r.day, PLATFORM_FIELDS, { [field]: sign * Number(r.n) });
  }
  // Refunds of part of an order (the storefront's, migration 023) count on their own days; the
  // order's gross is what remains paid, so a refunded order whose refunds took it all adds 0 above.
  const partRefunds = await db
    .selectFrom("order_refunds")
    .select((eb) => [dayExpr("refunded_at").as("day"), eb.fn.sum<number>("amount_cents").as("n")])
    .groupBy(dayExpr("refunded_at"))
    .execute();
  for (const r of partRefunds) add(dailyPlatform, r.day, PLATFORM_FIELDS, { refunds_cents: Number(r.n) });

  // Every vendor has a vendor_totals row, even one with nothing yet.
  const vendorIds = await db.selectFrom("vendors").select("id").execute();
  for (const v of vendorIds) if (!vendorTotals.has(v.id)) vendorTotals.set(v.id, zeroRow(VENDOR_FIELDS));
  const listed = await db
    .selectFrom("products")
    .select((eb) => ["vendor_id", eb.fn.countAll<number>().as("n")])
    .where("status", "=", "listed")
    .groupBy("vendor_id")
    .execute();
  for (const r of listed) add(vendorTotals, r.vendor_id, VENDOR_FIELDS, { listed_products: Number(r.n) });
  const visits = await db
    .selectFrom("store_visits")
    .select((eb) => ["vendor_id", eb.fn.sum<number>("visits").as("n")])
    .groupBy("vendor_id")
    .execute();
  for (const r of visits) add(vendorTotals, r.vendor_id, VENDOR_FIELDS, { visits: Number(r.n) });

  const productIds = await db.selectFrom("products").select("id").execute();
  for (const p of productIds) productTotals.set(p.id, zeroRow(PRODUCT_FIELDS));
  const perProduct = await db
    .selectFrom("orders")
    .select((eb) => ["product_id", eb.fn.sum<number>("quantity").as("units_sold"), eb.fn.sum<number>("gross_cents").as("revenue_cents")])
    .where("status", "=", "paid")
    .where("product_id", "is not", null)
    .groupBy("product_id")
    .execute();
  for (const r of perProduct) {
    // Orders may outlive a product only if it was removed by hand; nothing to compare then.
    if (r.product_id !== null && productTotals.has(r.product_id)) {
      productTotals.set(r.product_id, { units_sold: Number(r.units_sold), revenue_cents: Number(r.revenue_cents) });
    }
  }

  const payouts = await db.selectFrom("payouts").select(["run_id", "vendor_id", "status", "amount_cents", "paid_at", "reversed_cents"]).execute();
  const payoutAccounts = new Map<string, Row>();
  const accounts = await db.selectFrom("payout_accounts").select(["vendor_id", "status"]).execute();
  const statusOf = new Map(accounts.map((a) => [a.vendor_id, a.status]));
  for (const v of vendorIds) payoutAccounts.set(v.id, zeroRow(ACCOUNT_FIELDS));
  for (const [vendorId, t] of vendorTotals) {
    const a = payoutAccounts.get(vendorId);
    if (a) a.earned_cents = Number(t.gross_cents) - Number(t.fees_cents);
  }
  const payoutRuns = new Map<string, Row>();
  for (const r of await db.selectFrom("payout_runs").select("id").execute()) payoutRuns.set(r.id, zeroRow(RUN_FIELDS));
  for (const p of payouts) {
    const amount = Number(p.amount_cents);
    const run = payoutRuns.get(p.run_id);
    if (run) add(payoutRuns, p.run_id, RUN_FIELDS, { payouts: 1, total_cents: amount, [p.status]: 1, paid_cents: p.status === "paid" ? amount : 0 });
    if (p.status === "paid" && p.paid_at) add(dailyPlatform, dayOf(p.paid_at), PLATFORM_FIELDS, { payouts_cents: amount });
    const a = payoutAccounts.get(p.vendor_id);
    if (!a) continue;
    if (p.status === "paid") {
      // What Stripe took back of the transfer (transfer.reversed) is owed again, not paid out.
      a.paid_out_cents = Number(a.paid_out_cents) + amount - Number(p.reversed_cents);
      if (p.paid_at && (a.last_payout_at === null || String(a.last_payout_at) < p.paid_at)) a.last_payout_at = p.paid_at;
    }
    // A payout whose outcome is unknown may have been sent: in flight until Stripe is asked.
    if (p.status === "pending" || p.status === "processing" || p.status === "unknown") a.in_flight_cents = Number(a.in_flight_cents) + amount;
  }
  const balanceTotals = new Map<string, Row>();
  for (const [vendorId, a] of payoutAccounts) {
    a.balance_cents = Number(a.earned_cents) - Number(a.paid_out_cents) - Number(a.in_flight_cents);
    const status = statusOf.get(vendorId) ?? "not_connected";
    if (Number(a.balance_cents) > 0) add(balanceTotals, status, BALANCE_TOTAL_FIELDS, { vendors_owed: 1, owed_cents: Number(a.balance_cents) });
  }
  const { productSalesDays, productPeriodTotals, vendorPeriodTotals } = await computeExpectedProductSales(db);
  return { counters, dailyPlatform, dailyVendor, vendorTotals, productTotals, payoutAccounts, balanceTotals, payoutRuns, productSalesDays, productPeriodTotals, vendorPeriodTotals };
}

/** Per-product days from the paid orders, and each window's totals from them (non-internal vendors). */
async function computeExpectedProductSales(db: Executor): Promise<Pick<RollupSnapshot, "productSalesDays" | "productPeriodTotals" | "vendorPeriodTotals">> {
  const productSalesDays = new Map<string, Row>();
  const productPeriodTotals = new Map<string, Row>();
  const vendorPeriodTotals = new Map<string, Row>();
  const rows = await db
    .selectFrom("orders")
    .select((eb) => [
      "product_id",
      "vendor_id",
      dayExpr("created_at").as("day"),
      eb.fn.sum<number>("gross_cents").as("gross_cents"),
      eb.fn.countAll<number>().as("orders"),
      eb.fn.sum<number>("quantity").as("units"),
    ])
    .where("status", "=", "paid")
    .where("product_id", "is not", null)
    .groupBy(["product_id", "vendor_id", dayExpr("created_at")])
    .execute();
  const internal = new Set((await db.selectFrom("vendors").select("id").where("is_internal", "=", 1).execute()).map((v) => v.id));
  const windows = await db.selectFrom("period_windows").select(["period_days", "last_day", "step_to", "step_cursor"]).execute();
  for (const r of rows) {
    const v = { gross_cents: Number(r.gross_cents), orders: Number(r.orders), units: Number(r.units) };
    add(productSalesDays, `${r.product_id}|${r.day}`, SALES_FIELDS, v);
    if (internal.has(r.vendor_id)) continue;
    for (const w of windows) {
      const period = Number(w.period_days);
      // During a day step (period-totals.ts), products at or below the cursor already end on step_to.
      const last = w.step_to !== null && w.step_cursor !== null && (r.product_id ?? "") <= w.step_cursor ? w.step_to : w.last_day;
      if (r.day > last || r.day < shiftDay(last, -(period - 1))) continue;
      add(productPeriodTotals, `${r.product_id}|${period}`, SALES_FIELDS, v);
      add(vendorPeriodTotals, `${r.vendor_id}|${period}`, SALES_FIELDS, v);
    }
  }
  return { productSalesDays, productPeriodTotals, vendorPeriodTotals };
}

/** What the rollup tables and counters hold now. */
export async function readActualRollups(db: Executor): Promise<RollupSnapshot> {
  const countersRows = await db.selectFrom("counters").select(["name", "value"]).execute();
  const counters = Object.fromEntries(COUNTER_NAMES.map((n) => [n, 0])) as Record<CounterName, number>;
  for (const r of countersRows) if ((COUNTER_NAMES as readonly string[]).includes(r.name)) counters[r.name as CounterName] = Number(r.value);
  const toRow = (r: object, fields: readonly string[]): Row => Object.fromEntries(fields.map((f) => [f, TIME_FIELDS.has(f) ? ((r as Row)[f] ?? null) : Number((r as Row)[f])]));
  const dailyPlatform = new Map<string, Row>();
  for (const r of await db.selectFrom("daily_platform_totals").selectAll().execute()) dailyPlatform.set(r.day, toRow(r, PLATFORM_FIELDS));
  const dailyVendor = new Map<string, Row>();
  for (const r of await db.selectFrom("daily_vendor_totals").selectAll().execute()) {
    dailyVendor.set(`${r.vendor_id}|${r.day}`, toRow(r, VENDOR_DAY_FIELDS));
  }
  const vendorTotals = new Map<string, Row>();
  for (const r of await db.selectFrom("vendor_totals").selectAll().execute()) vendorTotals.set(r.vendor_id, toRow(r, VENDOR_FIELDS));
  const productTotals = new Map<string, Row>();
  for (const r of await db.selectFrom("products").select(["id", "units_sold", "revenue_cents"]).execute()) {
    productTotals.set(r.id, toRow(r, PRODUCT_FIELDS));
  }
  const payoutAccounts = new Map<string, Row>();
  for (const r of await db.selectFrom("payout_accounts").selectAll().execute()) payoutAccounts.set(r.vendor_id, toRow(r, ACCOUNT_FIELDS));
  const balanceTotals = new Map<string, Row>();
  for (const r of await db.selectFrom("payout_balance_totals").selectAll().execute()) balanceTotals.set(r.account_status, toRow(r, BALANCE_TOTAL_FIELDS));
  const payoutRuns = new Map<string, Row>();
  for (const r of await db.selectFrom("payout_runs").selectAll().execute()) payoutRuns.set(r.id, toRow(r, RUN_FIELDS));
  const productSalesDays = new Map<string, Row>();
  for (const r of await db.selectFrom("product_sales_days").selectAll().execute()) productSalesDays.set(`${r.product_id}|${r.day}`, toRow(r, SALES_FIELDS));
  const productPeriodTotals = new Map<string, Row>();
  for (const r of await db.selectFrom("product_period_totals").selectAll().execute()) productPeriodTotals.set(`${r.product_id}|${r.period_days}`, toRow(r, SALES_FIELDS));
  const vendorPeriodTotals = new Map<string, Row>();
  for (const r of await db.selectFrom("vendor_period_totals").selectAll().execute()) vendorPeriodTotals.set(`${r.vendor_id}|${r.period_days}`, toRow(r, SALES_FIELDS));
  return { counters, dailyPlatform, dailyVendor, vendorTotals, productTotals, payoutAccounts, balanceTotals, payoutRuns, productSalesDays, productPeriodTotals, vendorPeriodTotals };
}

export interface RollupDifference {
  table:
    | "counters"
    | "daily_platform_totals"
    | "daily_vendor_totals"
    | "vendor_totals"
    | "products"
    | "payout_accounts"
    | "payout_balance_totals"
    | "payout_runs"
    | "product_sales_days"
    | "product_period_totals"
    | "vendor_period_totals";
  key: string;
  column: string;
  expected: number | string | null;
  actual: number | string | null;
}

function diffMaps(
  table: RollupDifference["table"],
  expected: Map<string, Row>,
  actual: Map<string, Row>,
  fields: readonly string[],
  /** Daily rows that are all zero mean the same as no row (a refund can leave one behind). */
  zeroMeansAbsent: boolean,
): RollupDifference[] {
  const out: RollupDifference[] = [];
  const keys = new Set([...expected.keys(), ...actual.keys()]);
  for (const key of [...keys].sort()) {
    const e = expected.get(key);
    const a = actual.get(key);
    if (!zeroMeansAbsent && (e === undefined || a === undefined)) {
      out.push({ table, key, column: "(row)", expected: e ? "present" : "absent", actual: a ? "present" : "absent" });
      continue;
    }
    const ee = e ?? zeroRow(fields);
    const aa = a ?? zeroRow(fields);
    for (const f of fields) {
      if ((ee[f] ?? null) !== (aa[f] ?? null)) out.push({ table, key, column: f, expected: ee[f] ?? null, actual: aa[f] ?? null });
    }
  }
  return out;
}

/** Every difference between the rollups/counters and a recomputation from the raw rows (empty when all agree). */
export async function compareRollups(db: Executor): Promise<RollupDifference[]> {
  const expected = await computeExpectedRollups(db);
  const actual = await readActualRollups(db);
  return diffSnapshots(expected, actual);
}

export function diffSnapshots(expected: RollupSnapshot, actual: RollupSnapshot): RollupDifference[] {
  const out: RollupDifference[] = [];
  for (const n of COUNTER_NAMES) {
    if (expected.counters[n] !== actual.counters[n]) {
      out.push({ table: "counters", key: n, column: "value", expected: expected.counters[n], actual: actual.counters[n] });
    }
  }
  out.push(...diffMaps("daily_platform_totals", expected.dailyPlatform, actual.dailyPlatform, PLATFORM_FIELDS, true));
  out.push(...diffMaps("daily_vendor_totals", expected.dailyVendor, actual.dailyVendor, VENDOR_DAY_FIELDS, true));
  out.push(...diffMaps("vendor_totals", expected.vendorTotals, actual.vendorTotals, VENDOR_FIELDS, false));
  out.push(...diffMaps("products", expected.productTotals, actual.productTotals, PRODUCT_FIELDS, false));
  out.push(...diffMaps("payout_accounts", expected.payoutAccounts, actual.payoutAccounts, ACCOUNT_FIELDS, false));
  out.push(...diffMaps("payout_balance_totals", expected.balanceTotals, actual.balanceTotals, BALANCE_TOTAL_FIELDS, true));
  out.push(...diffMaps("payout_runs", expected.payoutRuns, actual.payoutRuns, RUN_FIELDS, false));
  out.push(...diffMaps("product_sales_days", expected.productSalesDays, actual.productSalesDays, SALES_FIELDS, true));
  // Period totals never keep a row at nothing (the top lists would list it): absent means absent.
  out.push(...diffMaps("product_period_totals", expected.productPeriodTotals, actual.productPeriodTotals, SALES_FIELDS, false));
  out.push(...diffMaps("vendor_period_totals", expected.vendorPeriodTotals, actual.vendorPeriodTotals, SALES_FIELDS, false));
  return out;
}

/**
 * Operator repair: rewrites every rollup table, the counters and the products' units/revenue
 * from the raw rows, in one transaction. Returns the differences it found (and fixed).
 */
export async function recomputeRollups(db: Executor): Promise<RollupDifference[]> {
  return inTransaction(db, async (trx) => {
    const expected = await computeExpectedRollups(trx);
    const differences = diffSnapshots(expected, await readActualRollups(trx));
    if (differences.length === 0) return differences;

    await trx.deleteFrom("daily_platform_totals").execute();
    await trx.deleteFrom("daily_vendor_totals").execute();
    await trx.deleteFrom("vendor_totals").execute();
    await trx.deleteFrom("counters").where("name", "in", COUNTER_NAMES).execute();

    await trx
      .insertInto("counters")
      .values(COUNTER_NAMES.map((name) => ({ name, value: expected.counters[name] })))
      .execute();
    // ~8 parameters per row: 500 rows per statement stays under every driver's limit.
    const insertChunks = async <T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>) => {
      for (let i = 0; i < rows.length; i += 500) await insert(rows.slice(i, i + 500));
    };
    await insertChunks([...expected.dailyPlatform], (chunk) =>
      trx
        .insertInto("daily_platform_totals")
        .values(
          chunk.map(([day, r]) => ({
            day,
            gross_cents: Number(r.gross_cents),
            orders: Number(r.orders),
            fees_cents: Number(r.fees_cents),
            items_sold: Number(r.items_sold),
            new_vendors: Number(r.new_vendors),
            new_products: Number(r.new_products),
            refunds_cents: Number(r.refunds_cents),
            payouts_cents: Number(r.payouts_cents),
            mrr_change_cents: Number(r.mrr_change_cents),
          })),
        )
        .execute(),
    );
    await insertChunks([...expected.dailyVendor], (chunk) =>
      trx
        .insertInto("daily_vendor_totals")
        .values(
          chunk.map(([key, r]) => {
            const [vendorId = "", day = ""] = key.split("|");
            return {
              vendor_id: vendorId,
              day,
              gross_cents: Number(r.gross_cents),
              orders: Number(r.orders),
              fees_cents: Number(r.fees_cents),
              items_sold: Number(r.items_sold),
            };
          }),
        )
        .execute(),
    );
    await insertChunks([...expected.vendorTotals], (chunk) =>
      trx
        .insertInto("vendor_totals")
        .values(
          chunk.map(([vendorId, r]) => ({
            vendor_id: vendorId,
            listed_products: Number(r.listed_products),
            gross_cents: Number(r.gross_cents),
            orders: Number(r.orders),
            fees_cents: Number(r.fees_cents),
            items_sold: Number(r.items_sold),
            visits: Number(r.visits),
            last_sale_at: r.last_sale_at === null || r.last_sale_at === undefined ? null : String(r.last_sale_at),
          })),
        )
        .execute(),
    );
    for (const [vendorId, r] of expected.payoutAccounts) {
      await trx
        .updateTable("payout_accounts")
        .set({
          earned_cents: Number(r.earned_cents),
          paid_out_cents: Number(r.paid_out_cents),
          in_flight_cents: Number(r.in_flight_cents),
          balance_cents: Number(r.balance_cents),
          last_payout_at: r.last_payout_at === null || r.last_payout_at === undefined ? null : String(r.last_payout_at),
        })
        .where("vendor_id", "=", vendorId)
        .execute();
    }
    await trx.deleteFrom("payout_balance_totals").execute();
    for (const [status, r] of expected.balanceTotals) {
      await trx
        .insertInto("payout_balance_totals")
        .values({ account_status: status as "active", vendors_owed: Number(r.vendors_owed), owed_cents: Number(r.owed_cents) })
        .execute();
    }
    for (const [runId, r] of expected.payoutRuns) {
      await trx
        .updateTable("payout_runs")
        .set({
          payouts: Number(r.payouts),
          total_cents: Number(r.total_cents),
          pending: Number(r.pending),
          processing: Number(r.processing),
          unknown: Number(r.unknown),
          paid: Number(r.paid),
          paid_cents: Number(r.paid_cents),
          failed: Number(r.failed),
          canceled: Number(r.canceled),
        })
        .where("id", "=", runId)
        .execute();
    }
    if (differences.some((d) => d.table === "product_sales_days" || d.table === "product_period_totals" || d.table === "vendor_period_totals")) {
      await rebuildProductSalesAndWindows(trx);
    }
    const productFixes = differences.filter((d) => d.table === "products").map((d) => d.key);
    for (const id of new Set(productFixes)) {
      const r = expected.productTotals.get(id);
      if (!r) continue;
      await trx
        .updateTable("products")
        .set({ units_sold: Number(r.units_sold), revenue_cents: Number(r.revenue_cents) })
        .where("id", "=", id)
        .execute();
    }
    return differences;
  });
}
