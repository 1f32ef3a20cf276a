import { PostgresAdapter, sql, type Transaction } from "kysely";
import type { DB } from "../../platform/db/schema.ts";
import { CHUNK_ROWS, type Executor, inTransaction } from "../../platform/db/executor.ts";
import { inChunks } from "../../platform/db/in-chunks.ts";
import { addExcluded, sumByKey } from "./rollups.ts";

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

export interface ProductSaleDelta {
  productId: string;
  vendorId: string;
  day: string;
  grossCents: number;
  orders: number;
  units: number;
}

/** The figures of every sales table here, each added on conflict (rollups.ts's additive upsert). */
const SALES_COLUMNS = ["gross_cents", "orders", "units"] as const;

function isPostgres(db: Executor): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

interface WindowRow {
  period: number;
  lastDay: string;
  /** A day step under way: the day it moves to, and the last product id already moved (null: none yet). */
  stepTo: string | null;
  stepCursor: string | null;
}

/**
 * The windows as they stand. On PostgreSQL the rows are share-locked, so an order never adds to a
 * window while a chunk of a roll is moving it (the chunk holds the row lock until it commits;
 * SQLite has one writer at a time anyway).
 */
async function readWindows(trx: Executor, lock: boolean): Promise<WindowRow[]> {
  let q = trx.selectFrom("period_windows").select(["period_days", "last_day", "step_to", "step_cursor"]);
  if (lock && isPostgres(trx)) q = q.forShare();
  const rows = await q.execute();
  return rows.map((r) => ({ period: Number(r.period_days), lastDay: r.last_day, stepTo: r.step_to, stepCursor: r.step_cursor }));
}

/**
 * The last day of each window for one product: during a step, products at or below the cursor
 * already end on `step_to`. Compared by the database (its collation orders the cursor), with the
 * window rows share-locked on PostgreSQL as readWindows does.
 */
async function windowEndsFor(trx: Executor, productId: string): Promise<Map<number, string>> {
  let q = trx.selectFrom("period_windows").select((eb) => [
    "period_days",
    eb
      .case()
      .when(eb.and([eb("step_to", "is not", null), eb("step_cursor", "is not", null), eb("step_cursor", ">=", productId)]))
      .then(eb.ref("step_to"))
      .else(eb.ref("last_day"))
      .end()
      .$castTo<string>()
      .as("last_day"),
  ]);
  if (isPostgres(trx)) q = q.forShare();
  const rows = await q.execute();
  return new Map(rows.map((r) => [Number(r.period_days), r.last_day]));
}

/**
 * Adds paid orders (or takes them back, negative deltas) to their products' days and to every
 * window that contains each day: one statement per table, each row once and in key order (as
 * rollups.ts's additive upserts). Internal vendors' sales stay out of the windows.
 */
