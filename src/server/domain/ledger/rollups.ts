import { type RawBuilder, sql } from "kysely";
import type { Executor } from "../../platform/db/executor.ts";
import type { DB } from "../../platform/db/schema.ts";

/**
 * Additive upserts into the rollup tables. Each call adds deltas (negative to take a refund, a
 * cancellation or a deletion back out), creating the row at the deltas when missing, with
 * `insert ... on conflict do update` which SQLite and PostgreSQL both understand.
 */

export interface SalesDeltas {
  grossCents?: number;
  orders?: number;
  feesCents?: number;
  itemsSold?: number;
}

export interface PlatformDayDeltas extends SalesDeltas {
  newVendors?: number;
  newProducts?: number;
  /** Gross of orders refunded that day (counted on the refund's day). */
  refundsCents?: number;
  /** Payouts paid that day. */
  payoutsCents?: number;
  /** Monthly fees of subscriptions started that day minus those cancelled that day. */
  mrrChangeCents?: number;
}

export interface VendorTotalsDeltas extends SalesDeltas {
  listedProducts?: number;
  visits?: number;
}

function isZero(d: object): boolean {
  return Object.values(d).every((v) => v === undefined || v === 0);
}

/**
 * The `do update set` of an additive upsert: each column becomes the stored value plus the one the
 * insert brought (`excluded`), so one statement creates the row at the deltas or adds them to it.
 * The target table is named on the left: on PostgreSQL a bare column would be ambiguous with `excluded`.
 */
export function addExcluded<T extends keyof DB & string, C extends keyof DB[T] & string>(table: T, columns: readonly C[]): Record<C, RawBuilder<number>> {
  return Object.fromEntries(columns.map((c) => [c, sql<number>`${sql.ref(`${table}.${c}`)} + ${sql.ref(`excluded.${c}`)}`])) as Record<C, RawBuilder<number>>;
}

/** The sales columns every sales rollup has, from the deltas (absent: 0). */
function salesValues(d: SalesDeltas) {
  return { gross_cents: d.grossCents ?? 0, orders: d.orders ?? 0, fees_cents: d.feesCents ?? 0, items_sold: d.itemsSold ?? 0 };
}

const SALES_COLUMNS = ["gross_cents", "orders", "fees_cents", "items_sold"] as const;

/**
 * Per-day platform totals: sales of paid orders plus vendors joined and products created that day,
 * refunds, payouts and the change of monthly recurring revenue that day.
 */
export async function addToDailyPlatformTotals(db: Executor, day: string, d: PlatformDayDeltas): Promise<void> {
  if (isZero(d)) return;
  await db
    .insertInto("daily_platform_totals")
    .values({
      day,
      ...salesValues(d),
      new_vendors: d.newVendors ?? 0,
      new_products: d.newProducts ?? 0,
      refunds_cents: d.refundsCents ?? 0,
      payouts_cents: d.payoutsCents ?? 0,
      mrr_change_cents: d.mrrChangeCents ?? 0,
    })
    .onConflict((oc) => oc.column("day").doUpdateSet(addExcluded("daily_platform_totals", [...SALES_COLUMNS, "new_vendors", "new_products", "refunds_cents", "payouts_cents", "mrr_change_cents"])))
    .execute();
}

/** One row's deltas of a keyed rollup. */
export interface VendorDayDeltas {
  vendorId: string;
  day: string;
  deltas: SalesDeltas;
}

/**
 * Per-vendor per-day sales of paid orders (vendor sales charts, conversion by period): one statement
 * for every row, each key once (PostgreSQL refuses to update a row twice in one statement) and in
 * key order, so two transactions adding to the same rows take their locks in the same order.
 */
