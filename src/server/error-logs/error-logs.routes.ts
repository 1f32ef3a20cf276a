import { Hono } from "hono";
import {
  ARCHIVE_RETENTION_DAYS,
  archiveAllRequestSchema,
  errorListQuerySchema,
  type ArchiveOneResponse,
  type ErrorListResponse,
  type ErrorMessageResponse,
} from "../../contract/error-logs.ts";
import type { AppDeps, AppEnv } from "../app-env.ts";
import { notFound } from "../http/http-error.ts";
import { readJsonBody, readQuery } from "../http/validate.ts";
import { decodeCursor, encodeCursor } from "./error-log-cursor.ts";
import { archiveAllErrorLogs, archiveErrorLog, cleanupArchivedErrorLogs, listErrorLogs, readLevelCounts } from "./error-logs.queries.ts";
import { recordAudit } from "../audit/audit-log.ts";

const formatCount = (n: number) => n.toLocaleString("en-US");
const plural = (n: number, word: string) => `${formatCount(n)} ${word}${n === 1 ? "" : "s"}`;

/** Spec §7 errors calls. The admin guard is applied by prefix in app.ts. */
export function errorLogsRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { db } = deps.database;

  app.get("/admin/errors", async (c) => {
    const query = readQuery(c, errorListQuerySchema);
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    const [page, counts] = await Promise.all([
      listErrorLogs(db, {
        archived: query.archived,
        level: query.level,
        limit: query.limit,
        offset: (query.page - 1) * query.limit,
        after,
      }),
      readLevelCounts(db, query.archived),
    ]);
    const body: ErrorListResponse = {
      errors: page.rows,
      total: counts[query.level ?? "all"],
      counts,
      nextCursor: page.next ? encodeCursor(page.next) : null,
    };
    return c.json(body);
  });

  app.post("/admin/errors/archive-all", async (c) => {
    const { level } = await readJsonBody(c, archiveAllRequestSchema);
    const count = await archiveAllErrorLogs(db, { level: level ?? undefined, now: deps.clock.now() });
    // The bulk work spans many short transactions; the audit row records the finished result.
    await recordAudit(db, { actorEmail: c.get("user")!.email, action: "error_logs.archive_all", targetType: "error_logs", targetId: level ?? "all", details: { level: level ?? null, archived: count } }, deps.clock);
    const body: ErrorMessageResponse = { message: `Archived ${plural(count, level ? `${level} error` : "error")}`, count };
    return c.json(body);
  });

  app.post("/admin/errors/:id/archive", async (c) => {
    const id = c.req.param("id");
    const entry = id.length <= 100 ? await archiveErrorLog(db, id, deps.clock.now()) : null;
    if (!entry) throw notFound(`No error log with id ${id.slice(0, 100)}`);
    const body: ArchiveOneResponse = { message: "Error archived", error: entry };
    return c.json(body);
  });

  app.delete("/admin/errors/cleanup-archived", async (c) => {
    const count = await cleanupArchivedErrorLogs(db, deps.clock.now());
    await recordAudit(db, { actorEmail: c.get("user")!.email, action: "error_logs.cleanup_archived", targetType: "error_logs", targetId: "archived", details: { deleted: count, retentionDays: ARCHIVE_RETENTION_DAYS } }, deps.clock);
    const body: ErrorMessageResponse = {
      message: `Deleted ${plural(count, "archived error")} older than ${ARCHIVE_RETENTION_DAYS} days`,
      count,
    };
    return c.json(body);
  });

  return app;
}
