import type { ErrorLogDropsTable, NewErrorLog } from "../db/schema.ts";
import type { Executor } from "../db/executor.ts";

type ErrorLogDrop = ErrorLogDropsTable;

/** Appends one entry to error_logs (the per-level counts follow by trigger, migration 003). */
export async function insertErrorLog(db: Executor, row: NewErrorLog): Promise<void> {
  await db.insertInto("error_logs").values(row).execute();
}

/** Counts one dropped entry for its hour and level. */
export async function addErrorLogDrop(db: Executor, hour: string, level: ErrorLogDrop["level"]): Promise<void> {
  await db
    .insertInto("error_log_drops")
    .values({ hour, level, count: 1 })
    .onConflict((oc) => oc.columns(["hour", "level"]).doUpdateSet((eb) => ({ count: eb("error_log_drops.count", "+", 1) })))
    .execute();
}

/** Dropped entries per level since `sinceHour` (inclusive): at most a day of hourly rows. */
export async function sumErrorLogDrops(db: Executor, sinceHour: string): Promise<Array<{ level: ErrorLogDrop["level"]; count: number }>> {
  const rows = await db
    .selectFrom("error_log_drops")
    .select(["level", (eb) => eb.fn.sum<number | string>("count").as("count")])
    .where("hour", ">=", sinceHour)
    .groupBy("level")
    .execute();
  return rows.map((r) => ({ level: r.level, count: Number(r.count) }));
}

/** Forgets hourly drop counts older than `beforeHour` (the rate-limit sweep job calls it). */
export async function deleteOldErrorLogDrops(db: Executor, beforeHour: string): Promise<number> {
  const result = await db.deleteFrom("error_log_drops").where("hour", "<", beforeHour).executeTakeFirst();
  return Number(result.numDeletedRows);
}
