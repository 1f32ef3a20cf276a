import type { Clock } from "../../platform/clock.ts";
import { redactUserAgent, redactValue } from "../../platform/error-recorder/redact.ts";
import { newId } from "../../platform/db/ids.ts";
import type { Actor } from "../../platform/identity/actor.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { insertAuditRow, selectLatestAuditDetails, updateAuditDetails } from "./audit.queries.ts";

export interface AuditEntry {
  /**
   * Who did it and from where (the request's facts); COMMAND_LINE for an operator at the command
   * line (`npm run user:create`); null for work the system does on its own.
   */
  actor: Actor | typeof COMMAND_LINE | null;
  /** Dotted verb, e.g. "vendor.disable", "vendor.delete", "settings.update". */
  action: string;
  target: { type: string; id: string; label?: string | null };
  /** For updates: the values before and after (only what changed: `changedValues`). */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  /**
   * Anything else worth keeping (counts, options). Written through the one redactor
   * (error-recorder/redact.ts): secret-named keys lose their values, text is scrubbed; filters of a
   * list go in already redacted (`redactFilters`: only the plain values kept).
   */
  details?: Record<string, unknown>;
}

/** The actor of work the system does on its own (scheduled jobs). */
const SYSTEM_ACTOR_EMAIL = "system";
/** The actor of changes made at the command line (`npm run user:create`): no account, no request. */
export const COMMAND_LINE = "command line";

/**
 * The before and after of a change as its audit row keeps them: only the keys whose value differs
 * (docs/product.md §14.4). Null when no value differs, so that a row never shows a before and an
 * after that are the same; an action that changed nothing writes no row at all (the caller decides
 * from the rows it actually changed).
 */
export function changedValues(before: Record<string, unknown>, after: Record<string, unknown>): { before: Record<string, unknown>; after: Record<string, unknown> } | null {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((key) => JSON.stringify(before[key] ?? null) !== JSON.stringify(after[key] ?? null));
  if (keys.length === 0) return null;
  return { before: Object.fromEntries(keys.map((key) => [key, before[key] ?? null])), after: Object.fromEntries(keys.map((key) => [key, after[key] ?? null])) };
}

/**
 * Records an admin action in audit_log. Pass the transaction that makes the change, so the record
 * exists exactly when the change does (a rolled-back action leaves no audit row). A request that
 * changed nothing (hiding a hidden product, enabling an enabled vendor) records nothing; a bulk
 * action's row names only the rows it changed, with their values before.
 */
export async function recordAudit(executor: Executor, entry: AuditEntry, clock: Clock): Promise<void> {
  const actor = entry.actor === COMMAND_LINE ? null : entry.actor;
  await insertAuditRow(executor, {
    id: newId(),
    actor_email: entry.actor === COMMAND_LINE ? COMMAND_LINE : (actor?.user.email ?? SYSTEM_ACTOR_EMAIL),
    actor_id: actor?.user.id ?? null,
    actor_role: actor ? (actor.user.isAdmin ? "admin" : actor.user.role) : null,
    action: entry.action,
    target_type: entry.target.type,
    target_id: entry.target.id,
    target_label: entry.target.label ?? null,
    before_value: entry.before ? JSON.stringify(entry.before) : null,
    after_value: entry.after ? JSON.stringify(entry.after) : null,
    details: JSON.stringify(redactValue(entry.details ?? {})),
    ip_address: actor?.clientIp ?? null,
    user_agent: actor?.userAgent ? redactUserAgent(actor.userAgent) : null,
    request_id: actor?.requestId ?? null,
    created_at: clock.now().toISOString(),
  });
}

/**
 * Adds to the details of an action's row what could only be known after its request answered: the
 * one case is an export, whose row (written when the link is made) gets the rows the download
 * sent. The row stays the action's one row; nothing else in it changes.
 */
export async function completeAuditDetails(executor: Executor, row: { action: string; target: { type: string; id: string } }, more: Record<string, unknown>): Promise<boolean> {
  const found = await selectLatestAuditDetails(executor, row.action, row.target.type, row.target.id);
  if (!found) return false;
  const details = { ...(JSON.parse(found.details) as Record<string, unknown>), ...more };
  await updateAuditDetails(executor, found.id, JSON.stringify(redactValue(details)));
  return true;
}
