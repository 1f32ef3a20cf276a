import { createHash } from "node:crypto";
import type { Clock } from "../clock.ts";
import { newId } from "../db/ids.ts";
import type { RateLimiter } from "../http/rate-limiter.ts";
import type { Executor } from "../ledger/executor.ts";
import { insertErrorLog } from "./error-logs-insert.queries.ts";
import { redactText, redactUrlPath, redactValue } from "./redact.ts";

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
}

/**
 * Caps that keep a crash loop from flooding the table: the same failure (fingerprint) at most
 * 10 times a minute, everything together at most 300 a minute. Counted in the database so the
 * caps hold across replicas.
 */
const PER_FINGERPRINT = { limit: 10, windowMs: 60_000 };
const OVERALL = { limit: 300, windowMs: 60_000 };

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
      const endpoint = report.endpoint ? redactUrlPath(report.endpoint).slice(0, 500) : null;
      const message = redactText(report.message || "Unknown error").slice(0, 2000);
      const fingerprint = createHash("sha1")
        .update(`${report.level}|${report.method ?? ""}|${(endpoint ?? "").split("?")[0]}|${report.statusCode ?? ""}|${message}`)
        .digest("hex");
      const [perFingerprint, overall] = [
        await this.limiter.hit(`errorlog:${fingerprint}`, PER_FINGERPRINT),
        await this.limiter.hit("errorlog:all", OVERALL),
      ];
      if (!perFingerprint.allowed || !overall.allowed) {
        this.dropped += 1;
        if (this.dropped % 100 === 1) console.warn(`[error-log] rate cap reached; ${this.dropped} entries dropped so far`);
        return false;
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
        user_agent: report.userAgent ? report.userAgent.slice(0, 500) : null,
        stack_trace: report.stackTrace ? redactText(report.stackTrace).slice(0, 8000) : null,
        context: report.context ? JSON.stringify(redactValue(report.context)) : null,
        fingerprint,
        created_at: this.clock.now().toISOString(),
        archived_at: null,
        archived: 0,
      });
      return true;
    } catch (err) {
      console.error(`[error-log] could not record an error: ${err instanceof Error ? err.message : String(err)}`);
      return false;
    }
  }
}