export async function addToProductSales(trx: Executor, deltas: readonly ProductSaleDelta[]): Promise<void> {
  if (deltas.length === 0) return;
  const days = sumByKey(deltas, (d) => `${d.productId} ${d.day}`, salesOf);
  await trx
    .insertInto("product_sales_days")
    .values(days.map(([, d]) => ({ product_id: d.productId, day: d.day, vendor_id: d.vendorId, ...d.deltas })))
    .onConflict((oc) => oc.columns(["product_id", "day"]).doUpdateSet(addExcluded("product_sales_days", SALES_COLUMNS)))
    .execute();
  const ends = await windowEndsOf(
    trx,
    days.map(([, d]) => d.productId),
  );
  const inWindows = deltas.flatMap((d) => [...ends(d.productId)].filter(([period, last]) => d.day <= last && d.day >= shiftDay(last, -(period - 1))).map(([period]) => ({ ...d, period })));
  if (inWindows.length === 0) return;
  const vendorIds = [...new Set(inWindows.map((d) => d.vendorId))];
  const vendors = await trx.selectFrom("vendors").select(["id", "is_internal"]).where("id", "in", vendorIds).execute();
  const counted = new Set(vendors.filter((v) => Number(v.is_internal) !== 1).map((v) => v.id));
  const kept = inWindows.filter((d) => counted.has(d.vendorId));
  if (kept.length === 0) return;
  const products = sumByKey(kept, (d) => `${d.productId} ${d.period}`, salesOf);
  await trx
    .insertInto("product_period_totals")
    .values(products.map(([, d]) => ({ product_id: d.productId, period_days: d.period, vendor_id: d.vendorId, ...d.deltas })))
    .onConflict((oc) => oc.columns(["product_id", "period_days"]).doUpdateSet(addExcluded("product_period_totals", SALES_COLUMNS)))
    .execute();
  const vendorPeriods = sumByKey(kept, (d) => `${d.vendorId} ${d.period}`, salesOf);
  await trx
    .insertInto("vendor_period_totals")
    .values(vendorPeriods.map(([, d]) => ({ vendor_id: d.vendorId, period_days: d.period, ...d.deltas })))
    .onConflict((oc) => oc.columns(["vendor_id", "period_days"]).doUpdateSet(addExcluded("vendor_period_totals", SALES_COLUMNS)))
    .execute();
  if (kept.some((d) => d.orders < 0)) {
    // A refund may take a product or vendor back to nothing: no row, as for one that never sold.
    for (const [, d] of products) await trx.deleteFrom("product_period_totals").where("product_id", "=", d.productId).where("period_days", "=", d.period).where("orders", "=", 0).execute();
    for (const [, d] of vendorPeriods) await trx.deleteFrom("vendor_period_totals").where("vendor_id", "=", d.vendorId).where("period_days", "=", d.period).where("orders", "=", 0).execute();
  }
}

const salesOf = (d: ProductSaleDelta) => ({ gross_cents: d.grossCents, orders: d.orders, units: d.units });

/**
 * The last day of each window for each of these products, read once: outside a day step every
 * product's windows end on the window's last day; during one, each product's are read as
 * windowEndsFor reads them (the database's collation orders the step's cursor).
 */
async function windowEndsOf(trx: Executor, productIds: readonly string[]): Promise<(productId: string) => Map<number, string>> {
  const windows = await readWindows(trx, true);
  if (windows.every((w) => w.stepTo === null)) {
    const ends = new Map(windows.map((w) => [w.period, w.lastDay]));
    return () => ends;
  }
  const byProduct = new Map<string, Map<number, string>>();
  for (const productId of new Set(productIds)) byProduct.set(productId, await windowEndsFor(trx, productId));
  return (productId) => byProduct.get(productId)!;
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
 * Takes a vendor's sales out of every window (it became one of the platform's own stores) or puts
 * them back (it stopped being one), in the caller's transaction. Putting back reads each of the
 * vendor's products' days inside the window as it stands for that product (mid-step, the cursor
 * decides), as an order would add to it.
 */
export async function setVendorInPeriodTotals(trx: Executor, vendorId: string, inWindows: boolean): Promise<void> {
  await readWindows(trx, true);
  await trx.deleteFrom("product_period_totals").where("vendor_id", "=", vendorId).execute();
  await trx.deleteFrom("vendor_period_totals").where("vendor_id", "=", vendorId).execute();
  if (!inWindows) return;
  const products = await trx.selectFrom("products").select("id").where("vendor_id", "=", vendorId).execute();
  for (const { id: productId } of products) {
    for (const [period, last] of await windowEndsFor(trx, productId)) {
      const sum = await trx
        .selectFrom("product_sales_days")
        .select((eb) => [eb.fn.sum<number>("gross_cents").as("gross_cents"), eb.fn.sum<number>("orders").as("orders"), eb.fn.sum<number>("units").as("units")])
        .where("product_id", "=", productId)
        .where("day", ">=", shiftDay(last, -(period - 1)))
        .where("day", "<=", last)
        .where("orders", "<>", 0)
        .executeTakeFirst();
      const d = { grossCents: Number(sum?.gross_cents ?? 0), orders: Number(sum?.orders ?? 0), units: Number(sum?.units ?? 0) };
      if (d.orders === 0) continue;
      await addToWindowTotals(trx, productId, vendorId, period, d);
    }
  }
}

