import { type Executor, inTransaction } from "../../platform/db/executor.ts";
import { LedgerError, requireNonNegativeInteger } from "./ledger-error.ts";
import { addToVendorTotals } from "./rollups.ts";

export interface DayVisits {
  /** "YYYY-MM-DD" (UTC). */
  day: string;
  count: number;
}

/** Adds store visits of one vendor on one day (store_visits and the vendor's lifetime visits). */
export function recordVisits(db: Executor, vendorId: string, day: string, count: number): Promise<void> {
  return recordVisitsMany(db, vendorId, [{ day, count }]);
}

/** Adds visits of one vendor on several days with one multi-row upsert (seeds and importers). */
export async function recordVisitsMany(db: Executor, vendorId: string, entries: readonly DayVisits[]): Promise<void> {
  for (const e of entries) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(e.day)) throw new LedgerError("invalid_input", `Invalid day: ${e.day}`);
    requireNonNegativeInteger(e.count, "visit count");
  }
  // One statement may not upsert the same key twice (PostgreSQL refuses), so merge repeated days.
  const byDay = new Map<string, number>();
  for (const e of entries) if (e.count > 0) byDay.set(e.day, (byDay.get(e.day) ?? 0) + e.count);
  const rows = [...byDay].map(([day, count]) => ({ day, count }));
  if (rows.length === 0) return;
  await inTransaction(db, async (trx) => {
    // 500 rows × 3 parameters stays far below every driver's parameter limit.
    for (let i = 0; i < rows.length; i += 500) {
      await trx
        .insertInto("store_visits")
        .values(rows.slice(i, i + 500).map((e) => ({ vendor_id: vendorId, day: e.day, visits: e.count })))
        .onConflict((oc) => oc.columns(["vendor_id", "day"]).doUpdateSet((eb) => ({ visits: eb("store_visits.visits", "+", eb.ref("excluded.visits")) })))
        .execute();
    }
    await addToVendorTotals(trx, [{ vendorId, deltas: { visits: rows.reduce((s, e) => s + e.count, 0) } }]);
  });
}

/**
 * Sets a vendor's visits of one day to `count` (the storefront's count of the day, sent again as it
 * grows): the vendor's lifetime visits move by the difference, so sending the same count again
 * changes nothing.
 */
export async function setDayVisits(db: Executor, vendorId: string, day: string, count: number): Promise<void> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new LedgerError("invalid_input", `Invalid day: ${day}`);
  requireNonNegativeInteger(count, "visit count");
  await inTransaction(db, async (trx) => {
    const row = await trx.selectFrom("store_visits").select("visits").where("vendor_id", "=", vendorId).where("day", "=", day).executeTakeFirst();
    const before = Number(row?.visits ?? 0);
    if (before === count) return;
    if (row) await trx.updateTable("store_visits").set({ visits: count }).where("vendor_id", "=", vendorId).where("day", "=", day).execute();
    else await trx.insertInto("store_visits").values({ vendor_id: vendorId, day, visits: count }).execute();
    await addToVendorTotals(trx, [{ vendorId, deltas: { visits: count - before } }]);
  });
}
