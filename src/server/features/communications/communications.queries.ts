import { type Insertable, type Selectable, sql } from "kysely";
import type { AnnouncementAudience } from "../../../contract/communications.ts";
import { COUNTERS, readCounters } from "../../domain/ledger/counters.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { inTransaction } from "../../platform/db/executor.ts";
import type { AnnouncementRecipientsTable, AnnouncementsTable } from "../../platform/db/schema.ts";

/** The only place SQL for announcements and their delivery records lives (docs/product.md §17). */

export type AnnouncementRow = Selectable<AnnouncementsTable>;
export type RecipientRow = Selectable<AnnouncementRecipientsTable>;

export interface AudienceFilter {
  audience: AnnouncementAudience;
  includeInternal: boolean;
  /** Sorted, distinct (audience vendorIds). */
  vendorIds: readonly string[];
}

/**
 * How many artists an audience reaches, without scanning vendors: the platform counters for the
 * whole, active and internal vendors, and the internal vendors themselves (the platform's own
 * stores: a handful, read through their index) to take them out; a chosen list is looked up by id.
 */
export async function countAudience(db: Executor, filter: AudienceFilter): Promise<number> {
  if (filter.audience === "vendorIds") {
    if (filter.vendorIds.length === 0) return 0;
    let total = 0;
    for (let i = 0; i < filter.vendorIds.length; i += 500) {
      let q = db
        .selectFrom("vendors")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("id", "in", filter.vendorIds.slice(i, i + 500));
      if (!filter.includeInternal) q = q.where("is_internal", "=", 0);
      total += Number((await q.executeTakeFirstOrThrow()).n);
    }
    return total;
  }
  const counters = await readCounters(db);
  const all = counters[COUNTERS.vendorsTotal];
  const active = counters[COUNTERS.vendorsActive];
  let internal = { all: 0, active: 0 };
  if (!filter.includeInternal) {
    const row = await db
      .selectFrom("vendors")
      .select((eb) => [eb.fn.countAll<number | string>().as("all"), eb.fn.sum<number | string | null>("is_active").as("active")])
      .where("is_internal", "=", 1)
      .executeTakeFirstOrThrow();
    internal = { all: Number(row.all), active: Number(row.active ?? 0) };
  }
  if (filter.audience === "active") return active - internal.active;
  if (filter.audience === "inactive") return all - active - (internal.all - internal.active);
  return all - internal.all;
}

/** Which of the given vendor ids exist (any status). */
export async function existingVendorIds(db: Executor, ids: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom("vendors")
      .select("id")
      .where("id", "in", ids.slice(i, i + 500))
      .execute();
    for (const r of rows) found.add(r.id);
  }
  return found;
}

export async function insertAnnouncement(db: Executor, row: Insertable<AnnouncementsTable>): Promise<void> {
  await db.insertInto("announcements").values(row).execute();
}

export function findAnnouncement(db: Executor, id: string): Promise<AnnouncementRow | undefined> {
  return db.selectFrom("announcements").selectAll().where("id", "=", id).executeTakeFirst();
}

/**
 * A vendor flag as an expression no index can serve: queueing walks vendors by primary key, and
 * SQLite would otherwise pick an index on the flag (vendors_internal_*) and sort or filter every
 * vendor for each chunk (measured: 5,000 recipients took 5–8 s instead of a fraction of one).
 */
const unindexed = (column: "is_active" | "is_internal") => sql<number>`${sql.ref(`vendors.${column}`)} + 0`;

/**
 * Writes the next chunk of an announcement's delivery records, after its queue cursor: the
 * audience's vendors in id order (a chosen list: its next slice), with the address and name they
 * have now, in one INSERT … SELECT, and moves the cursor and the counts in the same transaction.
 * A pair already queued is skipped (primary key), so two writers never queue anyone twice.
 * Returns how many were written; 0 with `done` at the end.
 */
