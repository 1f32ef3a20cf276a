import type { Selectable } from "kysely";
import type { Executor } from "../../platform/db/executor.ts";
import type { IncomingEventSource, IncomingEventStatus, IncomingEventsTable } from "../../platform/db/schema.ts";

/** SQL of the providers' webhooks coming in and of the incoming-events log (migration 025). */

export type IncomingEventRow = Selectable<IncomingEventsTable>;

// --- Receiving and processing ---

/** Stores a verified event unless its id came before; true when stored now (incoming_events_event_idx). */
export async function insertIncomingEvent(db: Executor, row: IncomingEventRow): Promise<boolean> {
  const result = await db
    .insertInto("incoming_events")
    .values(row)
    .onConflict((oc) => oc.columns(["source", "event_id"]).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function findIncomingEvent(db: Executor, id: string): Promise<IncomingEventRow | undefined> {
  return db.selectFrom("incoming_events").selectAll().where("id", "=", id).executeTakeFirst();
}

/**
 * Takes a pending event for processing in the caller's transaction: counts the attempt and, on
 * PostgreSQL, holds the row until the transaction ends, so no second run can process it meanwhile.
 * Undefined when it is not pending (processed already).
 */
export async function claimPendingEvent(db: Executor, id: string): Promise<IncomingEventRow | undefined> {
  return db
    .updateTable("incoming_events")
    .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
    .where("id", "=", id)
    .where("status", "=", "pending")
    .returningAll()
    .executeTakeFirst();
}

export async function finishEvent(db: Executor, id: string, status: Exclude<IncomingEventStatus, "pending">, outcome: string, at: string): Promise<void> {
  await db.updateTable("incoming_events").set({ status, outcome, processed_at: at }).where("id", "=", id).execute();
}

/** A failed attempt of a pending event: counted, with its error; `final` makes the event `failed` (retried only by an operator). */
export async function noteFailedAttempt(db: Executor, id: string, error: string, final: boolean, at: string): Promise<void> {
  await db
    .updateTable("incoming_events")
    .set((eb) => ({ attempts: eb("attempts", "+", 1), outcome: error, ...(final ? { status: "failed" as const, processed_at: at } : {}) }))
    .where("id", "=", id)
    .where("status", "=", "pending")
    .execute();
}

/** failed → pending again (an operator's retry); false when it is not failed (any more). */
export async function reopenFailedEvent(db: Executor, id: string): Promise<boolean> {
  const result = await db.updateTable("incoming_events").set({ status: "pending", processed_at: null }).where("id", "=", id).where("status", "=", "failed").executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Records `versionAt` as the newest state applied to `objectKey` unless a newer one is recorded:
 * one statement, so the check and the row's lock are one (two replicas applying two events of the
 * same object one after the other). True when this state is the newest (equal counts: the later
 * delivery wins a tie); false when a newer one was applied before.
 */
export async function advanceVersion(db: Executor, objectKey: string, versionAt: string): Promise<boolean> {
  const row = await db
    .insertInto("incoming_versions")
    .values({ object_key: objectKey, version_at: versionAt })
    .onConflict((oc) => oc.column("object_key").doUpdateSet({ version_at: versionAt }).where("incoming_versions.version_at", "<=", versionAt))
    .returning("object_key")
    .executeTakeFirst();
  return row !== undefined;
}

// --- The panel's rows an event names ---

/** Vendors paid to this Stripe account (payout_accounts_stripe_idx), with their names. */
export async function findVendorsByStripeAccount(db: Executor, stripeAccountId: string): Promise<Array<{ vendor_id: string; name: string; checked_at: string | null }>> {
  return db
    .selectFrom("payout_accounts")
    .innerJoin("vendors", "vendors.id", "payout_accounts.vendor_id")
    .select(["payout_accounts.vendor_id", "vendors.name", "payout_accounts.checked_at"])
    .where("payout_accounts.stripe_account_id", "=", stripeAccountId)
    .orderBy("payout_accounts.vendor_id")
    .execute();
}

/**
 * Locks a vendor's payout account when the state it holds is no newer than `asOf` (its
 * `checked_at`: when Stripe's state was read by the refresh, or made by the event applied last);
 * false when a newer state is stored.
 */
export async function lockAccountNoNewerThan(db: Executor, vendorId: string, asOf: string): Promise<boolean> {
  const row = await db
    .updateTable("payout_accounts")
    .set((eb) => ({ status: eb.ref("status") }))
    .where("vendor_id", "=", vendorId)
    .where((eb) => eb.or([eb("checked_at", "is", null), eb("checked_at", "<=", asOf)]))
    .returning("vendor_id")
    .executeTakeFirst();
  return row !== undefined;
}

/** The paid payout Stripe's transfer belongs to (payouts_transfer_idx), with its vendor's name. */
export async function findPayoutByTransfer(db: Executor, transferId: string): Promise<{ id: string; vendor_id: string; vendor_name: string; amount_cents: number } | undefined> {
  const row = await db.selectFrom("payouts").select(["id", "vendor_id", "vendor_name", "amount_cents"]).where("stripe_transfer_id", "=", transferId).executeTakeFirst();
  return row ? { ...row, amount_cents: Number(row.amount_cents) } : undefined;
}

/** A payout's status, by id (a transfer's `metadata.payout_id`). */
export async function findPayoutStatus(db: Executor, payoutId: string): Promise<string | undefined> {
  const row = await db.selectFrom("payouts").select("status").where("id", "=", payoutId).executeTakeFirst();
  return row?.status;
}

/** The staff or user account with this id (under Clerk, a user's id is Clerk's). */
export async function findUserAccount(db: Executor, userId: string) {
  return db.selectFrom("users").select(["id", "email", "role"]).where("id", "=", userId).executeTakeFirst();
}

export async function findUserIdByEmail(db: Executor, email: string): Promise<string | undefined> {
  return (await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst())?.id;
}

export async function setUserEmail(db: Executor, userId: string, email: string, at: string): Promise<void> {
  await db.updateTable("users").set({ email, updated_at: at }).where("id", "=", userId).execute();
}

/** Takes a user's panel access (role `user`) and revokes every open session; how many sessions it ended. */
export async function endUserAccess(db: Executor, userId: string, at: string): Promise<number> {
  await db.updateTable("users").set({ role: "user", updated_at: at }).where("id", "=", userId).execute();
  const result = await db.updateTable("sessions").set({ revoked_at: at }).where("user_id", "=", userId).where("revoked_at", "is", null).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Vendors whose owner is this account at the sign-in provider (vendors_owner_user_idx). */
export async function findVendorsByOwner(db: Executor, userId: string): Promise<Array<{ id: string; name: string; email: string }>> {
  return db.selectFrom("vendors").select(["id", "name", "email"]).where("owner_user_id", "=", userId).orderBy("id").execute();
}

/** Notes that the sign-in provider deleted this account (once: the first deletion stays). */
export async function insertDeletedAccount(db: Executor, userId: string, deletedAt: string, eventId: string): Promise<void> {
  await db
    .insertInto("deleted_provider_accounts")
    .values({ user_id: userId, deleted_at: deletedAt, event_id: eventId })
    .onConflict((oc) => oc.column("user_id").doNothing())
    .execute();
}

// --- The log: Stripe's and Clerk's events beside the storefront's ---

/** Where a page starts: after the row last shown, newest received first. */
export interface LogPosition {
  receivedAt: string;
  id: string;
}

/**
 * Up to `limit` of the providers' events, newest received first, after `after`: a walk of
 * incoming_events_received_idx, or with a filter of the index that leads with it.
 */
export async function pageIncomingEvents(
  db: Executor,
  filter: { source?: IncomingEventSource; status?: IncomingEventStatus },
  after: LogPosition | undefined,
  limit: number,
): Promise<IncomingEventRow[]> {
  let query = db.selectFrom("incoming_events").selectAll();
  if (filter.source) query = query.where("source", "=", filter.source);
  if (filter.status) query = query.where("status", "=", filter.status);
  if (after) query = query.where((eb) => eb.or([eb("received_at", "<", after.receivedAt), eb.and([eb("received_at", "=", after.receivedAt), eb("id", "<", after.id)])]));
  return query.orderBy("received_at", "desc").orderBy("id", "desc").limit(limit).execute();
}

/** Up to `limit` storefront events (POST /api/events), newest received first, after `after` (storefront_events_received_idx, or _status_idx). */
export async function pageStorefrontEvents(db: Executor, status: "applied" | "stale" | undefined, after: LogPosition | undefined, limit: number) {
  let query = db.selectFrom("storefront_events").select(["id", "type", "status", "received_at"]);
  if (status) query = query.where("status", "=", status);
  if (after) query = query.where((eb) => eb.or([eb("received_at", "<", after.receivedAt), eb.and([eb("received_at", "=", after.receivedAt), eb("id", "<", after.id)])]));
  return query.orderBy("received_at", "desc").orderBy("id", "desc").limit(limit).execute();
}

// --- Retention ---

/** Ids of settled events (not pending, not failed) received before `cutoff`, oldest first (incoming_events_received_idx). */
export async function selectSettledEventIdsBefore(db: Executor, cutoff: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom("incoming_events")
    .select("id")
    .where("received_at", "<", cutoff)
    .where("status", "not in", ["pending", "failed"])
    .orderBy("received_at")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export async function deleteIncomingEvents(db: Executor, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db.deleteFrom("incoming_events").where("id", "in", ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}
