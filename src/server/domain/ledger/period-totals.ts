import { PostgresAdapter, sql, type Transaction } from "kysely";
import type { DB } from "../../platform/db/schema.ts";
import { type Executor, inTransaction } from "../../platform/db/executor.ts";

/**
 * Per-product daily sales and the rolling 7/30/90-day totals per product and per vendor that the
 * top lists read (docs/decisions/0013-top-lists.md). Invariant, checked by recompute.ts:
 * - product_sales_days = paid orders summed per (product, UTC day of created_at);
 * - for each window row (period_days P, last_day L), product_period_totals and
 *   vendor_period_totals = product_sales_days of the days [L − P + 1, L] of non-internal vendors,
 *   without all-zero rows; no window row means no totals for P.
 * Orders add to the windows that contain their day; rollPeriodWindows moves a window forward as
 * days roll over, subtracting the day that leaves and adding the day that enters.
 */

export const PERIOD_WINDOW_DAYS = [7, 30, 90] as const;
export type PeriodWindowDays = (typeof PERIOD_WINDOW_DAYS)[number];

const DAY_MS = 86_400_000;

export function shiftDay(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

function daysFrom(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00.000Z`) - Date.parse(`${from}T00:00:00.000Z`)) / DAY_MS);
}

export interface ProductSaleDelta {
  productId: string;
  vendorId: string;
  day: string;
  grossCents: number;
  orders: number;
  units: number;
}

function isPostgres(db: Executor): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * The windows as they stand. On PostgreSQL the rows are share-locked, so an order never adds to a
 * window that a concurrent roll is moving (the roll holds their row lock until it commits; SQLite
 * has one writer at a time anyway).
 */
async function readWindows(trx: Executor, lock: boolean): Promise<Map<number, string>> {
  let q = trx.selectFrom("period_windows").select(["period_days", "last_day"]);
  if (lock && isPostgres(trx)) q = q.forShare();
  const rows = await q.execute();
  return new Map(rows.map((r) => [Number(r.period_days), r.last_day]));
}

/**
 * Adds one paid order (or takes it back, negative deltas) to the product's day and to every
 * window that contains that day. Internal vendors' sales stay out of the windows.
 */
export async function addToProductSales(trx: Executor, d: ProductSaleDelta): Promise<void> {
  await trx
    .insertInto("product_sales_days")
    .values({ product_id: d.productId, day: d.day, vendor_id: d.vendorId, gross_cents: d.grossCents, orders: d.orders, units: d.units })
    .onConflict((oc) =>
      oc.columns(["product_id", "day"]).doUpdateSet((eb) => ({
        gross_cents: eb("product_sales_days.gross_cents", "+", eb.ref("excluded.gross_cents")),
        orders: eb("product_sales_days.orders", "+", eb.ref("excluded.orders")),
        units: eb("product_sales_days.units", "+", eb.ref("excluded.units")),
      })),
    )
    .execute();
  const windows = await readWindows(trx, true);
  const inside = [...windows].filter(([period, last]) => d.day <= last && d.day >= shiftDay(last, -(period - 1)));
  if (inside.length === 0) return;
  const vendor = await trx.selectFrom("vendors").select("is_internal").where("id", "=", d.vendorId).executeTakeFirst();
  if (!vendor || vendor.is_internal === 1) return;
  for (const [period] of inside) {
    await trx
      .insertInto("product_period_totals")
      .values({ product_id: d.productId, period_days: period, vendor_id: d.vendorId, gross_cents: d.grossCents, orders: d.orders, units: d.units })
      .onConflict((oc) =>
        oc.columns(["product_id", "period_days"]).doUpdateSet((eb) => ({
          gross_cents: eb("product_period_totals.gross_cents", "+", eb.ref("excluded.gross_cents")),
          orders: eb("product_period_totals.orders", "+", eb.ref("excluded.orders")),
          units: eb("product_period_totals.units", "+", eb.ref("excluded.units")),
        })),
      )
      .execute();
    await trx
      .insertInto("vendor_period_totals")
      .values({ vendor_id: d.vendorId, period_days: period, gross_cents: d.grossCents, orders: d.orders, units: d.units })
      .onConflict((oc) =>
        oc.columns(["vendor_id", "period_days"]).doUpdateSet((eb) => ({
          gross_cents: eb("vendor_period_totals.gross_cents", "+", eb.ref("excluded.gross_cents")),
          orders: eb("vendor_period_totals.orders", "+", eb.ref("excluded.orders")),
          units: eb("vendor_period_totals.units", "+", eb.ref("excluded.units")),
        })),
      )
      .execute();
    if (d.orders < 0) {
      // A refund may take a product or vendor back to nothing: no row, as for one that never sold.
      await trx.deleteFrom("product_period_totals").where("product_id", "=", d.productId).where("period_days", "=", period).where("orders", "=", 0).execute();
      await trx.deleteFrom("vendor_period_totals").where("vendor_id", "=", d.vendorId).where("period_days", "=", period).where("orders", "=", 0).execute();
    }
  }
}

/** Removes a deleted vendor's products' days and period totals (the vendor cascade, in its transaction). */
export async function deleteProductSales(trx: Executor, productIds: string[]): Promise<void> {
  if (productIds.length === 0) return;
  // As an order does: a roll running now finishes first, so it cannot add rows for these products after they are gone.
  await readWindows(trx, true);
  await trx.deleteFrom("product_sales_days").where("product_id", "in", productIds).execute();
  await trx.deleteFrom("product_period_totals").where("product_id", "in", productIds).execute();
}

export async function deleteVendorPeriodTotals(trx: Executor, vendorId: string): Promise<void> {
  await trx.deleteFrom("vendor_period_totals").where("vendor_id", "=", vendorId).execute();
}

/**
 * Adds `sign` × the product days in [from, to] of non-internal vendors to the window's totals,
 * set-based (one insert … select … on conflict per table), then drops rows left at nothing.
 */
async function applyDays(trx: Transaction<DB>, period: number, from: string, to: string, sign: 1 | -1): Promise<void> {
  const days = trx
    .selectFrom("product_sales_days as d")
    .innerJoin("vendors as v", "v.id", "d.vendor_id")
    .where("d.day", ">=", from)
    .where("d.day", "<=", to)
    // A day whose sales were all refunded keeps its row at nothing: it adds nothing.
    .where("d.orders", "<>", 0)
    .where("v.is_internal", "=", 0);
  await trx
    .insertInto("product_period_totals")
    .columns(["product_id", "period_days", "vendor_id", "gross_cents", "orders", "units"])
    .expression(
      days
        .select((eb) => [
          "d.product_id",
          eb.lit(period).as("period_days"),
          "d.vendor_id",
          eb(eb.fn.sum<number>("d.gross_cents"), "*", sign).as("gross_cents"),
          eb(eb.fn.sum<number>("d.orders"), "*", sign).as("orders"),
          eb(eb.fn.sum<number>("d.units"), "*", sign).as("units"),
        ])
        .groupBy(["d.product_id", "d.vendor_id"]),
    )
    .onConflict((oc) =>
      oc.columns(["product_id", "period_days"]).doUpdateSet((eb) => ({
        gross_cents: eb("product_period_totals.gross_cents", "+", eb.ref("excluded.gross_cents")),
        orders: eb("product_period_totals.orders", "+", eb.ref("excluded.orders")),
        units: eb("product_period_totals.units", "+", eb.ref("excluded.units")),
      })),
    )
    .execute();
  await trx
    .insertInto("vendor_period_totals")
    .columns(["vendor_id", "period_days", "gross_cents", "orders", "units"])
    .expression(
      days
        .select((eb) => [
          "d.vendor_id",
          eb.lit(period).as("period_days"),
          eb(eb.fn.sum<number>("d.gross_cents"), "*", sign).as("gross_cents"),
          eb(eb.fn.sum<number>("d.orders"), "*", sign).as("orders"),
          eb(eb.fn.sum<number>("d.units"), "*", sign).as("units"),
        ])
        .groupBy("d.vendor_id"),
    )
    .onConflict((oc) =>
      oc.columns(["vendor_id", "period_days"]).doUpdateSet((eb) => ({
        gross_cents: eb("vendor_period_totals.gross_cents", "+", eb.ref("excluded.gross_cents")),
        orders: eb("vendor_period_totals.orders", "+", eb.ref("excluded.orders")),
        units: eb("vendor_period_totals.units", "+", eb.ref("excluded.units")),
      })),
    )
    .execute();
  if (sign === -1) {
    // Rows at nothing are found through the top-list index (gross 0), never by a scan.
    await trx.deleteFrom("product_period_totals").where("period_days", "=", period).where("gross_cents", "=", 0).where("orders", "=", 0).execute();
    await trx.deleteFrom("vendor_period_totals").where("period_days", "=", period).where("gross_cents", "=", 0).where("orders", "=", 0).execute();
  }
}

class WindowMoved extends Error {}

/**
 * Moves one window so that it ends on `today`. From nothing (or after a gap longer than the
 * window) the window is rebuilt from the product days of its period; otherwise it steps a day at
 * a time, each step one short transaction (the day leaving is subtracted, the day entering
 * added, and the window row moved only if nobody moved it meanwhile). Returns the days stepped.
 */
async function rollWindow(db: Executor, period: PeriodWindowDays, today: string): Promise<number> {
  let steps = 0;
  for (;;) {
    try {
      const done = await inTransaction(db, async (trx) => {
        const last = (await trx.selectFrom("period_windows").select("last_day").where("period_days", "=", period).executeTakeFirst())?.last_day;
        if (last !== undefined && last >= today) return true;
        if (last === undefined || daysFrom(last, today) >= period) {
          await trx.deleteFrom("product_period_totals").where("period_days", "=", period).execute();
          await trx.deleteFrom("vendor_period_totals").where("period_days", "=", period).execute();
          if (last === undefined) {
            await trx.insertInto("period_windows").values({ period_days: period, last_day: today }).execute();
          } else {
            const moved = await trx.updateTable("period_windows").set({ last_day: today }).where("period_days", "=", period).where("last_day", "=", last).executeTakeFirst();
            if (Number(moved.numUpdatedRows) !== 1) throw new WindowMoved();
          }
          await applyDays(trx, period, shiftDay(today, -(period - 1)), today, 1);
          return true;
        }
        const next = shiftDay(last, 1);
        const moved = await trx.updateTable("period_windows").set({ last_day: next }).where("period_days", "=", period).where("last_day", "=", last).executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) throw new WindowMoved();
        const leaving = shiftDay(last, -(period - 1));
        await applyDays(trx, period, next, next, 1);
        await applyDays(trx, period, leaving, leaving, -1);
        return next >= today;
      });
      steps++;
      if (done) return steps;
    } catch (err) {
      // Another process moved the window first: read it again.
      if (!(err instanceof WindowMoved)) throw err;
    }
  }
}

/** Brings every window up to `today` (the scheduled job, and a read that finds a window behind). */
export async function rollPeriodWindows(db: Executor, today: string): Promise<void> {
  for (const period of PERIOD_WINDOW_DAYS) await rollWindow(db, period, today);
}

/** True when every window ends on `today` (nothing to roll). */
export async function periodWindowsCurrent(db: Executor, today: string): Promise<boolean> {
  const windows = await readWindows(db, false);
  return PERIOD_WINDOW_DAYS.every((p) => windows.get(p) === today);
}

/**
 * Operator repair (recompute.ts): rewrites product_sales_days from the paid orders and every
 * window's totals from those days. Scans orders: never on a request path.
 */
export async function rebuildProductSalesAndWindows(trx: Transaction<DB>): Promise<void> {
  await trx.deleteFrom("product_sales_days").execute();
  await trx
    .insertInto("product_sales_days")
    .columns(["product_id", "day", "vendor_id", "gross_cents", "orders", "units"])
    .expression((eb) =>
      eb
        .selectFrom("orders")
        .select((o) => [
          o.ref("product_id").$castTo<string>().as("product_id"),
          sql<string>`substr(created_at, 1, 10)`.as("day"),
          "vendor_id",
          o.fn.sum<number>("gross_cents").as("gross_cents"),
          o.fn.countAll<number>().as("orders"),
          o.fn.sum<number>("quantity").as("units"),
        ])
        .where("status", "=", "paid")
        .where("product_id", "is not", null)
        .groupBy(["product_id", sql`substr(created_at, 1, 10)`, "vendor_id"]),
    )
    .execute();
  await trx.deleteFrom("product_period_totals").execute();
  await trx.deleteFrom("vendor_period_totals").execute();
  for (const [period, last] of await readWindows(trx, false)) await applyDays(trx, period, shiftDay(last, -(period - 1)), last, 1);
}