export async function addToDailyVendorTotals(db: Executor, rows: readonly VendorDayDeltas[]): Promise<void> {
  const summed = sumByKey(
    rows,
    (r) => `${r.vendorId} ${r.day}`,
    (r) => r.deltas,
  ).filter(([, r]) => !isZero(r.deltas));
  if (summed.length === 0) return;
  await db
    .insertInto("daily_vendor_totals")
    .values(summed.map(([, r]) => ({ vendor_id: r.vendorId, day: r.day, ...salesValues(r.deltas) })))
    .onConflict((oc) => oc.columns(["vendor_id", "day"]).doUpdateSet(addExcluded("daily_vendor_totals", SALES_COLUMNS)))
    .execute();
}

/**
 * Rows with the same key summed into one (numeric fields added, the first row's other fields kept),
 * sorted by key: the rows of one additive upsert.
 */
export function sumByKey<R, D extends object>(rows: readonly R[], keyOf: (row: R) => string, deltasOf: (row: R) => D): Array<[string, R & { deltas: D }]> {
  const byKey = new Map<string, R & { deltas: D }>();
  for (const row of rows) {
    const key = keyOf(row);
    const seen = byKey.get(key);
    if (!seen) {
      byKey.set(key, { ...row, deltas: { ...deltasOf(row) } });
      continue;
    }
    const into = seen.deltas as Record<string, number | undefined>;
    for (const [field, value] of Object.entries(deltasOf(row))) if (typeof value === "number") into[field] = (into[field] ?? 0) + value;
  }
  return [...byKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** One vendor's deltas to its lifetime totals; `saleAt` moves last_sale_at forward if it is newer. */
export interface VendorTotalsRow {
  vendorId: string;
  deltas: VendorTotalsDeltas;
  saleAt?: string | undefined;
}

/**
 * Lifetime per-vendor totals, one statement for every vendor (each once, in key order). last_sale_at
 * moves forward to the newest `saleAt` given (a CASE rather than max()/greatest(), which differ
 * between SQLite and PostgreSQL).
 */
export async function addToVendorTotals(db: Executor, rows: readonly VendorTotalsRow[]): Promise<void> {
  const newestSale = new Map<string, string>();
  for (const r of rows) {
    const known = newestSale.get(r.vendorId);
    if (r.saleAt !== undefined && (known === undefined || r.saleAt > known)) newestSale.set(r.vendorId, r.saleAt);
  }
  const changing = sumByKey(
    rows,
    (r) => r.vendorId,
    (r) => r.deltas,
  )
    .map(([, r]) => ({ ...r, saleAt: newestSale.get(r.vendorId) }))
    .filter((r) => !isZero(r.deltas) || r.saleAt !== undefined);
  if (changing.length === 0) return;
  await db
    .insertInto("vendor_totals")
    .values(
      changing.map((r) => ({
        vendor_id: r.vendorId,
        listed_products: r.deltas.listedProducts ?? 0,
        ...salesValues(r.deltas),
        visits: r.deltas.visits ?? 0,
        last_sale_at: r.saleAt ?? null,
      })),
    )
    .onConflict((oc) =>
      oc.column("vendor_id").doUpdateSet((eb) => ({
        ...addExcluded("vendor_totals", ["listed_products", ...SALES_COLUMNS, "visits"]),
        last_sale_at: eb
          .case()
          .when(eb.or([eb("vendor_totals.last_sale_at", "is", null), eb("vendor_totals.last_sale_at", "<", eb.ref("excluded.last_sale_at"))]))
          .then(eb.ref("excluded.last_sale_at"))
          .else(eb.ref("vendor_totals.last_sale_at"))
          .end(),
      })),
    )
    .execute();
}

/**
 * Sets last_sale_at to the newest paid order of the vendor, after the newest one was refunded or
 * cancelled. Walks orders_vendor_created_idx backwards from the newest order: an index seek.
 */
export async function refreshLastSaleAt(db: Executor, vendorId: string): Promise<void> {
  const newest = await db.selectFrom("orders").select("created_at").where("vendor_id", "=", vendorId).where("status", "=", "paid").orderBy("created_at", "desc").limit(1).executeTakeFirst();
  await db
    .updateTable("vendor_totals")
    .set({ last_sale_at: newest?.created_at ?? null })
    .where("vendor_id", "=", vendorId)
    .execute();
}