async function addToWindowTotals(trx: Executor, productId: string, vendorId: string, period: number, d: { grossCents: number; orders: number; units: number }): Promise<void> {
  await trx
    .insertInto("product_period_totals")
    .values({ product_id: productId, period_days: period, vendor_id: vendorId, gross_cents: d.grossCents, orders: d.orders, units: d.units })
    .onConflict((oc) => oc.columns(["product_id", "period_days"]).doUpdateSet(addExcluded("product_period_totals", SALES_COLUMNS)))
    .execute();
  await trx
    .insertInto("vendor_period_totals")
    .values({ vendor_id: vendorId, period_days: period, gross_cents: d.grossCents, orders: d.orders, units: d.units })
    .onConflict((oc) => oc.columns(["vendor_id", "period_days"]).doUpdateSet(addExcluded("vendor_period_totals", SALES_COLUMNS)))
    .execute();
}

/**
 * Removes one deleted product's days and window totals, taking its share out of its vendor's
 * window totals (rows left at nothing go, as for a vendor that never sold). Its orders stay with
 * the vendor, no longer naming the product (ledger/products.ts deleteProduct).
 */
export async function deleteOneProductSales(trx: Executor, productId: string, vendorId: string): Promise<void> {
  await readWindows(trx, true);
  const rows = await trx.selectFrom("product_period_totals").selectAll().where("product_id", "=", productId).execute();
  for (const r of rows) {
    await trx
      .updateTable("vendor_period_totals")
      .set((eb) => ({
        gross_cents: eb("gross_cents", "-", Number(r.gross_cents)),
        orders: eb("orders", "-", Number(r.orders)),
        units: eb("units", "-", Number(r.units)),
      }))
      .where("vendor_id", "=", vendorId)
      .where("period_days", "=", r.period_days)
      .execute();
    await trx.deleteFrom("vendor_period_totals").where("vendor_id", "=", vendorId).where("period_days", "=", r.period_days).where("orders", "=", 0).execute();
  }
  await trx.deleteFrom("product_period_totals").where("product_id", "=", productId).execute();
  await trx.deleteFrom("product_sales_days").where("product_id", "=", productId).execute();
}

/** Products after `after` (exclusive) up to `upTo` (inclusive); an absent bound is open. */
interface ProductRange {
  after?: string | null;
  upTo?: string | null;
}

/**
 * Adds `sign` × the product days in [from, to] of non-internal vendors to the window's totals,
 * set-based (one insert … select … on conflict per table), then drops rows left at nothing.
 */
async function applyDays(trx: Transaction<DB>, period: number, from: string, to: string, sign: 1 | -1, products: ProductRange = {}): Promise<void> {
  let days = trx
    .selectFrom("product_sales_days as d")
    .innerJoin("vendors as v", "v.id", "d.vendor_id")
    .where("d.day", ">=", from)
    .where("d.day", "<=", to)
    // A day whose sales were all refunded keeps its row at nothing: it adds nothing.
    .where("d.orders", "<>", 0)
    .where("v.is_internal", "=", 0);
  if (products.after != null) days = days.where("d.product_id", ">", products.after);
  if (products.upTo != null) days = days.where("d.product_id", "<=", products.upTo);
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
    .onConflict((oc) => oc.columns(["product_id", "period_days"]).doUpdateSet(addExcluded("product_period_totals", SALES_COLUMNS)))
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
    .onConflict((oc) => oc.columns(["vendor_id", "period_days"]).doUpdateSet(addExcluded("vendor_period_totals", SALES_COLUMNS)))
    .execute();
  if (sign === -1) {
    // Rows at nothing are found through the top-list index (gross 0), never by a scan.
    await trx.deleteFrom("product_period_totals").where("period_days", "=", period).where("gross_cents", "=", 0).where("orders", "=", 0).execute();
    await trx.deleteFrom("vendor_period_totals").where("period_days", "=", period).where("gross_cents", "=", 0).where("orders", "=", 0).execute();
  }
}