export async function queueRecipientsChunk(db: Executor, announcementId: string, size: number, now: string): Promise<{ written: number; done: boolean }> {
  return inTransaction(db, async (trx) => {
    const ann = await trx.selectFrom("announcements").select(["status", "audience", "include_internal", "vendor_ids", "queue_cursor"]).where("id", "=", announcementId).executeTakeFirst();
    if (!ann || ann.status !== "queueing") return { written: 0, done: true };
    const after = ann.queue_cursor ?? "";
    let slice: string[];
    if (ann.audience === "vendorIds") {
      const chosen = (JSON.parse(ann.vendor_ids ?? "[]") as string[]).filter((id) => id > after);
      slice = chosen.slice(0, size);
    } else {
      let q = trx.selectFrom("vendors").select("id").where("id", ">", after).orderBy("id").limit(size);
      if (ann.audience === "active") q = q.where(unindexed("is_active"), "=", 1);
      if (ann.audience === "inactive") q = q.where(unindexed("is_active"), "=", 0);
      if (ann.include_internal !== 1) q = q.where(unindexed("is_internal"), "=", 0);
      slice = (await q.execute()).map((r) => r.id);
    }
    if (slice.length === 0) return { written: 0, done: true };
    const last = slice.at(-1)!;
    let source = trx
      .selectFrom("vendors")
      .select((eb) => [eb.val(announcementId).as("announcement_id"), "id as vendor_id", "name as vendor_name", "email", eb.val("pending").as("status"), eb.val(now).as("next_attempt_at")]);
    if (ann.audience === "vendorIds") source = source.where("id", "in", slice);
    else source = source.where("id", ">", after).where("id", "<=", last);
    if (ann.audience === "active") source = source.where(unindexed("is_active"), "=", 1);
    if (ann.audience === "inactive") source = source.where(unindexed("is_active"), "=", 0);
    if (ann.include_internal !== 1) source = source.where(unindexed("is_internal"), "=", 0);
    const result = await trx
      .insertInto("announcement_recipients")
      .columns(["announcement_id", "vendor_id", "vendor_name", "email", "status", "next_attempt_at"])
      .expression(source)
      .onConflict((oc) => oc.columns(["announcement_id", "vendor_id"]).doNothing())
      .executeTakeFirst();
    const written = Number(result.numInsertedOrUpdatedRows ?? 0);
    await trx
      .updateTable("announcements")
      .set((eb) => ({ queue_cursor: last, recipients: eb("recipients", "+", written), pending_count: eb("pending_count", "+", written), updated_at: now }))
      .where("id", "=", announcementId)
      .execute();
    return { written, done: false };
  });
}

