import { ARCHIVE_RETENTION_DAYS, ERROR_LEVELS, type ErrorLevel, type ErrorLevelCounts, type ErrorLogEntry } from "../../../contract/error-logs.ts";
import { inChunks } from "../../platform/db/in-chunks.ts";
import type { Executor } from "../../platform/db/executor.ts";
import type { NewestFirstPosition } from "../../platform/http/keyset-cursor.ts";

/**
 * The only place SQL for the Error Logs area lives. Performance notes (docs/product.md §12.3 "Performance
 * it fast", measured at 1M entries):
 * - counts come from error_log_counts (6 rows kept by triggers, migration 003), never count(*);
 * - lists walk error_logs_view_idx (archived, created_at, id) or error_logs_view_level_idx
 *   (archived, level, created_at, id) newest first with a keyset condition, so any depth costs
 *   the same; page numbers (OFFSET) are accepted only for the first MAX_OFFSET_ROWS rows;
 * - archive-all and cleanup change at most CHUNK_ROWS rows per statement (each its own short
 *   transaction, counts included by the triggers) and yield to the event loop between chunks, so
 *   a 300k-row archive never holds SQLite's single writer for more than ~20 ms at a time.
 */

const ENTRY_COLUMNS = ["id", "level", "message", "endpoint", "method", "status_code", "user_email", "ip_address", "user_agent", "stack_trace", "context", "created_at", "archived_at"] as const;

const DAY_MS = 86_400_000;

export interface ListErrorLogsInput {
  archived: boolean;
  level?: ErrorLevel | undefined;
  limit: number;
  /** Rows to skip (page numbers); ignored when `after` is given. */
  offset: number;
  /** Keyset position: rows strictly after this one in the order (older when newest first). */
  after?: NewestFirstPosition | undefined;
  /** Newest first (the default) or oldest first: the same index walked the other way. */
  oldestFirst?: boolean | undefined;
}

/** The list statement (exported so a test can check its query plan). Fetches one extra row: it tells whether a next page exists without counting. */
export function listErrorLogsQuery(db: Executor, input: ListErrorLogsInput) {
  const { after, level } = input;
  const direction = input.oldestFirst ? "asc" : "desc";
  let query = db
    .selectFrom("error_logs")
    .select(ENTRY_COLUMNS)
    .where("archived", "=", input.archived ? 1 : 0)
    .orderBy("created_at", direction)
    .orderBy("id", direction)
    .limit(input.limit + 1);
  if (level) query = query.where("level", "=", level);
  if (after) {
    query = query.where((eb) => eb(eb.refTuple("created_at", "id"), input.oldestFirst ? ">" : "<", eb.tuple(after.createdAt, after.id)));
  } else if (input.offset > 0) {
    query = query.offset(input.offset);
  }
  return query;
}

/** One page in the list's order, plus the position of its last row when more rows follow. */
export async function listErrorLogs(db: Executor, input: ListErrorLogsInput): Promise<{ rows: ErrorLogEntry[]; next: NewestFirstPosition | null }> {
  const found = await listErrorLogsQuery(db, input).execute();
  const rows = found.slice(0, input.limit) as ErrorLogEntry[];
  const last = rows[rows.length - 1];
  const next = found.length > input.limit && last ? { createdAt: last.created_at, id: last.id } : null;
  return { rows, next };
}

/** Entries per level in one view, from the trigger-kept counts (six primary-key rows). */
export async function readLevelCounts(db: Executor, archived: boolean): Promise<ErrorLevelCounts> {
  const rows = await db
    .selectFrom("error_log_counts")
    .select(["level", "entries"])
    .where("archived", "=", archived ? 1 : 0)
    .execute();
  const counts: ErrorLevelCounts = { all: 0, error: 0, warning: 0, info: 0 };
  for (const row of rows) {
    const level = ERROR_LEVELS.find((l) => l === row.level);
    const entries = Number(row.entries);
    if (level) counts[level] = entries;
    counts.all += entries;
  }
  return counts;
}