export interface RollOptions {
  /** Most product ids per day in one chunk (the chunk loop adapts below it); tests set it small. */
  chunkRows?: number;
  /** The chunk loop's pace (platform/db/in-chunks.ts): "background" for the job, "request" when someone waits. */
  pace?: "background" | "request";
  /** Checked between chunks: true ends the roll early (the job lost its lease); the next run resumes from the cursor. */
  shouldStop?: () => Promise<boolean>;
  /** Most product days of a jump (rollChunk); default JUMP_MAX_ROWS. 0: day steps only (tests of the stepping path). */
  jumpMaxRows?: number;
  /** Called after each committed chunk with its window, size and time (tests write orders between chunks; benches time them). */
  onChunk?: (chunk: { period: PeriodWindowDays; rows: number; ms: number }) => Promise<void>;
}

/**
 * The first product ids after `cursor` that sold on `day`, at most `n`: the last of them bounds a
 * chunk (null when fewer than n: the day has no more products past the chunk).
 */
async function chunkBound(trx: Executor, day: string, cursor: string | null, n: number): Promise<string | null> {
  let q = trx.selectFrom("product_sales_days").select("product_id").where("day", "=", day);
  if (cursor !== null) q = q.where("product_id", ">", cursor);
  const rows = await q.orderBy("day").orderBy("product_id").limit(n).execute();
  return rows.length === n ? rows[n - 1]!.product_id : null;
}

/**
 * The most product days a window may move by in one transaction when it holds none of the days it
 * moves to (a jump, see rollChunk): about as long a write as the largest chunks of a day step
 * (docs/decisions/0013-top-lists.md). Measured on the shared, loaded two-core machine: a jump over
 * 1,800 product days took 13 ms on SQLite and 70–85 ms on PostgreSQL.
 */
export const JUMP_MAX_ROWS = 2_000;

/** At most `max` + 1 product days in [from, to] (the (day, product_id) index, bounded): the count is exact up to `max`. */
async function productDaysUpTo(trx: Executor, from: string, to: string, max: number): Promise<number> {
  return (
    await trx
      .selectFrom("product_sales_days")
      .select("product_id")
      .where("day", ">=", from)
      .where("day", "<=", to)
      .limit(max + 1)
      .execute()
  ).length;
}

/** The first day on or after `from` with a product day (the (day, product_id) index: one probe), or null. */
async function firstSaleDayFrom(trx: Executor, from: string | null): Promise<string | null> {
  let q = trx.selectFrom("product_sales_days").select("day");
  if (from !== null) q = q.where("day", ">=", from);
  const row = await q.orderBy("day").limit(1).executeTakeFirst();
  return row?.day ?? null;
}

/**
 * One chunk of moving window `period` towards `today`, in one short transaction; returns the rows
 * it handled (at least 1 while there is work), 0 when the window ends on `today`. Nothing is ever
 * rebuilt in one go (docs/decisions/0013-top-lists.md): every chunk leaves totals that are exact
 * for the days the window row names.
 * - From nothing (no window row): the window starts empty on the day before the first product day
 *   (empty is then exact), and the next chunks step it forward to today.
 * - A jump: a window that holds none of the days it moves to (it ends `period` or more days before
 *   `today`, as one just started from nothing does) and whose old and new days are at most
 *   JUMP_MAX_ROWS (RollOptions.jumpMaxRows) product days moves to `today` in this one transaction:
 *   the new window's days added and the old one's subtracted, set-based. A shop's whole history
 *   then costs one chunk rather than a day step per day it sold; larger windows step by day as below.
 * - Days that change nothing are skipped in one move: while neither the day entering nor the day
 *   leaving has a product day (two probes of the (day, product_id) index), last_day jumps to the
 *   day before the next step that changes something (or to today). So a gap longer than the window
 *   costs the steps of the days that sold, never a rebuild in one transaction.
 * - Otherwise a day step: the day entering (step_to) is added and the day leaving subtracted for
 *   the products after the cursor up to the chunk's bound (at most `n` product ids per day, taken
 *   from the (day, product_id) index), and the cursor moves to the bound; the chunk that reaches
 *   the end of both days moves last_day and clears the step. The window row moves only if nobody
 *   moved it meanwhile (a conditional update on last_day, step_to and step_cursor): two processes
 *   never both apply one chunk, and a crash resumes from the committed cursor. On PostgreSQL the
 *   window row is locked first, so an order is either seen by the probes or sees the moved window.
 */
