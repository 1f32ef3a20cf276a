import type { NewErrorLog } from "../db/schema.ts";
import type { Executor } from "../ledger/executor.ts";

/** Appends one entry to error_logs (the per-level counts follow by trigger, migration 003). */
export async function insertErrorLog(db: Executor, row: NewErrorLog): Promise<void> {
  await db.insertInto("error_logs").values(row).execute();
}
