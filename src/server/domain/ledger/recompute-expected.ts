import { sql } from "kysely";
import { COUNTERS, type CounterName } from "./counters.ts";
import { readProductLimit } from "./product-limit.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { dayOf } from "./ledger-error.ts";
import { shiftDay } from "./period-totals.ts";

/**
 * The expected side of recompute.ts: the shape of a rollup snapshot and what every rollup and
 * counter should hold, computed from scratch over the raw rows (vendors, products, orders,
 * subscriptions, store_visits, payouts). These queries scan whole tables: they are for tests, which
 * check the incremental rollups against them, and for operators repairing a damaged database
 * — never for a request path. Everything is held in memory, fine up to a few million orders.
 */

export type Row = Record<string, number | string | null>;

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

export const PLATFORM_FIELDS = ["gross_cents", "orders", "fees_cents", "items_sold", "new_vendors", "new_products", "refunds_cents", "payouts_cents", "mrr_change_cents"] as const;
export const VENDOR_DAY_FIELDS = ["gross_cents", "orders", "fees_cents", "items_sold"] as const;
export const VENDOR_FIELDS = ["listed_products", "gross_cents", "orders", "fees_cents", "items_sold", "visits", "last_sale_at"] as const;
export const PRODUCT_FIELDS = ["units_sold", "revenue_cents"] as const;
export const ACCOUNT_FIELDS = ["earned_cents", "paid_out_cents", "in_flight_cents", "held_cents", "charged_cents", "balance_cents", "last_payout_at"] as const;
export const BALANCE_TOTAL_FIELDS = ["vendors_owed", "owed_cents"] as const;
export const RUN_FIELDS = ["payouts", "total_cents", "pending", "processing", "unknown", "paid", "paid_cents", "failed", "canceled"] as const;

export const SALES_FIELDS = ["gross_cents", "orders", "units"] as const;

export const TIME_FIELDS = new Set(["last_sale_at", "last_payout_at"]);

export function zeroRow(fields: readonly string[]): Row {
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
  const counters = await expectedCounters(db);
  const { dailyPlatform, dailyVendor, vendorTotals } = await expectedPaidSales(db);
  await addPlatformDayFigures(db, dailyPlatform);
  const vendorIds = (await db.selectFrom("vendors").select("id").execute()).map((v) => v.id);
  await completeVendorTotals(db, vendorTotals, vendorIds);
  const productTotals = await expectedProductTotals(db);
  const { payoutAccounts, balanceTotals, payoutRuns } = await expectedPayouts(db, vendorIds, vendorTotals, dailyPlatform);
  const { productSalesDays, productPeriodTotals, vendorPeriodTotals } = await computeExpectedProductSales(db);
  return { counters, dailyPlatform, dailyVendor, vendorTotals, productTotals, payoutAccounts, balanceTotals, payoutRuns, productSalesDays, productPeriodTotals, vendorPeriodTotals };
}

/** The counters that count a table's rows, all of them or those with one column at one value. */
const ROW_COUNTS: Array<[CounterName, "vendors" | "products" | "subscriptions" | "orders", [column: string, value: number | string]?]> = [
  [COUNTERS.vendorsTotal, "vendors"],
  [COUNTERS.vendorsActive, "vendors", ["is_active", 1]],
  [COUNTERS.vendorsInternal, "vendors", ["is_internal", 1]],
  [COUNTERS.productsTotal, "products"],
  [COUNTERS.productsListed, "products", ["status", "listed"]],
  [COUNTERS.productsHidden, "products", ["status", "hidden"]],
  [COUNTERS.productsPendingReview, "products", ["status", "pending_review"]],
  [COUNTERS.productsRejected, "products", ["status", "rejected"]],
  [COUNTERS.vendorsPending, "vendors", ["approval_status", "pending"]],
  [COUNTERS.subscriptionsActive, "subscriptions", ["status", "active"]],
  [COUNTERS.ordersTotal, "orders"],
  [COUNTERS.ordersPaid, "orders", ["status", "paid"]],
];

/** Every counter: the row counts, the vendors over the product limit and the recurring revenue. */
async function expectedCounters(db: Executor): Promise<Record<CounterName, number>> {
  const one = async (q: Promise<{ n: unknown } | undefined>) => Number((await q)?.n ?? 0);
  const counters = {} as Record<CounterName, number>;
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
  return counters;
}

