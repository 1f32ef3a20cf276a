import SQLite from "better-sqlite3";
import { ARCHIVE_RETENTION_DAYS, ERROR_LEVELS } from "../../src/contract/error-logs.ts";

/** Ids of the rows `insertOldArchivedLogs` writes, so the end-state check can find them. */
export const OLD_ARCHIVED_PREFIX = "load-old-archived-";
const DAY_MS = 86_400_000;

/**
 * Writes `count` error_logs archived long enough ago for the 30-day cleanup, straight into the
 * server's SQLite file (the server must be stopped). The counts table follows through its triggers.
 */
export function insertOldArchivedLogs(dbPath: string, count: number, now = Date.now()): void {
  const raw = new SQLite(dbPath);
  try {
    const insert = raw.prepare(
      `insert into error_logs (id, level, message, endpoint, method, status_code, ip_address, user_agent, stack_trace, context, fingerprint, created_at, archived_at, archived)
       values (?, ?, ?, '/api/admin/vendors', 'GET', 500, '203.0.113.7', 'load-test', ?, '{}', ?, ?, ?, 1)`,
    );
    raw.transaction(() => {
      for (let i = 0; i < count; i++) {
        const created = now - (ARCHIVE_RETENTION_DAYS + 10) * DAY_MS - i * 1000;
        const level = ERROR_LEVELS[i % ERROR_LEVELS.length]!;
        insert.run(
          `${OLD_ARCHIVED_PREFIX}${String(i).padStart(7, "0")}`,
          level,
          `load test entry ${i}`,
          i % 3 === 0 ? `Error: load test ${i}\n    at handler (src/server/x.ts:1:1)` : null,
          `load-${i % 50}`,
          new Date(created).toISOString(),
          new Date(created + 3_600_000).toISOString(),
        );
      }
    })();
  } finally {
    raw.close();
  }
}

export interface ErrorLogEndState {
  oldArchivedLeft: number;
  expiredLeft: number;
  total: number;
  /** (archived, level) pairs where error_log_counts differs from count(*) over error_logs. */
  countMismatches: string[];
}

export function errorLogEndState(dbPath: string, now = Date.now()): ErrorLogEndState {
  const raw = new SQLite(dbPath, { readonly: true });
  try {
    const one = (sql: string, ...params: unknown[]) => Number((raw.prepare(sql).get(...params) as { n: number }).n);
    const cutoff = new Date(now - ARCHIVE_RETENTION_DAYS * DAY_MS).toISOString();
    const actual = raw.prepare("select archived, level, count(*) as n from error_logs group by archived, level").all() as Array<{ archived: number; level: string; n: number }>;
    const counted = raw.prepare("select archived, level, entries as n from error_log_counts").all() as Array<{ archived: number; level: string; n: number }>;
    const key = (r: { archived: number; level: string }) => `${r.archived}/${r.level}`;
    const a = new Map(actual.map((r) => [key(r), Number(r.n)]));
    const c = new Map(counted.map((r) => [key(r), Number(r.n)]));
    const countMismatches = [...new Set([...a.keys(), ...c.keys()])].filter((k) => (a.get(k) ?? 0) !== (c.get(k) ?? 0)).map((k) => `${k}: counted ${c.get(k) ?? 0}, actual ${a.get(k) ?? 0}`);
    return {
      oldArchivedLeft: one("select count(*) as n from error_logs where id like ?", `${OLD_ARCHIVED_PREFIX}%`),
      expiredLeft: one("select count(*) as n from error_logs where archived <> 0 and archived_at < ?", cutoff),
      total: one("select count(*) as n from error_logs"),
      countMismatches,
    };
  } finally {
    raw.close();
  }
}
