import type { Clock } from "../../platform/clock.ts";

/**
 * The ledger's own errors and the checks of what it is given. Services let them through: the one
 * `onError` (app.ts) answers not_found 404, invalid_input 400 and invalid_state 409.
 */

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
