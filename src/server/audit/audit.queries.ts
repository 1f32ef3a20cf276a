import type { Insertable } from "kysely";
import type { AuditLogTable } from "../db/schema.ts";
import type { Executor } from "../ledger/executor.ts";

/** Inserts one audit_log row, on the caller's executor (normally the transaction making the change). */
export async function insertAuditRow(executor: Executor, row: Insertable<AuditLogTable>): Promise<void> {
  await executor.insertInto("audit_log").values(row).execute();
}