/**
 * Archives one entry. Idempotent: an entry archived earlier keeps its first archived_at.
 * Returns null when no entry has this id.
 */
export async function archiveErrorLog(db: Executor, id: string, now: Date): Promise<{ entry: ErrorLogEntry; archived: boolean } | null> {
  const updated = await db.updateTable("error_logs").set({ archived: 1, archived_at: now.toISOString() }).where("id", "=", id).where("archived", "=", 0).executeTakeFirst();
  const row = await db.selectFrom("error_logs").select(ENTRY_COLUMNS).where("id", "=", id).executeTakeFirst();
  return row ? { entry: row as ErrorLogEntry, archived: Number(updated.numUpdatedRows) === 1 } : null;
}

/** The entries of `ids` that exist, with whether each is archived (at most MAX_ARCHIVE_IDS primary-key reads). */
export async function findErrorLogsById(db: Executor, ids: string[]): Promise<Array<{ id: string; archived: number; message: string }>> {
  if (ids.length === 0) return [];
  return db.selectFrom("error_logs").select(["id", "archived", "message"]).where("id", "in", ids).execute();
}

/** Archives the active entries among `ids` (archived ones keep their first archived_at). Returns the ids this archived. */
export async function archiveErrorLogsById(db: Executor, ids: string[], now: Date): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.updateTable("error_logs").set({ archived: 1, archived_at: now.toISOString() }).where("id", "in", ids).where("archived", "=", 0).returning("id").execute();
  return rows.map((r) => r.id);
}

/** Archives every active entry (of one level when given), chunk by chunk. Returns how many. */
export async function archiveAllErrorLogs(db: Executor, options: { level?: ErrorLevel | undefined; now: Date }): Promise<number> {
  const archivedAt = options.now.toISOString();
  const { level } = options;
  return (
    await inChunks(async (size) => {
      let batch = db.selectFrom("error_logs").select("id").where("archived", "=", 0).orderBy("created_at", "desc").orderBy("id", "desc").limit(size);
      if (level) batch = batch.where("level", "=", level);
      const result = await db
        .updateTable("error_logs")
        .set({ archived: 1, archived_at: archivedAt })
        .where("id", "in", batch)
        // Another archive running at the same time (PostgreSQL) may have taken some of these rows.
        // Written as `<> 1`, not `= 0`: an equality would tempt SQLite to walk every active row of
        // error_logs_view_idx instead of looking up the 2,000 ids by primary key (10x slower).
        .where("archived", "<>", 1)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    })
  ).total;
}

/** Archived entries older than this instant may be deleted (docs/product.md §5.2: retained 30 days). */
export function cleanupCutoff(now: Date): string {
  return new Date(now.getTime() - ARCHIVE_RETENTION_DAYS * DAY_MS).toISOString();
}

/**
 * Permanently deletes entries archived more than 30 days before `now` (archived exactly 30 days
 * ago is kept), chunk by chunk. Returns how many.
 */
export async function cleanupArchivedErrorLogs(db: Executor, now: Date): Promise<number> {
  const cutoff = cleanupCutoff(now);
  return (
    await inChunks(async (size) => {
      const batch = db
        .selectFrom("error_logs")
        .select("id")
        // Walks error_logs_archived_at_idx (archived_at is set only on archived rows). `archived <> 0`
        // is a guard the planner cannot use as an index: `= 1` would make SQLite scan every
        // archived row through the view index and sort them (200 ms per chunk instead of 15).
        .where("archived_at", "<", cutoff)
        .where("archived", "<>", 0)
        .orderBy("archived_at")
        .limit(size);
      const result = await db.deleteFrom("error_logs").where("id", "in", batch).executeTakeFirst();
      return Number(result.numDeletedRows);
    })
  ).total;
}
