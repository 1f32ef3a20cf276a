/**
 * Money is integer cents in the database and dollars in the API (docs/product.md §15, the
 * invariants in ARCHITECTURE.md). This is the one conversion between them, for every area.
 */

/** Cents as the API shows them: dollars with two decimals. */
export const centsToDollars = (cents: number | string | bigint): number => Number(cents) / 100;

/** Dollars typed by an operator (or a setting) as whole cents, rounded half away from zero. */
export const dollarsToCents = (dollars: number): number => Math.round(dollars * 100);
