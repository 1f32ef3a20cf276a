import { COUNTER_NAMES, type CounterName } from "./counters.ts";
import { type Executor, inTransaction } from "../../platform/db/executor.ts";
import { rebuildProductSalesAndWindows } from "./period-totals.ts";
import {
  ACCOUNT_FIELDS,
  BALANCE_TOTAL_FIELDS,
  computeExpectedRollups,
  PLATFORM_FIELDS,
  PRODUCT_FIELDS,
  type Row,
  type RollupSnapshot,
  RUN_FIELDS,
  SALES_FIELDS,
  TIME_FIELDS,
  VENDOR_DAY_FIELDS,
  VENDOR_FIELDS,
  zeroRow,
} from "./recompute-expected.ts";

/**
 * The rollups and counters checked against, and repaired from, a recomputation over the raw rows
 * (recompute-expected.ts computes it). Whole-table scans: for tests and for operators repairing a
 * damaged database — never for a request path.
 */

export { computeExpectedRollups, type RollupSnapshot };

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

    await clearRollupTables(trx);
    await writeCounters(trx, expected.counters);
    await writeDailyPlatformTotals(trx, expected.dailyPlatform);
    await writeDailyVendorTotals(trx, expected.dailyVendor);
    await writeVendorTotals(trx, expected.vendorTotals);
    await writePayoutAccounts(trx, expected.payoutAccounts);
    await replaceBalanceTotals(trx, expected.balanceTotals);
    await writePayoutRuns(trx, expected.payoutRuns);
    if (differences.some((d) => d.table === "product_sales_days" || d.table === "product_period_totals" || d.table === "vendor_period_totals")) {
      await rebuildProductSalesAndWindows(trx);
    }
    await writeProductTotals(trx, expected.productTotals, differences);
    return differences;
  });
}

/** Empties the tables the repair writes whole again: the daily totals, the vendor totals and the ledger's counters. */
async function clearRollupTables(trx: Executor): Promise<void> {
  await trx.deleteFrom("daily_platform_totals").execute();
  await trx.deleteFrom("daily_vendor_totals").execute();
  await trx.deleteFrom("vendor_totals").execute();
  await trx.deleteFrom("counters").where("name", "in", COUNTER_NAMES).execute();
}

async function writeCounters(trx: Executor, counters: Record<CounterName, number>): Promise<void> {
  await trx
    .insertInto("counters")
    .values(COUNTER_NAMES.map((name) => ({ name, value: counters[name] })))
    .execute();
}

/** ~8 parameters per row: 500 rows per statement stays under every driver's limit. */
async function insertInChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) await insert(rows.slice(i, i + 500));
}

async function writeDailyPlatformTotals(trx: Executor, dailyPlatform: Map<string, Row>): Promise<void> {
  await insertInChunks([...dailyPlatform], (chunk) =>
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
}

async function writeDailyVendorTotals(trx: Executor, dailyVendor: Map<string, Row>): Promise<void> {
  await insertInChunks([...dailyVendor], (chunk) =>
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
}

/** A time field of a snapshot row as the column holds it (null when unset). */
const timeOrNull = (value: Row[string] | undefined): string | null => (value === null || value === undefined ? null : String(value));

async function writeVendorTotals(trx: Executor, vendorTotals: Map<string, Row>): Promise<void> {
  await insertInChunks([...vendorTotals], (chunk) =>
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
          last_sale_at: timeOrNull(r.last_sale_at),
        })),
      )
      .execute(),
  );
}

/** Payout accounts are kept (their Stripe state is not a rollup): only their amounts are set. */
async function writePayoutAccounts(trx: Executor, payoutAccounts: Map<string, Row>): Promise<void> {
  for (const [vendorId, r] of payoutAccounts) {
    await trx
      .updateTable("payout_accounts")
      .set({
        earned_cents: Number(r.earned_cents),
        paid_out_cents: Number(r.paid_out_cents),
        in_flight_cents: Number(r.in_flight_cents),
        held_cents: Number(r.held_cents),
        charged_cents: Number(r.charged_cents),
        balance_cents: Number(r.balance_cents),
        last_payout_at: timeOrNull(r.last_payout_at),
      })
      .where("vendor_id", "=", vendorId)
      .execute();
  }
}

async function replaceBalanceTotals(trx: Executor, balanceTotals: Map<string, Row>): Promise<void> {
  await trx.deleteFrom("payout_balance_totals").execute();
  for (const [status, r] of balanceTotals) {
    await trx
      .insertInto("payout_balance_totals")
      .values({ account_status: status as "active", vendors_owed: Number(r.vendors_owed), owed_cents: Number(r.owed_cents) })
      .execute();
  }
}

/** Payout runs are kept (they are the runs themselves): only their counts by status are set. */
async function writePayoutRuns(trx: Executor, payoutRuns: Map<string, Row>): Promise<void> {
  for (const [runId, r] of payoutRuns) {
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
}

/** Sets units sold and revenue only on the products found to differ (a products row is far more than its rollup). */
async function writeProductTotals(trx: Executor, productTotals: Map<string, Row>, differences: RollupDifference[]): Promise<void> {
  const productFixes = differences.filter((d) => d.table === "products").map((d) => d.key);
  for (const id of new Set(productFixes)) {
    const r = productTotals.get(id);
    if (!r) continue;
    await trx
      .updateTable("products")
      .set({ units_sold: Number(r.units_sold), revenue_cents: Number(r.revenue_cents) })
      .where("id", "=", id)
      .execute();
  }
}
