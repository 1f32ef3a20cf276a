import type { Executor } from "../../platform/db/executor.ts";

/**
 * Platform-wide counters, kept by the ledger in the same transaction as the rows they count, so
 * the dashboard reads a handful of primary-key rows instead of count(*) over large tables.
 */
export const COUNTERS = {
  /** Every vendor, active or not, internal or not. */
  vendorsTotal: "vendors_total",
  /** Vendors with is_active = 1. */
  vendorsActive: "vendors_active",
  /** Vendors with is_internal = 1 (the platform's own stores). */
  vendorsInternal: "vendors_internal",
  /** Every product, whatever its status. */
  productsTotal: "products_total",
  /** Products with status 'listed' (the dashboard's "Total Products"). */
  productsListed: "products_listed",
  /** Products with status 'hidden' (taken down by moderation; drafts are the rest). Migration 013. */
  productsHidden: "products_hidden",
  /** Products with status 'pending_review' (waiting in the Review queue). Migration 030. */
  productsPendingReview: "products_pending_review",
  /** Products with status 'rejected' (refused in review). Migration 030. */
  productsRejected: "products_rejected",
  /** Vendors whose application waits for a decision (approval_status 'pending'). Migration 030. */
  vendorsPending: "vendors_pending",
  /** Vendors whose listed products exceed the max_products_per_vendor setting. Migration 013. */
  vendorsOverProductLimit: "vendors_over_product_limit",
  /** Subscriptions with status 'active'. */
  subscriptionsActive: "subscriptions_active",
  /** Sum of monthly_fee_cents of active subscriptions (the dashboard's "Monthly Recurring"). */
  mrrCents: "mrr_cents",
  /** Every order whatever its status. */
  ordersTotal: "orders_total",
  /** Orders with status 'paid' (refunded and cancelled ones do not count as sales). */
  ordersPaid: "orders_paid",
} as const;

export type CounterName = (typeof COUNTERS)[keyof typeof COUNTERS];

export const COUNTER_NAMES: readonly CounterName[] = Object.values(COUNTERS);

/** Adds `delta` (may be negative) to a counter, creating it at `delta` when missing. Works on SQLite and PostgreSQL. */
export async function incrementCounter(db: Executor, name: CounterName, delta: number): Promise<void> {
  if (delta === 0) return;
  await db
    .insertInto("counters")
    .values({ name, value: delta })
    .onConflict((oc) => oc.column("name").doUpdateSet((eb) => ({ value: eb("counters.value", "+", eb.ref("excluded.value")) })))
    .execute();
}

/** Applies several counter deltas (zero deltas skipped) in one statement. */
export async function incrementCounters(db: Executor, deltas: Partial<Record<CounterName, number>>): Promise<void> {
  const rows = (Object.entries(deltas) as [CounterName, number][]).filter(([, delta]) => delta !== 0).map(([name, value]) => ({ name, value }));
  if (rows.length === 0) return;
  await db
    .insertInto("counters")
    .values(rows)
    .onConflict((oc) => oc.column("name").doUpdateSet((eb) => ({ value: eb("counters.value", "+", eb.ref("excluded.value")) })))
    .execute();
}

/** Every known counter (missing ones read as 0). */
export async function readCounters(db: Executor): Promise<Record<CounterName, number>> {
  const rows = await db.selectFrom("counters").select(["name", "value"]).where("name", "in", COUNTER_NAMES).execute();
  const out = Object.fromEntries(COUNTER_NAMES.map((n) => [n, 0])) as Record<CounterName, number>;
  for (const r of rows) out[r.name as CounterName] = Number(r.value);
  return out;
}

/**
 * Version counters (migrations 020, 021): database triggers move them in the same transaction as
 * the changes they stand for, whoever writes. Not among COUNTERS (they count no rows).
 * - the catalogue's: a product added, deleted, renamed or changing status;
 * - the vendor search's: a vendor added or deleted, or its name, owner, e-mail or slug changed.
 */
export const CATALOGUE_VERSION = "catalogue_version";
export const VENDOR_SEARCH_VERSION = "vendor_search_version";

export async function readVersionCounter(db: Executor, name: typeof CATALOGUE_VERSION | typeof VENDOR_SEARCH_VERSION): Promise<number> {
  const row = await db.selectFrom("counters").select("value").where("name", "=", name).executeTakeFirst();
  return Number(row?.value ?? 0);
}

export const readCatalogueVersion = (db: Executor): Promise<number> => readVersionCounter(db, CATALOGUE_VERSION);
