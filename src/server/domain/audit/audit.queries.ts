import type { Insertable, Selectable } from "kysely";
import type { AuditLogTable } from "../../platform/db/schema.ts";
import type { Executor } from "../../platform/db/executor.ts";

/**
 * The only place SQL for the audit log lives. Every read walks one index newest first with a
 * keyset condition, so a page costs the same at any depth and no filter scans the table
 * (docs/product.md §12.3), at a million rows and more:
 * - no filter: audit_log_created_idx (created_at, id);
 * - actor: audit_log_actor_idx (actor_email, created_at, id);
 * - action: audit_log_action_idx (action, created_at, id);
 * - target type and id: audit_log_target_time_idx (target_type, target_id, created_at, id);
 * - target type alone: audit_log_target_type_idx (target_type, created_at, id).
 * A time range narrows the same walk. Combined filters walk the index of one of them and check the
 * others on the rows they meet.
 */

/** Inserts one audit_log row, on the caller's executor (normally the transaction making the change). */
export async function insertAuditRow(executor: Executor, row: Insertable<AuditLogTable>): Promise<void> {
  await executor.insertInto("audit_log").values(row).execute();
}

export type AuditRow = Selectable<AuditLogTable>;

/** Keyset position in the newest-first order (created_at desc, id desc): the last row a page showed. */
export interface AuditCursor {
  createdAt: string;
  id: string;
}

export interface AuditRowFilters {
  actorEmail?: string | undefined;
  action?: string | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
  /** Inclusive lower bound (ISO time). */
  from?: string | undefined;
  /** Exclusive upper bound (ISO time). */
  to?: string | undefined;
}

/** The list statement (exported so a test can check its query plan). */
export function listAuditRowsQuery(db: Executor, filters: AuditRowFilters, after: AuditCursor | undefined, limit: number) {
  let query = db.selectFrom("audit_log").selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(limit);
  if (filters.actorEmail !== undefined) query = query.where("actor_email", "=", filters.actorEmail);
  if (filters.action !== undefined) query = query.where("action", "=", filters.action);
  if (filters.targetType !== undefined) query = query.where("target_type", "=", filters.targetType);
  if (filters.targetId !== undefined) query = query.where("target_id", "=", filters.targetId);
  if (filters.from !== undefined) query = query.where("created_at", ">=", filters.from);
  if (filters.to !== undefined) query = query.where("created_at", "<", filters.to);
  if (after) query = query.where((eb) => eb(eb.refTuple("created_at", "id"), "<", eb.tuple(after.createdAt, after.id)));
  return query;
}

/** Up to `limit` rows newest first after `after`, and the position of the last one when more follow. */
export async function listAuditRows(db: Executor, filters: AuditRowFilters, after: AuditCursor | undefined, limit: number): Promise<{ rows: AuditRow[]; next: AuditCursor | null }> {
  const found = await listAuditRowsQuery(db, filters, after, limit + 1).execute();
  const rows = found.slice(0, limit);
  const last = rows[rows.length - 1];
  return { rows, next: found.length > limit && last ? { createdAt: last.created_at, id: last.id } : null };
}

/** Ids of up to `limit` rows written before `cutoff`, oldest first (the retention sweep's next chunk). */
export async function selectAuditIdsBefore(db: Executor, cutoff: string, limit: number): Promise<string[]> {
  const rows = await db.selectFrom("audit_log").select("id").where("created_at", "<", cutoff).orderBy("created_at").orderBy("id").limit(limit).execute();
  return rows.map((r) => r.id);
}

export async function deleteAuditRows(db: Executor, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db.deleteFrom("audit_log").where("id", "in", ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The details of the newest row of `action` on a target (read through the target index). */
export async function selectLatestAuditDetails(db: Executor, action: string, targetType: string, targetId: string): Promise<{ id: string; details: string } | undefined> {
  return db
    .selectFrom("audit_log")
    .select(["id", "details"])
    .where("target_type", "=", targetType)
    .where("target_id", "=", targetId)
    .where("action", "=", action)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
}

export async function updateAuditDetails(db: Executor, id: string, details: string): Promise<void> {
  await db.updateTable("audit_log").set({ details }).where("id", "=", id).execute();
}
