import { type SelectQueryBuilder, sql } from "kysely";
import { COUNTERS } from "../../domain/ledger/counters.ts";
import type { Executor } from "../../platform/db/executor.ts";
import type { DB, PayoutAccountStatus, PayoutStatus } from "../../platform/db/schema.ts";

/**
 * The counts of the dashboard's "needs attention" card (docs/product.md §18.3), each from a
 * counter, a rollup row or a bounded walk of one index (never a scan): a count that could grow
 * without bound stops at `cap` (select 1 … limit cap, then count), so its cost is bounded too.
 */

/** Rows of a subquery, counted up to `cap`: the walk stops there. */
async function countUpTo<TB extends keyof DB>(db: Executor, rows: SelectQueryBuilder<DB, TB, { one: number }>, cap: number): Promise<number> {
  const row = await db
    .selectFrom(rows.limit(cap).as("bounded"))
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Artists owed money whose payout account has `status` (payout_balance_totals, kept by the ledger). */
export async function owedWithAccountStatus(db: Executor, status: PayoutAccountStatus): Promise<{ vendors: number; owedCents: number }> {
  const row = await db.selectFrom("payout_balance_totals").select(["vendors_owed", "owed_cents"]).where("account_status", "=", status).executeTakeFirst();
  return { vendors: Number(row?.vendors_owed ?? 0), owedCents: Number(row?.owed_cents ?? 0) };
}

/** Payouts in `status`, up to `cap` (payouts_status_created_idx). */
export function payoutsInStatus(db: Executor, status: PayoutStatus, cap: number): Promise<number> {
  return countUpTo(
    db,
    db
      .selectFrom("payouts")
      .select(sql<number>`1`.as("one"))
      .where("status", "=", status),
    cap,
  );
}

/** Differences the Stripe reconciliation found that are still open, up to `cap` (stripe_differences_open_idx). */
export function openStripeDifferences(db: Executor, cap: number): Promise<number> {
  return countUpTo(
    db,
    db
      .selectFrom("stripe_reconciliation_differences")
      .select(sql<number>`1`.as("one"))
      .where("open", "=", 1),
    cap,
  );
}

/** Webhook endpoints the sender disabled (410 Gone, or failing for days) and no admin enabled again (a handful of rows). */
export async function webhookEndpointsDisabledBySender(db: Executor): Promise<number> {
  const row = await db
    .selectFrom("webhook_endpoints")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("enabled", "=", 0)
    .where("disabled_reason", "in", ["gone", "failing"])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Failed deliveries of the announcements sent since `since` (announcements_created_idx: the
 * announcements of a period are few; each carries its failed count).
 */
export async function failedAnnouncementDeliveries(db: Executor, since: string): Promise<{ deliveries: number; announcements: number }> {
  const row = await db
    .selectFrom("announcements")
    .select((eb) => [eb.fn.coalesce(eb.fn.sum<number>("failed_count"), eb.lit(0)).as("deliveries"), eb.fn.countAll<number>().as("announcements")])
    .where("created_at", ">=", since)
    .where("failed_count", ">", 0)
    .executeTakeFirst();
  return { deliveries: Number(row?.deliveries ?? 0), announcements: Number(row?.announcements ?? 0) };
}

/** The newest announcement sent since `since` with failed deliveries (announcements_created_idx walked back; the period's announcements are few). */
export async function latestAnnouncementWithFailures(db: Executor, since: string): Promise<string | null> {
  const row = await db
    .selectFrom("announcements")
    .select("id")
    .where("created_at", ">=", since)
    .where("failed_count", ">", 0)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Error-log entries of level 'error' written in the UTC hours [fromHour, toHour] (error_log_hours, kept by a trigger). */
export async function errorsInHours(db: Executor, fromHour: string, toHour: string): Promise<number> {
  const row = await db
    .selectFrom("error_log_hours")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("entries"), eb.lit(0)).as("n"))
    .where("level", "=", "error")
    .where("hour", ">=", fromHour)
    .where("hour", "<=", toHour)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Vendors with more listed products than the max_products_per_vendor setting (the ledger's counter). */
export async function vendorsOverProductLimit(db: Executor): Promise<number> {
  const row = await db.selectFrom("counters").select("value").where("name", "=", COUNTERS.vendorsOverProductLimit).executeTakeFirst();
  return Number(row?.value ?? 0);
}

/** Open invitations (neither accepted nor revoked) expiring in (now, until], up to `cap` (user_invitations_open_expiry_idx). */
export function invitationsExpiring(db: Executor, now: string, until: string, cap: number): Promise<number> {
  return countUpTo(
    db,
    db
      .selectFrom("user_invitations")
      .select(sql<number>`1`.as("one"))
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .where("expires_at", ">", now)
      .where("expires_at", "<=", until),
    cap,
  );
}

/**
 * Active artists whose owner's account the sign-in provider deleted (Clerk's user.deleted,
 * deleted_provider_accounts: a handful of rows, each joined to its vendors by vendors_owner_user_idx),
 * up to `cap`, and the artist whose account was deleted last.
 */
export async function activeVendorsWithDeletedOwner(db: Executor, cap: number): Promise<{ count: number; latestVendorId: string | null }> {
  const rows = () => db.selectFrom("deleted_provider_accounts").innerJoin("vendors", "vendors.owner_user_id", "deleted_provider_accounts.user_id").where("vendors.is_active", "=", 1);
  const count = await countUpTo(db, rows().select(sql<number>`1`.as("one")), cap);
  if (count === 0) return { count, latestVendorId: null };
  const latest = await rows().select("vendors.id").orderBy("deleted_provider_accounts.deleted_at", "desc").orderBy("vendors.id", "desc").limit(1).executeTakeFirst();
  return { count, latestVendorId: latest?.id ?? null };
}

/** Open disputes, up to `cap`, and the first of them by evidence due date with one of its order lines (disputes_outcome_due_idx). */
export async function openDisputes(db: Executor, cap: number): Promise<{ count: number; first: { id: string; dueBy: string | null; orderId: string | null } | null }> {
  const count = await countUpTo(
    db,
    db
      .selectFrom("disputes")
      .select(sql<number>`1`.as("one"))
      .where("outcome", "=", "open"),
    cap,
  );
  if (count === 0) return { count, first: null };
  // A date before no date: a dispute whose evidence date Stripe has not set comes after the dated ones.
  const dated = await db
    .selectFrom("disputes")
    .select(["id", "evidence_due_by"])
    .where("outcome", "=", "open")
    .where("evidence_due_by", "is not", null)
    .orderBy("evidence_due_by")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  const first = dated ?? (await db.selectFrom("disputes").select(["id", "evidence_due_by"]).where("outcome", "=", "open").orderBy("id").limit(1).executeTakeFirst());
  if (!first) return { count, first: null };
  const line = await db.selectFrom("dispute_lines").select("order_id").where("dispute_id", "=", first.id).orderBy("order_id").limit(1).executeTakeFirst();
  return { count, first: { id: first.id, dueBy: first.evidence_due_by, orderId: line?.order_id ?? null } };
}

/**
 * A review queue's size and its oldest entry (docs/product.md §20): the count from its counter, the
 * oldest the first entry of the queue's index — applications by (approval_status, applied_at, id),
 * listings under review by (status, created_at, id).
 */
export async function applicationsWaiting(db: Executor): Promise<{ count: number; oldest: string | null }> {
  const [counter, oldest] = await Promise.all([
    db.selectFrom("counters").select("value").where("name", "=", COUNTERS.vendorsPending).executeTakeFirst(),
    db.selectFrom("vendors").select("applied_at").where("approval_status", "=", "pending").orderBy("applied_at").orderBy("id").limit(1).executeTakeFirst(),
  ]);
  return { count: Number(counter?.value ?? 0), oldest: oldest?.applied_at ?? null };
}

/** Listings waiting for review: the counter, and the oldest the first entry of the (status, created_at, id) index. */
export async function listingsWaitingReview(db: Executor): Promise<{ count: number; oldest: string | null }> {
  const [counter, oldest] = await Promise.all([
    db.selectFrom("counters").select("value").where("name", "=", COUNTERS.productsPendingReview).executeTakeFirst(),
    db.selectFrom("products").select("created_at").where("status", "=", "pending_review").orderBy("created_at").orderBy("id").limit(1).executeTakeFirst(),
  ]);
  return { count: Number(counter?.value ?? 0), oldest: oldest?.created_at ?? null };
}
