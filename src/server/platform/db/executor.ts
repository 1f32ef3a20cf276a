import type { Kysely, Transaction } from "kysely";
import type { Clock } from "../clock.ts";
import type { DB } from "./schema.ts";

/** A database handle or an open transaction: ledger functions accept either. */
export type Executor = Kysely<DB> | Transaction<DB>;

/**
 * Runs `fn` inside a transaction: the caller's one when it already holds a transaction (so a
 * route can group several ledger calls atomically), otherwise a new one. Rows and the rollups
 * that summarise them are always written together, never one without the other.
 */
export async function inTransaction<T>(db: Executor, fn: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db as Transaction<DB>);
  return db.transaction().execute(fn);
}

/** ISO-8601 UTC text of an instant given as a Date or any parseable string. */
export function isoTime(t: Date | string): string {
  const d = typeof t === "string" ? new Date(t) : t;
  if (Number.isNaN(d.getTime())) throw new LedgerError("invalid_input", `Invalid time: ${String(t)}`);
  return d.toISOString();
}

/** isoTime of a time given to the ledger, or the clock's now when none was given (seeds pass their own times). */
export function isoTimeOrNow(t: Date | string | undefined, clock: Clock): string {
  return t === undefined ? clock.now().toISOString() : isoTime(t);
}

/** Throws invalid_input unless `value` is a whole number of at least 0 (cents, counts); `what` names it in the message. */
export function requireNonNegativeInteger(value: number, what: string): void {
  if (!Number.isInteger(value) || value < 0) throw new LedgerError("invalid_input", `${what} must be a non-negative integer`);
}

/** The UTC "YYYY-MM-DD" day of an ISO time written by isoTime. */
export function dayOf(iso: string): string {
  return iso.slice(0, 10);
}

export type LedgerErrorCode = "not_found" | "invalid_input" | "invalid_state";

/** Thrown for bad calls (unknown ids, impossible transitions); routes map the code to 404/400/409. */
export class LedgerError extends Error {
  constructor(
    readonly code: LedgerErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "LedgerError";
  }
}

/** Largest number of rows a single bulk statement touches (docs/product.md §12.3: short write locks). */
export const CHUNK_ROWS = 2000;
