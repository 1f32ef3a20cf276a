import { ARCHIVE_RETENTION_DAYS, type ArchiveOneResponse, type ErrorLevel, type ErrorListQuery, type ErrorListResponse, type ErrorMessageResponse } from "../../../contract/error-logs.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { recordAudit } from "../../domain/audit/audit-log.ts";
import type { Actor } from "../../platform/identity/actor.ts";
import { notFound } from "../../platform/http/http-error.ts";
import { decodeCursor, encodeCursor } from "../../domain/keyset-cursor.ts";
import { archiveAllErrorLogs, archiveErrorLog, cleanupArchivedErrorLogs, listErrorLogs, readLevelCounts } from "./error-logs.queries.ts";

const formatCount = (n: number) => n.toLocaleString("en-US");
const plural = (n: number, word: string) => `${formatCount(n)} ${word}${n === 1 ? "" : "s"}`;

/** Longest id looked up; longer ones cannot exist and are answered 404 without a query. */
const MAX_ERROR_LOG_ID_LENGTH = 100;

/** The error log (docs/product.md §5 Error logs): list, archive, archive all, clean up. */
export class ErrorLogsService {
  constructor(private readonly deps: Pick<AppDeps, "database" | "clock">) {}

  private get db() {
    return this.deps.database.db;
  }

  async list(query: ErrorListQuery): Promise<ErrorListResponse> {
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    const [page, counts] = await Promise.all([
      listErrorLogs(this.db, { archived: query.archived, level: query.level, limit: query.limit, offset: (query.page - 1) * query.limit, after }),
      readLevelCounts(this.db, query.archived),
    ]);
    return { errors: page.rows, total: counts[query.level ?? "all"], counts, nextCursor: page.next ? encodeCursor(page.next) : null };
  }

  async archiveAll(actor: Actor, level: ErrorLevel | null | undefined): Promise<ErrorMessageResponse> {
    const count = await archiveAllErrorLogs(this.db, { level: level ?? undefined, now: this.deps.clock.now() });
    // The bulk work spans many short transactions; the audit row records the finished result.
    await recordAudit(this.db, { actor, action: "error_logs.archive_all", target: { type: "error_logs", id: level ?? "all", label: level ? `${level} entries` : "all entries" }, details: { level: level ?? null, archived: count } }, this.deps.clock);
    return { message: `Archived ${plural(count, level ? `${level} error` : "error")}`, count };
  }

  async archiveOne(actor: Actor, id: string): Promise<ArchiveOneResponse> {
    const entry = id.length <= MAX_ERROR_LOG_ID_LENGTH ? await this.db.transaction().execute(async (trx) => {
      const archived = await archiveErrorLog(trx, id, this.deps.clock.now());
      if (archived) {
        await recordAudit(trx, { actor, action: "error_logs.archive", target: { type: "error_log", id, label: archived.message.slice(0, 120) } }, this.deps.clock);
      }
      return archived;
    }) : null;
    if (!entry) throw notFound(`No error log with id ${id.slice(0, MAX_ERROR_LOG_ID_LENGTH)}`);
    return { message: "Error archived", error: entry };
  }

  async cleanupArchived(actor: Actor): Promise<ErrorMessageResponse> {
    const count = await cleanupArchivedErrorLogs(this.db, this.deps.clock.now());
    await recordAudit(this.db, { actor, action: "error_logs.cleanup_archived", target: { type: "error_logs", id: "archived", label: "archived entries" }, details: { deleted: count, retentionDays: ARCHIVE_RETENTION_DAYS } }, this.deps.clock);
    return { message: `Deleted ${plural(count, "archived error")} older than ${ARCHIVE_RETENTION_DAYS} days`, count };
  }
}