/** Queueing is over: the mails may go (sending), or there is nobody to send to (sent). Only from queueing. */
export async function finishQueueing(db: Executor, announcementId: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable("announcements")
    .set((eb) => ({
      status: eb
        .case()
        .when("recipients", ">", 0)
        .then(sql<AnnouncementRow["status"]>`'sending'`)
        .else(sql<AnnouncementRow["status"]>`'sent'`)
        .end(),
      finished_at: eb
        .case()
        .when("recipients", ">", 0)
        .then(sql<string | null>`null`)
        .else(now)
        .end(),
      updated_at: now,
    }))
    .where("id", "=", announcementId)
    .where("status", "=", "queueing")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** One page of announcements, newest first (index announcements_created_idx). */
export function listAnnouncementsPage(db: Executor, limit: number, after: { createdAt: string; id: string } | null): Promise<AnnouncementRow[]> {
  let q = db.selectFrom("announcements").selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(limit);
  if (after) q = q.where((eb) => eb.or([eb("created_at", "<", after.createdAt), eb.and([eb("created_at", "=", after.createdAt), eb("id", "<", after.id)])]));
  return q.execute();
}

/**
 * One page of an announcement's recipients in vendor order, optionally of one status (index
 * announcement_recipients_status_idx). "pending" includes the ones being sent right now: two
 * index ranges read side by side, each at most a page.
 */
export async function listRecipientsPage(
  db: Executor,
  announcementId: string,
  status: "pending" | "sent" | "failed" | "canceled" | undefined,
  limit: number,
  afterVendorId: string | null,
): Promise<RecipientRow[]> {
  const page = (statuses: Array<RecipientRow["status"]> | null) => {
    let q = db.selectFrom("announcement_recipients").selectAll().where("announcement_id", "=", announcementId).orderBy("vendor_id").limit(limit);
    if (statuses) q = q.where("status", "=", statuses[0]!);
    if (afterVendorId) q = q.where("vendor_id", ">", afterVendorId);
    return q.execute();
  };
  if (status !== "pending") return page(status ? [status] : null);
  const [waiting, sending] = await Promise.all([page(["pending"]), page(["sending"])]);
  return [...waiting, ...sending].sort((a, b) => (a.vendor_id < b.vendor_id ? -1 : a.vendor_id > b.vendor_id ? 1 : 0)).slice(0, limit);
}

/**
 * Claims up to `size` recipients that are due (pending → sending) for the claimer `token`, only
 * while the announcement is sending. One statement: two senders never claim the same recipient.
 */
export async function claimBatch(db: Executor, announcementId: string, token: string, now: string, size: number): Promise<RecipientRow[]> {
  const due = db
    .selectFrom("announcement_recipients")
    .select("vendor_id")
    .where("announcement_id", "=", announcementId)
    .where("status", "=", "pending")
    .where("next_attempt_at", "<=", now)
    .orderBy("vendor_id")
    .limit(size);
  return db
    .updateTable("announcement_recipients")
    .set((eb) => ({ status: "sending", claimed_by: token, attempts: eb("attempts", "+", 1) }))
    .where("announcement_id", "=", announcementId)
    .where("status", "=", "pending")
    .where("vendor_id", "in", due)
    .where((eb) => eb.exists(eb.selectFrom("announcements").select("id").where("id", "=", announcementId).where("status", "=", "sending")))
    .returningAll()
    .execute();
}

export type DeliveryResult = { status: "sent"; at: string } | { status: "failed"; error: string } | { status: "retry"; error: string; at: string };

/**
 * Records one delivery's outcome, only while the recipient is still claimed by `token`; the
 * announcement's counts move in the same transaction. False when the claim was no longer ours.
 */
export async function recordDelivery(db: Executor, announcementId: string, vendorId: string, token: string, result: DeliveryResult): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const changes =
      result.status === "sent"
        ? { status: "sent" as const, sent_at: result.at, last_error: null, claimed_by: null }
        : result.status === "failed"
          ? { status: "failed" as const, last_error: result.error.slice(0, 1000), claimed_by: null }
          : { status: "pending" as const, last_error: result.error.slice(0, 1000), next_attempt_at: result.at, claimed_by: null };
    const updated = await trx
      .updateTable("announcement_recipients")
      .set(changes)
      .where("announcement_id", "=", announcementId)
      .where("vendor_id", "=", vendorId)
      .where("status", "=", "sending")
      .where("claimed_by", "=", token)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return false;
    if (result.status !== "retry") {
      await trx
        .updateTable("announcements")
        .set((eb) =>
          result.status === "sent"
            ? { sent_count: eb("sent_count", "+", 1), pending_count: eb("pending_count", "-", 1) }
            : { failed_count: eb("failed_count", "+", 1), pending_count: eb("pending_count", "-", 1) },
        )
        .where("id", "=", announcementId)
        .execute();
    }
    return true;
  });
}

/** The claimers of recipients still marked sending (at most a few: one per live or dead sender). */
export async function sendingClaimers(db: Executor, announcementId: string): Promise<string[]> {
  const rows = await db.selectFrom("announcement_recipients").select("claimed_by").distinct().where("announcement_id", "=", announcementId).where("status", "=", "sending").execute();
  return rows.map((r) => r.claimed_by ?? "");
}

/**
 * Recipients a dead sender left claimed (it may or may not have handed them to the mail server):
 * back to pending to be sent again (the one place a mail can repeat), or canceled when the
 * announcement was. Counted in `interrupted`. Returns how many.
 */
export async function releaseDeadClaims(db: Executor, announcementId: string, claimer: string, to: "pending" | "canceled", now: string): Promise<number> {
  return inTransaction(db, async (trx) => {
    const result = await trx
      .updateTable("announcement_recipients")
      .set((eb) => ({ status: to, claimed_by: null, next_attempt_at: now, interrupted: eb("interrupted", "+", 1) }))
      .where("announcement_id", "=", announcementId)
      .where("status", "=", "sending")
      .where((eb) => (claimer === "" ? eb("claimed_by", "is", null) : eb("claimed_by", "=", claimer)))
      .executeTakeFirst();
    const n = Number(result.numUpdatedRows);
    if (n > 0 && to === "canceled") {
      await trx
        .updateTable("announcements")
        .set((eb) => ({ canceled_count: eb("canceled_count", "+", n), pending_count: eb("pending_count", "-", n) }))
        .where("id", "=", announcementId)
        .execute();
    }
    return n;
  });
}

