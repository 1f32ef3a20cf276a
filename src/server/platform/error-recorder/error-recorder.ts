import { createHash } from "node:crypto";
import type { Clock } from "../clock.ts";
import { newId } from "../db/ids.ts";
import type { RateLimiter } from "../http/rate-limiter.ts";
import type { Executor } from "../db/executor.ts";
import { errorLogDrops } from "../metrics/metrics.ts";
import { logEvent, processLog } from "../logging/logger.ts";
import { addErrorLogDrop, insertErrorLog, sumErrorLogDrops } from "./error-logs-insert.queries.ts";
import { redactContext, redactRequestTarget, redactText, redactUserAgent } from "./redact.ts";

/**
 * Level rule for the platform's error stream (what the Error Logs screen monitors):
 * - "error":   unhandled exceptions and every 5xx answer;
 * - "warning": rejected admin access (403) and rate-limit hits (429);
 * - "info":    the debug test endpoint and notable admin events, written on purpose.
 */
export type ErrorLevel = "error" | "warning" | "info";

export function levelForStatus(status: number): ErrorLevel | null {
  if (status >= 500) return "error";
  if (status === 403 || status === 429) return "warning";
  return null;
}

export interface ErrorReport {
  level: ErrorLevel;
  message: string;
  endpoint?: string | null;
  method?: string | null;
  statusCode?: number | null;
  userEmail?: string | null;
  ipAddress?: string | null;
  userAgent?: string | null;
  stackTrace?: string | null;
  context?: Record<string, unknown> | null;
  /** The request behind the entry (X-Request-Id). */
  requestId?: string | null;
  /**
   * Who caused it, for the per-source budget: "user:<id>" when signed in, else "ip:<address key>".
   * Entries without one (written by the server itself) share the "server" source.
   */
  source?: string | null;
}

type Budget = { limit: number; windowMs: number };

/**
 * Budgets, per minute, counted in the database so they hold across processes (docs/product.md §5.3).
 * An entry is written only when every budget it draws on has room, checked from the most specific
 * (its source) to the most shared (its kind); a refused entry stops there and spends none of the
 * shared budgets, so one source's flood cannot use up what others need. Kinds are separate: a
 * flood of 403s (kind "warning:403") never takes the room of a 5xx ("error") or of a test entry
 * ("info").
 */
export const ERROR_LOG_BUDGETS = {
  /** One source, one kind. */
  perSource: { limit: 20, windowMs: 60_000 },
  /** The same failure (level, method, path, status, message) from anyone. */
  perFingerprint: { limit: 10, windowMs: 60_000 },
  /** Everyone, per kind. */
  perKind: {
    error: { limit: 300, windowMs: 60_000 },
    warning: { limit: 150, windowMs: 60_000 },
    info: { limit: 100, windowMs: 60_000 },
  } satisfies Record<ErrorLevel, Budget>,
} as const;

/** 403 and 429 are different kinds of warning: rate-limit noise cannot crowd out refused access. */
export function errorKind(report: Pick<ErrorReport, "level" | "statusCode">): string {
  return report.level === "warning" ? `warning:${report.statusCode ?? "none"}` : report.level;
}

/**
 * Writes the rows of error_logs for every failing request and the server's own failures, within
 * budgets. The error-logs area (src/server/features/error-logs/, the Error Logs screen at /errors)
 * reads and archives those rows; the recorder is another thing with its own name: a platform part
 * every request passes through, below all areas.
 */
export class ErrorRecorder {
  private dropped = 0;

  constructor(
    private readonly db: Executor,
    private readonly clock: Clock,
    private readonly limiter: RateLimiter,
  ) {}

  /** Writes one entry. Never throws: logging must not break the request that failed. */
  async record(report: ErrorReport): Promise<boolean> {
    try {
      // Everything written goes through the one redactor (redact.ts): the path keeps only the values
      // its endpoint declares plain, the user agent and context are scrubbed.
      const method = report.method ?? "GET";
      const endpoint = report.endpoint ? redactRequestTarget(method, report.endpoint).slice(0, 500) : null;
      const message = redactText(report.message || "Unknown error").slice(0, 2000);
      const fingerprint = createHash("sha1")
        .update(`${report.level}|${report.method ?? ""}|${(endpoint ?? "").split("?")[0]}|${report.statusCode ?? ""}|${message}`)
        .digest("hex");
      const kind = errorKind(report);
      const source = (report.source ?? "server").slice(0, 200);
      const budgets: Array<[string, Budget]> = [
        [`errorlog-source:${kind}|${source}`, ERROR_LOG_BUDGETS.perSource],
        [`errorlog-fp:${fingerprint}`, ERROR_LOG_BUDGETS.perFingerprint],
        [`errorlog-kind:${kind}`, ERROR_LOG_BUDGETS.perKind[report.level]],
      ];
      for (const [bucket, budget] of budgets) {
        if (!(await this.limiter.hit(bucket, budget)).allowed) {
          await this.countDrop(report.level);
          return false;
        }
      }
      await insertErrorLog(this.db, {
        id: newId(),
        level: report.level,
        message,
        endpoint,
        method: report.method ?? null,
        status_code: report.statusCode ?? null,
        user_email: report.userEmail ?? null,
        ip_address: report.ipAddress ?? null,
        user_agent: report.userAgent ? redactUserAgent(report.userAgent) : null,
        stack_trace: report.stackTrace ? redactText(report.stackTrace).slice(0, 8000) : null,
        context: report.context ? JSON.stringify(redactContext(method, report.endpoint ?? "", report.context)) : null,
        fingerprint,
        created_at: this.clock.now().toISOString(),
        archived_at: null,
        archived: 0,
        request_id: report.requestId ? report.requestId.slice(0, 64) : null,
      });
      return true;
    } catch (err) {
      logEvent(processLog(), "error", "could not record an error-log entry", { err });
      return false;
    }
  }

  /** Dropped entries per level over the last `hours` hours (the health page shows the last day). */
  async droppedSince(hours = 24): Promise<Record<ErrorLevel, number>> {
    const since = hourKey(new Date(this.clock.now().getTime() - (hours - 1) * 3_600_000));
    const out: Record<ErrorLevel, number> = { error: 0, warning: 0, info: 0 };
    for (const row of await sumErrorLogDrops(this.db, since)) out[row.level] = row.count;
    return out;
  }

  private async countDrop(level: ErrorLevel): Promise<void> {
    this.dropped += 1;
    errorLogDrops.inc({ level });
    if (this.dropped % 100 === 1) logEvent(processLog(), "warn", "an error-log budget was spent; entries dropped", { level, droppedByThisProcess: this.dropped });
    await addErrorLogDrop(this.db, hourKey(this.clock.now()), level);
  }
}

/** "2026-11-22T12": the UTC hour a drop is counted under. */
export function hourKey(date: Date): string {
  return date.toISOString().slice(0, 13);
}
