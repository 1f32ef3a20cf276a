import { ARCHIVE_RETENTION_DAYS, type ArchiveOneResponse, type ErrorLevel, type ErrorListQuery, type ErrorListResponse, type ErrorMessageResponse } from "../../../contract/error-logs.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { recordAudit } from "../../domain/audit/audit-log.ts";
import type { Actor } from "../../platform/identity/actor.ts";
import { invalidField, notFound } from "../../platform/http/http-error.ts";
import { decodeCursor, encodeCursor, encodeKeyset, type NewestFirstPosition, readKeyset } from "../../platform/http/keyset-cursor.ts";
import { archiveAllErrorLogs, archiveErrorLog, archiveErrorLogsById, cleanupArchivedErrorLogs, findErrorLogsById, listErrorLogs, readLevelCounts } from "./error-logs.queries.ts";

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

  /** A page of the log. */
  async list(query: ErrorListQuery): Promise<ErrorListResponse> {
    const oldestFirst = query.sort === "oldest";
    const after = query.cursor ? (oldestFirst ? decodeOldestCursor(query.cursor) : decodeCursor(query.cursor)) : undefined;
    const [page, counts] = await Promise.all([
      listErrorLogs(this.db, { archived: query.archived, level: query.level, limit: query.limit, offset: (query.page - 1) * query.limit, after, oldestFirst }),
      readLevelCounts(this.db, query.archived),
    ]);
    const next = page.next ? (oldestFirst ? encodeKeyset([OLDEST, page.next.createdAt, page.next.id]) : encodeCursor(page.next)) : null;
    return { errors: page.rows, total: counts[query.level ?? "all"], counts, nextCursor: next };
  }

  /**
   * Archives the entries selected on screen (up to MAX_ARCHIVE_IDS) in one transaction: an unknown
   * id refuses the whole request and archives nothing. One audit row names the entries this
   * archived; entries already archived are only counted, and a request that archived none writes no row.
   */
  async archiveSelected(actor: Actor, ids: string[]): Promise<ErrorMessageResponse> {
    const { clock } = this.deps;
    const count = await this.db.transaction().execute(async (trx) => {
      const found = await findErrorLogsById(trx, ids);
      const known = new Set(found.map((e) => e.id));
      const missing = ids.filter((id) => !known.has(id));
      if (missing.length > 0) {
        throw notFound(`No error log with id ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ` and ${missing.length - 5} more` : ""}; nothing was archived`);
      }
      // In the order of the request, whatever order the database answered in.
      const archivedNow = new Set(await archiveErrorLogsById(trx, ids, clock.now()));
      const archived = ids.filter((id) => archivedNow.has(id));
      if (archived.length > 0) {
        await recordAudit(
          trx,
          {
            actor,
            action: "error_logs.archive_selected",
            target: { type: "error_logs", id: `${archived.length} entries`, label: `${formatCount(archived.length)} selected ${archived.length === 1 ? "entry" : "entries"}` },
            details: { ids: archived, archived: archived.length, unchanged: ids.length - archived.length },
          },
          clock,
        );
      }
      return archived.length;
    });
    return { message: `Archived ${plural(count, "error")}`, count };
  }

  /** Archives every active entry (of one level); the audit row, when anything was archived, records how many. */
  async archiveAll(actor: Actor, level: ErrorLevel | null | undefined): Promise<ErrorMessageResponse> {
    const count = await archiveAllErrorLogs(this.db, { level: level ?? undefined, now: this.deps.clock.now() });
    // The bulk work spans many short transactions; the audit row records the finished result.
    if (count > 0) {
      await recordAudit(
        this.db,
        {
          actor,
          action: "error_logs.archive_all",
          target: { type: "error_logs", id: level ?? "all", label: level ? `${level} entries` : "all entries" },
          details: { level: level ?? null, archived: count },
        },
        this.deps.clock,
      );
    }
    return { message: `Archived ${plural(count, level ? `${level} error` : "error")}`, count };
  }

  /** Archives one entry; its audit row only when this archived it (an archived entry is answered as it is). */
  async archiveOne(actor: Actor, id: string): Promise<ArchiveOneResponse> {
    const result =
      id.length <= MAX_ERROR_LOG_ID_LENGTH
        ? await this.db.transaction().execute(async (trx) => {
            const found = await archiveErrorLog(trx, id, this.deps.clock.now());
            if (found?.archived) {
              await recordAudit(trx, { actor, action: "error_logs.archive", target: { type: "error_log", id, label: found.entry.message.slice(0, 120) } }, this.deps.clock);
            }
            return found;
          })
        : null;
    if (!result) throw notFound(`No error log with id ${id.slice(0, MAX_ERROR_LOG_ID_LENGTH)}`);
    return { message: "Error archived", error: result.entry };
  }

  /** Deletes archived entries past their retention; the audit row, when anything was deleted, records how many. */
  async cleanupArchived(actor: Actor): Promise<ErrorMessageResponse> {
    const count = await cleanupArchivedErrorLogs(this.db, this.deps.clock.now());
    if (count > 0) {
      await recordAudit(
        this.db,
        { actor, action: "error_logs.cleanup_archived", target: { type: "error_logs", id: "archived", label: "archived entries" }, details: { deleted: count, retentionDays: ARCHIVE_RETENTION_DAYS } },
        this.deps.clock,
      );
    }
    return { message: `Deleted ${plural(count, "archived error")} older than ${ARCHIVE_RETENTION_DAYS} days`, count };
  }
}

/** Oldest-first cursors carry their order, so one is never read as a newest-first position. */
const OLDEST = "oldest";

function decodeOldestCursor(text: string): NewestFirstPosition {
  const [order, createdAt, id] = readKeyset(text, ["string", "time", "string"]);
  if (order !== OLDEST) throw invalidField("cursor", "belongs to another sort (start again from the first page)");
  return { createdAt, id };
}
