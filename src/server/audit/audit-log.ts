import type { Clock } from "../clock.ts";
import { newId } from "../db/ids.ts";
import type { Actor } from "../http/endpoint-router.ts";
import type { Executor } from "../ledger/executor.ts";
import { insertAuditRow } from "./audit.queries.ts";

export interface AuditEntry {
  /** Who did it and from where (the request's facts); null for work the system does on its own. */
  actor: Actor | null;
  /** Dotted verb, e.g. "vendor.disable", "vendor.delete", "settings.update". */
  action: string;
  target: { type: string; id: string; label?: string | null };
  /** For updates: the values before and after (only what changed). */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  /** Anything else worth keeping (counts, options). */
  details?: Record<string, unknown>;
}

/** The actor of work the system does on its own (scheduled jobs). */
const SYSTEM_ACTOR_EMAIL = "system";

/**
 * Records an admin action in audit_log. Pass the transaction that makes the change, so the record
 * exists exactly when the change does (a rolled-back action leaves no audit row).
 */
export async function recordAudit(executor: Executor, entry: AuditEntry, clock: Clock): Promise<void> {
  const { actor } = entry;
  await insertAuditRow(executor, {
    id: newId(),
    actor_email: actor?.user.email ?? SYSTEM_ACTOR_EMAIL,
    actor_id: actor?.user.id ?? null,
    actor_role: actor ? (actor.user.isAdmin ? "admin" : actor.user.role) : null,
    action: entry.action,
    target_type: entry.target.type,
    target_id: entry.target.id,
    target_label: entry.target.label ?? null,
    before_value: entry.before ? JSON.stringify(entry.before) : null,
    after_value: entry.after ? JSON.stringify(entry.after) : null,
    details: JSON.stringify(entry.details ?? {}),
    ip_address: actor?.clientIp ?? null,
    user_agent: actor?.userAgent ?? null,
    request_id: actor?.requestId ?? null,
    created_at: clock.now().toISOString(),
  });
}
