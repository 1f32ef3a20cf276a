import type { Clock } from "../clock.ts";
import { newId } from "../db/ids.ts";
import type { Executor } from "../ledger/executor.ts";

export interface AuditEntry {
  actorEmail: string;
  /** Dotted verb, e.g. "vendor.disable", "vendor.delete". */
  action: string;
  targetType: string;
  targetId: string;
  /** What changed; stored as JSON text. */
  details: Record<string, unknown>;
}

/**
 * Records an admin action in audit_log. Pass the transaction that makes the change, so the record
 * exists exactly when the change does (a rolled-back action leaves no audit row).
 */
export async function recordAudit(executor: Executor, entry: AuditEntry, clock: Clock): Promise<void> {
  await executor
    .insertInto("audit_log")
    .values({
      id: newId(),
      actor_email: entry.actorEmail,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      details: JSON.stringify(entry.details),
      created_at: clock.now().toISOString(),
    })
    .execute();
}