/** Moves up to `size` recipients from one status to another, with the counts, in one transaction. */
async function moveRecipients(db: Executor, announcementId: string, from: "pending" | "failed", to: "canceled" | "pending", size: number, now: string): Promise<number> {
  return inTransaction(db, async (trx) => {
    const chunk = trx.selectFrom("announcement_recipients").select("vendor_id").where("announcement_id", "=", announcementId).where("status", "=", from).orderBy("vendor_id").limit(size);
    const result = await trx
      .updateTable("announcement_recipients")
      .set(to === "pending" ? { status: "pending", attempts: 0, next_attempt_at: now, claimed_by: null } : { status: "canceled", claimed_by: null })
      .where("announcement_id", "=", announcementId)
      .where("status", "=", from)
      .where("vendor_id", "in", chunk)
      .executeTakeFirst();
    const n = Number(result.numUpdatedRows);
    if (n > 0) {
      await trx
        .updateTable("announcements")
        .set((eb) =>
          from === "pending"
            ? { pending_count: eb("pending_count", "-", n), canceled_count: eb("canceled_count", "+", n), updated_at: now }
            : { failed_count: eb("failed_count", "-", n), pending_count: eb("pending_count", "+", n), updated_at: now },
        )
        .where("id", "=", announcementId)
        .execute();
    }
    return n;
  });
}

export const cancelPendingChunk = (db: Executor, id: string, size: number, now: string) => moveRecipients(db, id, "pending", "canceled", size, now);
export const retryFailedChunk = (db: Executor, id: string, size: number, now: string) => moveRecipients(db, id, "failed", "pending", size, now);

/** The announcement's status changes from one of `from` to `to` (with its times); false when it was not in `from`. */
export async function setAnnouncementStatus(db: Executor, id: string, from: ReadonlyArray<AnnouncementRow["status"]>, to: AnnouncementRow["status"], now: string): Promise<boolean> {
  const result = await db
    .updateTable("announcements")
    .set({ status: to, updated_at: now, finished_at: to === "sending" ? null : now })
    .where("id", "=", id)
    .where("status", "in", from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Sending is over when nothing is pending any more: sending → sent. */
export async function completeIfDone(db: Executor, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable("announcements")
    .set({ status: "sent", finished_at: now, updated_at: now })
    .where("id", "=", id)
    .where("status", "=", "sending")
    .where("pending_count", "=", 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** When the next recipient waiting for a retry is due (null when none waits). */
export async function nextDueAt(db: Executor, id: string): Promise<string | null> {
  const row = await db
    .selectFrom("announcement_recipients")
    .select((eb) => eb.fn.min<string | null>("next_attempt_at").as("at"))
    .where("announcement_id", "=", id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return row?.at ?? null;
}

export async function takeDownDashboard(db: Executor, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable("announcements")
    .set({ taken_down_at: now, updated_at: now })
    .where("id", "=", id)
    .where("show_on_dashboard", "=", 1)
    .where("taken_down_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Dashboard announcements artists see now, newest first (index announcements_dashboard_idx). */
export function currentDashboardAnnouncements(db: Executor, now: string, limit: number) {
  return db
    .selectFrom("announcements")
    .select(["title", "message", "html_body", "audience", "created_at", "show_until"])
    .where("show_on_dashboard", "=", 1)
    .where("taken_down_at", "is", null)
    .where((eb) => eb.or([eb("show_until", "is", null), eb("show_until", ">", now)]))
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

/** Is the sender `token` (job id ":" attempt) still the live holder of its job? */
export async function isLiveSender(db: Executor, token: string, now: string): Promise<boolean> {
  const [jobId, attempt] = token.split(":");
  if (!jobId || !attempt) return false;
  const job = await db.selectFrom("jobs").select(["status", "attempts", "lease_expires_at"]).where("id", "=", jobId).executeTakeFirst();
  return !!job && job.status === "running" && job.attempts === Number(attempt) && (job.lease_expires_at ?? "") >= now;
}