async function rollChunk(db: Executor, period: PeriodWindowDays, today: string, n: number, jumpMaxRows: number): Promise<number> {
  return inTransaction(db, async (trx) => {
    let read = trx.selectFrom("period_windows").select(["last_day", "step_to", "step_cursor"]).where("period_days", "=", period);
    if (isPostgres(trx)) read = read.forUpdate();
    const w = await read.executeTakeFirst();
    if (w === undefined) {
      // No window row means no totals (the invariant); rows left by a deleted window row go first.
      await trx.deleteFrom("product_period_totals").where("period_days", "=", period).execute();
      await trx.deleteFrom("vendor_period_totals").where("period_days", "=", period).execute();
      const first = await firstSaleDayFrom(trx, null);
      const start = first === null || first > today ? today : shiftDay(first, -1);
      const added = await trx
        .insertInto("period_windows")
        .values({ period_days: period, last_day: start })
        .onConflict((oc) => oc.column("period_days").doNothing())
        .executeTakeFirst();
      if (Number(added.numInsertedOrUpdatedRows ?? 0) !== 1) throw new WindowMoved();
      return 1;
    }
    if (w.step_to === null && w.last_day >= today) return 0;
    if (w.step_to === null && w.last_day <= shiftDay(today, -period)) {
      const oldFrom = shiftDay(w.last_day, -(period - 1));
      const newFrom = shiftDay(today, -(period - 1));
      const rows = (await productDaysUpTo(trx, oldFrom, w.last_day, jumpMaxRows)) + (await productDaysUpTo(trx, newFrom, today, jumpMaxRows));
      if (rows <= jumpMaxRows) {
        const moved = await trx
          .updateTable("period_windows")
          .set({ last_day: today })
          .where("period_days", "=", period)
          .where("last_day", "=", w.last_day)
          .where("step_to", "is", null)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) throw new WindowMoved();
        // The two ranges do not overlap: adding the new and taking out the old leaves exactly the new.
        await applyDays(trx, period, newFrom, today, 1);
        await applyDays(trx, period, oldFrom, w.last_day, -1);
        return 1 + rows;
      }
    }
    if (w.step_to === null) {
      // The next step that changes anything: a day entering with sales, or a day with sales leaving.
      const nextEntering = await firstSaleDayFrom(trx, shiftDay(w.last_day, 1));
      const nextLeaving = await firstSaleDayFrom(trx, shiftDay(w.last_day, -(period - 1)));
      const steps = [nextEntering, nextLeaving === null ? null : shiftDay(nextLeaving, period)].filter((d): d is string => d !== null);
      const quietUntil =
        steps.length === 0
          ? today
          : shiftDay(
              steps.reduce((a, b) => (b < a ? b : a)),
              -1,
            );
      const target = quietUntil > today ? today : quietUntil;
      if (target > w.last_day) {
        const moved = await trx
          .updateTable("period_windows")
          .set({ last_day: target })
          .where("period_days", "=", period)
          .where("last_day", "=", w.last_day)
          .where("step_to", "is", null)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) throw new WindowMoved();
        return 1;
      }
    }
    const stepTo = w.step_to ?? shiftDay(w.last_day, 1);
    const cursor = w.step_to === null ? null : w.step_cursor;
    const leaving = shiftDay(stepTo, -period);
    const bounds = [await chunkBound(trx, stepTo, cursor, n), await chunkBound(trx, leaving, cursor, n)].filter((b): b is string => b !== null);
    // The smaller bound: neither day has more than n products in the chunk. None: this chunk ends the step.
    // (Compared here in code-unit order; were the database's collation to differ, a chunk could only
    // be larger: both bounds lie past the cursor in the database's order, and the ranges are its own.)
    const upTo = bounds.length === 0 ? null : bounds.reduce((a, b) => (b < a ? b : a));
    let move = trx
      .updateTable("period_windows")
      .set(upTo === null ? { last_day: stepTo, step_to: null, step_cursor: null } : { step_to: stepTo, step_cursor: upTo })
      .where("period_days", "=", period)
      .where("last_day", "=", w.last_day);
    move = w.step_to === null ? move.where("step_to", "is", null) : move.where("step_to", "=", w.step_to);
    move = cursor === null ? move.where("step_cursor", "is", null) : move.where("step_cursor", "=", cursor);
    const moved = await move.executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) throw new WindowMoved();
    const range = { after: cursor, upTo };
    await applyDays(trx, period, stepTo, stepTo, 1, range);
    await applyDays(trx, period, leaving, leaving, -1, range);
    return 1 + n;
  }).catch((err: unknown) => {
    // Another process moved the window first: the next chunk reads it again.
    if (err instanceof WindowMoved) return 1;
    throw err;
  });
}

