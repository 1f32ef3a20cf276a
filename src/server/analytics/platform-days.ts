import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";
import { currentFeeRateBasisPoints } from "../settings/settings-catalog.ts";

/**
 * Reads of the per-day platform rollup (daily_platform_totals, kept by the ledger in the same
 * transaction as the orders, vendors and products it sums). A range read is a primary-key
 * search over at most ~90 rows, whatever the size of the platform.
 */

const DAY_MS = 86_400_000;

export interface PlatformDay {
  day: string;
  grossCents: number;
  orders: number;
  feesCents: number;
  newVendors: number;
  newProducts: number;
}

/** "YYYY-MM-DD" n days after (or before, n < 0) a UTC day. */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** The 1st of the UTC calendar month of a day. */
export function monthStart(day: string): string {
  return `${day.slice(0, 8)}01`;
}

/** Every day from `from` to `to` inclusive. */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/** Rollup rows of the days in [from, to], keyed by day; days without a row are absent (= zeros). */
export async function readPlatformDays(db: Kysely<DB>, from: string, to: string): Promise<Map<string, PlatformDay>> {
  const rows = await db
    .selectFrom("daily_platform_totals")
    .select(["day", "gross_cents", "orders", "fees_cents", "new_vendors", "new_products"])
    .where("day", ">=", from)
    .where("day", "<=", to)
    .orderBy("day")
    .execute();
  return new Map(
    rows.map((r) => [
      r.day,
      {
        day: r.day,
        grossCents: Number(r.gross_cents),
        orders: Number(r.orders),
        feesCents: Number(r.fees_cents),
        newVendors: Number(r.new_vendors),
        newProducts: Number(r.new_products),
      },
    ]),
  );
}

/** Sum of one field over the days in [from, to] of an already read range. */
export function sumDays(days: Map<string, PlatformDay>, from: string, to: string, field: Exclude<keyof PlatformDay, "day">): number {
  let total = 0;
  for (const [day, row] of days) if (day >= from && day <= to) total += row[field];
  return total;
}

/** Integer cents to US dollars, as the API speaks dollars where the spec shows dollars. */
export function centsToDollars(cents: number): number {
  return cents / 100;
}

/** The platform_fee_percentage now in force as a number (1.5 = 1.5 %), for the screens' fee texts. */
export async function currentFeePercentage(db: Kysely<DB>): Promise<number> {
  return (await currentFeeRateBasisPoints(db)) / 100;
}