/** The paid orders per vendor and day, added to the platform's days, the vendor's days and the vendor's totals. */
async function expectedPaidSales(db: Executor): Promise<Pick<RollupSnapshot, "dailyPlatform" | "dailyVendor" | "vendorTotals">> {
  const dailyPlatform = new Map<string, Row>();
  const dailyVendor = new Map<string, Row>();
  const vendorTotals = new Map<string, Row>();
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
  return { dailyPlatform, dailyVendor, vendorTotals };
}

/**
 * The platform's other figures per day: vendors joined and products created; refunds by the day
 * they happened; recurring revenue changes on the days subscriptions started and were cancelled
 * (payouts by the day they were paid come with the payouts, expectedPayouts). Each counts rows (sum
 * null) or sums a column, of the rows with `where` if given, grouped by the day of `day`.
 */
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

/** Adds PER_DAY's figures and the part refunds to the platform's days. */
async function addPlatformDayFigures(db: Executor, dailyPlatform: Map<string, Row>): Promise<void> {
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
}

/** Gives every vendor a vendor_totals row, even one with nothing yet, and adds listed products and store visits. */
async function completeVendorTotals(db: Executor, vendorTotals: Map<string, Row>, vendorIds: readonly string[]): Promise<void> {
  for (const id of vendorIds) if (!vendorTotals.has(id)) vendorTotals.set(id, zeroRow(VENDOR_FIELDS));
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
}

/** Every product's units sold and revenue from its paid orders (zero without any). */
async function expectedProductTotals(db: Executor): Promise<Map<string, Row>> {
  const productTotals = new Map<string, Row>();
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
  return productTotals;
}

/**
 * Every vendor's payout account (earned from its totals, paid out, in flight, balance), every run's
 * counts by status and the balances owed per account status; paid payouts are added to the
 * platform's days on the day they were paid.
 */
async function expectedPayouts(
  db: Executor,
  vendorIds: readonly string[],
  vendorTotals: Map<string, Row>,
  dailyPlatform: Map<string, Row>,
): Promise<Pick<RollupSnapshot, "payoutAccounts" | "balanceTotals" | "payoutRuns">> {
  const payouts = await db.selectFrom("payouts").select(["run_id", "vendor_id", "status", "amount_cents", "paid_at", "reversed_cents"]).execute();
  const payoutAccounts = new Map<string, Row>();
  const accounts = await db.selectFrom("payout_accounts").select(["vendor_id", "status"]).execute();
  const statusOf = new Map(accounts.map((a) => [a.vendor_id, a.status]));
  for (const id of vendorIds) payoutAccounts.set(id, zeroRow(ACCOUNT_FIELDS));
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
  // Open disputes hold the artist's share; lost ones charge the artist's part of Stripe's fee.
  const disputed = await db
    .selectFrom("dispute_lines")
    .innerJoin("disputes", "disputes.id", "dispute_lines.dispute_id")
    .select(["dispute_lines.vendor_id", "disputes.outcome", "dispute_lines.held_cents", "dispute_lines.fee_cents"])
    .execute();
  for (const d of disputed) {
    const a = payoutAccounts.get(d.vendor_id);
    if (!a) continue;
    if (d.outcome === "open") a.held_cents = Number(a.held_cents) + Number(d.held_cents);
    if (d.outcome === "lost") a.charged_cents = Number(a.charged_cents) + Number(d.fee_cents);
  }
  const balanceTotals = settleBalances(payoutAccounts, statusOf);
  return { payoutAccounts, balanceTotals, payoutRuns };
}

/** Sets each account's balance (earned less paid out, in flight, held and charged) and sums the positive ones per account status. */
function settleBalances(payoutAccounts: Map<string, Row>, statusOf: Map<string, string>): Map<string, Row> {
  const balanceTotals = new Map<string, Row>();
  for (const [vendorId, a] of payoutAccounts) {
    a.balance_cents = Number(a.earned_cents) - Number(a.paid_out_cents) - Number(a.in_flight_cents) - Number(a.held_cents) - Number(a.charged_cents);
    const status = statusOf.get(vendorId) ?? "not_connected";
    if (Number(a.balance_cents) > 0) add(balanceTotals, status, BALANCE_TOTAL_FIELDS, { vendors_owed: 1, owed_cents: Number(a.balance_cents) });
  }
  return balanceTotals;
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