class WindowMoved extends Error {}

/**
 * Brings every window up to `today` (the scheduled job, and a read whose step is small), one chunk
 * at a time through the one chunk loop (platform/db/in-chunks.ts): each chunk stays near the pace's
 * budget and requests run between chunks.
 */
export async function rollPeriodWindows(db: Executor, today: string, options: RollOptions = {}): Promise<{ stopped: boolean }> {
  for (const period of PERIOD_WINDOW_DAYS) {
    let last = { period, rows: 0, ms: 0 };
    const { stopped } = await inChunks(
      async (n) => {
        const started = performance.now();
        const done = await rollChunk(db, period, today, n, options.jumpMaxRows ?? JUMP_MAX_ROWS);
        last = { period, rows: n, ms: performance.now() - started };
        return done;
      },
      {
        startRows: options.chunkRows ?? CHUNK_ROWS,
        pace: options.pace ?? "background",
        onChunk: options.onChunk ? async () => options.onChunk?.(last) : undefined,
        ...(options.shouldStop ? { shouldStop: options.shouldStop } : {}),
      },
    );
    if (stopped) return { stopped: true };
  }
  return { stopped: false };
}

/**
 * True when bringing every window to `today` touches at most `maxRows` product days (counted
 * through the (day, product_id) index, each count bounded): small enough for a request to do.
 */
export async function periodRollIsSmall(db: Executor, today: string, maxRows: number): Promise<boolean> {
  let budget = maxRows;
  const count = async (from: string, to: string, after: string | null): Promise<number> => {
    let q = db.selectFrom("product_sales_days").select("product_id").where("day", ">=", from).where("day", "<=", to);
    if (after !== null) q = q.where("product_id", ">", after);
    return (await q.limit(budget + 1).execute()).length;
  };
  const windows = new Map((await readWindows(db, false)).map((w) => [w.period, w]));
  for (const period of PERIOD_WINDOW_DAYS) {
    const w = windows.get(period);
    if (w === undefined) {
      // From nothing, the window steps from the first product day: each day enters, and leaves if it is old enough.
      budget -= 2 * (await count("0000-01-01", today, null));
    } else {
      let last = w.lastDay;
      if (w.stepTo !== null) {
        // The rest of the step under way, then the whole steps after it.
        budget -= (await count(w.stepTo, w.stepTo, w.stepCursor)) + (await count(shiftDay(w.stepTo, -period), shiftDay(w.stepTo, -period), w.stepCursor));
        last = w.stepTo;
      }
      if (last < today) {
        budget -= await count(shiftDay(last, 1), today, null);
        budget -= await count(shiftDay(last, -(period - 1)), shiftDay(today, -period), null);
      }
    }
    if (budget < 0) return false;
  }
  return true;
}

/** The day each window's totals end on (a window mid-step ends on last_day for most products). */
export async function periodWindowEnds(db: Executor): Promise<Map<number, string>> {
  return new Map((await readWindows(db, false)).map((w) => [w.period, w.lastDay]));
}

/** True when every window ends on `today` (nothing to roll). */
export async function periodWindowsCurrent(db: Executor, today: string): Promise<boolean> {
  const windows = new Map((await readWindows(db, false)).map((w) => [w.period, w]));
  return PERIOD_WINDOW_DAYS.every((p) => windows.get(p)?.lastDay === today && windows.get(p)?.stepTo === null);
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
  // A step under way is dropped: every window is rebuilt to end on its last_day.
  await trx.updateTable("period_windows").set({ step_to: null, step_cursor: null }).execute();
  for (const w of await readWindows(trx, false)) await applyDays(trx, w.period, shiftDay(w.lastDay, -(w.period - 1)), w.lastDay, 1);
}
