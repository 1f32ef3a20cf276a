import { isDatabaseClientError } from "../db/client-errors.ts";

/**
 * Database failures that are temporary for the client: a lock held too long (SQLite busy), a
 * dropped or refused PostgreSQL connection, a full disk. They answer 503/507 with Retry-After
 * instead of a bare 500, and the process keeps running.
 *
 * Only errors of the database clients count (db/client-errors.ts): the network codes below also
 * describe a client resetting its own request mid-body (http/client-abort.ts) or a provider being
 * unreachable, and neither is a database outage.
 */
const PG_UNAVAILABLE_CODES = new Set(["57P01", "57P02", "57P03", "08000", "08001", "08003", "08004", "08006", "53300"]);
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "ENOTFOUND"]);

export type DatabaseFailureKind = "busy" | "unavailable" | "disk_full";

export function classifyDatabaseFailure(err: unknown): DatabaseFailureKind | null {
  if (!isDatabaseClientError(err)) return null;
  const code = String((err as { code?: unknown }).code ?? "");
  const message = err instanceof Error ? err.message : "";
  if (code === "SQLITE_BUSY" || code === "SQLITE_LOCKED" || code.startsWith("SQLITE_BUSY_") || code.startsWith("SQLITE_LOCKED_")) return "busy";
  if (code === "SQLITE_FULL" || code === "53100" || code === "ENOSPC") return "disk_full";
  if (code === "SQLITE_IOERR" || code.startsWith("SQLITE_IOERR_") || code === "SQLITE_CANTOPEN") return "unavailable";
  if (PG_UNAVAILABLE_CODES.has(code) || NETWORK_CODES.has(code)) return "unavailable";
  if (/Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(message)) return "unavailable";
  return null;
}
