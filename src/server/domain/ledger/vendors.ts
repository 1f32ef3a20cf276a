import type { Clock } from "../../platform/clock.ts";
import { newId } from "../../platform/db/ids.ts";
import type { Vendor, VendorApprovalStatus, VendorStatusChangesTable } from "../../platform/db/schema.ts";
import type { ArtistApplication, ArtistStatus } from "../../../contract/vendors.ts";
import { COUNTERS, incrementCounters } from "./counters.ts";
import { CHUNK_ROWS, type Executor, inTransaction } from "../../platform/db/executor.ts";
import { dayOf, isoTime, LedgerError } from "./ledger-error.ts";
import { deleteVendorPayouts, insertPayoutAccount } from "./payouts.ts";
import { deleteProductSales, deleteVendorPeriodTotals, setVendorInPeriodTotals } from "./period-totals.ts";
import { readProductLimit } from "./product-limit.ts";
import { addToDailyPlatformTotals, type PlatformDayDeltas } from "./rollups.ts";
import { CUSTOM_HTML_POLICY, customHtmlColumns } from "../customization/sanitize-customization.ts";

export interface CreateVendorInput {
  /** Defaults to a new UUIDv7; seeds pass deterministic ids. */
  id?: string;
  name: string;
  ownerName: string;
  email: string;
  slug: string;
  ownerUserId?: string | null;
  isActive?: boolean;
  isInternal?: boolean;
  /** Defaults to the clock's now. */
  joinedAt?: Date | string;
  theme?: string;
  primaryColor?: string;
  secondaryColor?: string;
  about?: string;
  customCss?: string;
  customHtml?: string | null;
  /** The storefront's id of the artist, for vendors that came from the storefront (migration 023). */
  externalId?: string | null;
  /**
   * Its admission (migration 030): approved by default; an artist not approved is never active.
   * `application` is what it sent (stored as JSON), `appliedAt` when (defaults to joinedAt).
   */
  approvalStatus?: VendorApprovalStatus;
  application?: ArtistApplication | null;
  appliedAt?: Date | string;
  /** Its listings skip review. */
  trusted?: boolean;
  /** Listings taken down for infringement (seeds only; the ledger counts them with each takedown). */
  takedowns?: number;
  /** Its payout account (docs/product.md §15); by default not connected. */
  payoutAccount?: { stripeAccountId: string | null; status: "active" | "pending" | "restricted" | "not_connected" };
}

/** Creates a vendor with its vendor_totals row, counts it, and adds it to its joined day's new_vendors. */
export async function createVendor(db: Executor, input: CreateVendorInput, clock: Clock): Promise<Vendor> {
  const now = clock.now().toISOString();
  const approvalStatus = input.approvalStatus ?? "approved";
  const joinedAt = input.joinedAt === undefined ? now : isoTime(input.joinedAt);
  const vendor: Vendor = {
    id: input.id ?? newId(),
    name: input.name,
    owner_name: input.ownerName,
    email: input.email,
    slug: input.slug,
    owner_user_id: input.ownerUserId ?? null,
    is_active: input.isActive === false || approvalStatus !== "approved" ? 0 : 1,
    is_internal: input.isInternal ? 1 : 0,
    joined_at: joinedAt,
    theme: input.theme ?? "default",
    primary_color: input.primaryColor ?? "#111827",
    secondary_color: input.secondaryColor ?? "#6b7280",
    about: input.about ?? "",
    custom_css: input.customCss ?? "",
    custom_html: input.customHtml ?? null,
    ...customHtmlColumns(input.customHtml ?? null),
    updated_at: now,
    external_id: input.externalId ?? null,
    approval_status: approvalStatus,
    application: input.application ? JSON.stringify(input.application) : null,
    applied_at: input.application || approvalStatus !== "approved" ? (input.appliedAt === undefined ? joinedAt : isoTime(input.appliedAt)) : null,
    status_reason: null,
    trusted: input.trusted ? 1 : 0,
    takedowns: input.takedowns ?? 0,
  };
  return inTransaction(db, async (trx) => {
    await trx.insertInto("vendors").values(vendor).execute();
    await trx.insertInto("vendor_totals").values(emptyVendorTotals(vendor.id)).execute();
    await insertPayoutAccount(trx, vendor.id, input.payoutAccount ?? {});
    await incrementCounters(trx, {
      [COUNTERS.vendorsTotal]: 1,
      [COUNTERS.vendorsActive]: vendor.is_active,
      [COUNTERS.vendorsInternal]: vendor.is_internal,
      [COUNTERS.vendorsPending]: approvalStatus === "pending" ? 1 : 0,
    });
    await addToDailyPlatformTotals(trx, dayOf(vendor.joined_at), { newVendors: 1 });
    return vendor;
  });
}

/** A vendor's row before and after a status change, and whether this call changed it. */
export interface VendorStatusChange {
  before: Vendor;
  after: Vendor;
  changed: boolean;
}

/** Who decided a change of an artist's status, and why (the reason the artist is shown; null where none is asked for). */
export interface StatusDecision {
  reason: string | null;
  actor: { id: string | null; email: string };
}

/** An artist's status as the history and the storefront name it: its admission first, then whether it is active. */
export function artistStatusOf(v: Pick<Vendor, "is_active" | "approval_status">): ArtistStatus {
  if (v.approval_status !== "approved") return v.approval_status;
  return v.is_active === 1 ? "active" : "inactive";
}

/** Writes one row of an artist's status history (vendor_status_changes), in the caller's transaction. */
export async function recordVendorStatusChange(
  db: Executor,
  vendorId: string,
  change: { action: VendorStatusChangesTable["action"]; from: ArtistStatus; to: ArtistStatus; reason: string | null; actor: StatusDecision["actor"]; at: string },
): Promise<void> {
  await db
    .insertInto("vendor_status_changes")
    .values({
      id: newId(),
      vendor_id: vendorId,
      action: change.action,
      from_status: change.from,
      to_status: change.to,
      reason: change.reason,
      actor_id: change.actor.id,
      actor_email: change.actor.email,
      created_at: change.at,
    })
    .execute();
}

/**
 * Enables or disables a vendor; null when no such vendor exists. Conditional on the status read (as
 * products and payouts are): of two changes racing on PostgreSQL, only the one whose update finds
 * the status it read moves the counter; the other finds the vendor already in the status asked for
 * and reports no change. With a decision, a change keeps its reason on the vendor (the artist's
 * page shows it) and a row of the status history. An artist whose application is not approved
 * cannot be enabled (invalid_state): its application is decided first.
 */
export async function setVendorActive(db: Executor, vendorId: string, isActive: boolean, clock: Clock, decision?: StatusDecision): Promise<VendorStatusChange | null> {
  return inTransaction(db, async (trx) => {
    const current = await trx.selectFrom("vendors").selectAll().where("id", "=", vendorId).executeTakeFirst();
    if (!current) return null;
    const next = isActive ? 1 : 0;
    if (current.is_active === next) return { before: current, after: current, changed: false };
    if (isActive && current.approval_status !== "approved") {
      throw new LedgerError("invalid_state", `${current.name} has not been admitted (its application is ${current.approval_status.replace("_", " ")}): decide the application instead`);
    }
    const updatedAt = clock.now().toISOString();
    const statusReason = decision ? decision.reason : current.status_reason;
    const updated = await trx
      .updateTable("vendors")
      .set({ is_active: next, updated_at: updatedAt, status_reason: statusReason })
      .where("id", "=", vendorId)
      .where("is_active", "=", current.is_active)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) {
      const now = await trx.selectFrom("vendors").selectAll().where("id", "=", vendorId).executeTakeFirst();
      return now ? { before: now, after: now, changed: false } : null;
    }
    await incrementCounters(trx, { [COUNTERS.vendorsActive]: next - current.is_active });
    const after: Vendor = { ...current, is_active: next, updated_at: updatedAt, status_reason: statusReason };
    if (decision) {
      await recordVendorStatusChange(trx, vendorId, {
        action: isActive ? "enable" : "disable",
        from: artistStatusOf(current),
        to: artistStatusOf(after),
        reason: decision.reason,
        actor: decision.actor,
        at: updatedAt,
      });
    }
    return { before: current, after, changed: true };
  });
}

export interface DeletedVendor {
  vendor: Vendor;
  orders: number;
  products: number;
  subscriptions: number;
  storeVisitDays: number;
  dailyVendorTotals: number;
}

/**
 * Removes a vendor and everything it owns, taking each row back out of the platform rollups and
 * counters, so they keep equalling a recomputation from the raw rows. Statements touch at most
 * CHUNK_ROWS rows each. The caller decides the transaction (the vendors route wraps this and the
 * owner user's deletion in one); given a bare Kysely it opens one. Returns null for an unknown id.
 */
export async function deleteVendorCascade(db: Executor, vendorId: string): Promise<DeletedVendor | null> {
  return inTransaction(db, async (trx) => {
    const vendor = await trx.selectFrom("vendors").selectAll().where("id", "=", vendorId).executeTakeFirst();
    if (!vendor) return null;
    const result: DeletedVendor = { vendor, orders: 0, products: 0, subscriptions: 0, storeVisitDays: 0, dailyVendorTotals: 0 };
    // First, as it may refuse (a payout to the vendor being sent): then nothing else is deleted.
    await deleteVendorPayouts(trx, vendorId);

    // Orders: paid ones are subtracted from the platform's days (vendor rollups go with the vendor).
    for (;;) {
      const rows = await trx
        .selectFrom("orders")
        .select(["id", "status", "created_at", "updated_at", "gross_cents", "fee_cents", "quantity"])
        .where("vendor_id", "=", vendorId)
        .limit(CHUNK_ROWS)
        .execute();
      if (rows.length === 0) break;
      const byDay = new Map<string, PlatformDayDeltas>();
      // Refunds the storefront made of part of an order are counted on their own days (orders.ts).
      const refunds = await trx.selectFrom("order_refunds").select(["id", "amount_cents", "refunded_at"]).where("order_id", "in", ids(rows)).execute();
      for (const r of refunds) {
        const d = byDay.get(dayOf(r.refunded_at)) ?? {};
        d.refundsCents = (d.refundsCents ?? 0) - Number(r.amount_cents);
        byDay.set(dayOf(r.refunded_at), d);
      }
      if (refunds.length > 0) await trx.deleteFrom("order_refunds").where("id", "in", ids(refunds)).execute();
      let paid = 0;
      for (const o of rows) {
        if (o.status === "refunded") {
          const refundDay = dayOf(o.updated_at);
          const r = byDay.get(refundDay) ?? {};
          r.refundsCents = (r.refundsCents ?? 0) - Number(o.gross_cents);
          byDay.set(refundDay, r);
        }
        if (o.status !== "paid") continue;
        paid++;
        const day = dayOf(o.created_at);
        const d = byDay.get(day) ?? {};
        d.grossCents = (d.grossCents ?? 0) - Number(o.gross_cents);
        d.orders = (d.orders ?? 0) - 1;
        d.feesCents = (d.feesCents ?? 0) - Number(o.fee_cents);
        d.itemsSold = (d.itemsSold ?? 0) - o.quantity;
        byDay.set(day, d);
      }
      for (const [day, d] of byDay) await addToDailyPlatformTotals(trx, day, d);
      await trx.deleteFrom("orders").where("id", "in", ids(rows)).execute();
      await incrementCounters(trx, { [COUNTERS.ordersTotal]: -rows.length, [COUNTERS.ordersPaid]: -paid });
      result.orders += rows.length;
    }

    for (;;) {
      const rows = await trx.selectFrom("products").select(["id", "status", "created_at"]).where("vendor_id", "=", vendorId).limit(CHUNK_ROWS).execute();
      if (rows.length === 0) break;
      const byDay = new Map<string, number>();
      for (const p of rows) byDay.set(dayOf(p.created_at), (byDay.get(dayOf(p.created_at)) ?? 0) + 1);
      for (const [day, n] of byDay) await addToDailyPlatformTotals(trx, day, { newProducts: -n });
      const productIds = ids(rows);
      await deleteProductSales(trx, productIds);
      await trx.deleteFrom("product_moderations").where("product_id", "in", productIds).execute();
      await trx.deleteFrom("products").where("id", "in", productIds).execute();
      await incrementCounters(trx, {
        [COUNTERS.productsTotal]: -rows.length,
        [COUNTERS.productsListed]: -rows.filter((p) => p.status === "listed").length,
        [COUNTERS.productsHidden]: -rows.filter((p) => p.status === "hidden").length,
        [COUNTERS.productsPendingReview]: -rows.filter((p) => p.status === "pending_review").length,
        [COUNTERS.productsRejected]: -rows.filter((p) => p.status === "rejected").length,
      });
      result.products += rows.length;
    }

    for (;;) {
      const rows = await trx.selectFrom("subscriptions").select(["id", "status", "monthly_fee_cents", "started_at", "cancelled_at"]).where("vendor_id", "=", vendorId).limit(CHUNK_ROWS).execute();
      if (rows.length === 0) break;
      const active = rows.filter((s) => s.status === "active");
      for (const s of rows) {
        const fee = Number(s.monthly_fee_cents);
        await addToDailyPlatformTotals(trx, dayOf(s.started_at), { mrrChangeCents: -fee });
        if (s.cancelled_at) await addToDailyPlatformTotals(trx, dayOf(s.cancelled_at), { mrrChangeCents: fee });
      }
      await trx.deleteFrom("subscriptions").where("id", "in", ids(rows)).execute();
      await incrementCounters(trx, {
        [COUNTERS.subscriptionsActive]: -active.length,
        [COUNTERS.mrrCents]: -active.reduce((sum, s) => sum + Number(s.monthly_fee_cents), 0),
      });
      result.subscriptions += rows.length;
    }

    result.storeVisitDays = await deleteVendorDays(trx, "store_visits", vendorId);
    result.dailyVendorTotals = await deleteVendorDays(trx, "daily_vendor_totals", vendorId);

    await deleteVendorPeriodTotals(trx, vendorId);
    // A vendor over the product limit stops being one (its listed products leave with its totals row).
    const totals = await trx.selectFrom("vendor_totals").select("listed_products").where("vendor_id", "=", vendorId).executeTakeFirst();
    if (totals && Number(totals.listed_products) > (await readProductLimit(trx))) await incrementCounters(trx, { [COUNTERS.vendorsOverProductLimit]: -1 });
    await trx.deleteFrom("vendor_totals").where("vendor_id", "=", vendorId).execute();
    await trx.deleteFrom("vendor_status_changes").where("vendor_id", "=", vendorId).execute();
    await trx.deleteFrom("vendors").where("id", "=", vendorId).execute();
    await incrementCounters(trx, {
      [COUNTERS.vendorsTotal]: -1,
      [COUNTERS.vendorsActive]: -vendor.is_active,
      [COUNTERS.vendorsInternal]: -vendor.is_internal,
      [COUNTERS.vendorsPending]: vendor.approval_status === "pending" ? -1 : 0,
    });
    await addToDailyPlatformTotals(trx, dayOf(vendor.joined_at), { newVendors: -1 });
    return result;
  });
}

function ids(rows: ReadonlyArray<{ id: string }>): string[] {
  return rows.map((r) => r.id);
}

/**
 * Deletes a vendor's rows of a per-day table (no platform rollup sums them: they go with the
 * vendor), CHUNK_ROWS days per statement; returns how many.
 */
async function deleteVendorDays(trx: Executor, table: "store_visits" | "daily_vendor_totals", vendorId: string): Promise<number> {
  let deleted = 0;
  for (;;) {
    const days = (await trx.selectFrom(table).select("day").where("vendor_id", "=", vendorId).limit(CHUNK_ROWS).execute()).map((r) => r.day);
    if (days.length === 0) return deleted;
    await trx.deleteFrom(table).where("vendor_id", "=", vendorId).where("day", "in", days).execute();
    deleted += days.length;
  }
}

export interface VendorProfileChanges {
  name?: string;
  ownerName?: string;
  email?: string;
  slug?: string;
  ownerUserId?: string | null;
  isInternal?: boolean;
  theme?: string;
  primaryColor?: string;
  secondaryColor?: string;
  about?: string;
  customCss?: string;
  customHtml?: string | null;
}

/**
 * Makes the stored copy of custom HTML (decision 0027) for up to `limit` vendors after `afterId` (in
 * id order) whose copy is missing or was made under another policy: rows written before migration
 * 034, or before the policy was raised. Each write is conditional on the HTML being the one
 * sanitised, so an artist's edit meanwhile is never overwritten by an older copy. Returns how many
 * such rows were found (0: none left), the last one's id for the next call, and how many got a copy.
 */
export async function refreshCustomHtmlCopies(db: Executor, afterId: string, limit: number): Promise<{ visited: number; lastId: string; made: number }> {
  const rows = await db
    .selectFrom("vendors")
    .select(["id", "custom_html"])
    .where("id", ">", afterId)
    .where("custom_html", "is not", null)
    .where((eb) => eb.or([eb("custom_html_policy", "is", null), eb("custom_html_policy", "!=", CUSTOM_HTML_POLICY)]))
    .orderBy("id")
    .limit(limit)
    .execute();
  let made = 0;
  for (const row of rows) {
    if (row.custom_html === null) continue;
    const written = await db.updateTable("vendors").set(customHtmlColumns(row.custom_html)).where("id", "=", row.id).where("custom_html", "=", row.custom_html).executeTakeFirst();
    made += Number(written.numUpdatedRows);
  }
  return { visited: rows.length, lastId: rows.at(-1)?.id ?? afterId, made };
}

/**
 * Changes a vendor's profile (what the artist edits on the storefront: names, e-mail, slug, store
 * customisation) and whether it is one of the platform's own stores. The active flag is the
 * panel's alone (setVendorActive). Turning a store internal takes its sales out of the top lists'
 * windows and counts it in vendors_internal; turning it back puts them in again (period-totals.ts).
 * Returns the updated row, or null for an unknown id.
 */
export async function updateVendorProfile(db: Executor, vendorId: string, changes: VendorProfileChanges, clock: Clock): Promise<Vendor | null> {
  return inTransaction(db, async (trx) => {
    const current = await trx.selectFrom("vendors").selectAll().where("id", "=", vendorId).executeTakeFirst();
    if (!current) return null;
    const next: Vendor = {
      ...current,
      name: changes.name ?? current.name,
      owner_name: changes.ownerName ?? current.owner_name,
      email: changes.email ?? current.email,
      slug: changes.slug ?? current.slug,
      owner_user_id: changes.ownerUserId === undefined ? current.owner_user_id : changes.ownerUserId,
      is_internal: changes.isInternal === undefined ? current.is_internal : changes.isInternal ? 1 : 0,
      theme: changes.theme ?? current.theme,
      primary_color: changes.primaryColor ?? current.primary_color,
      secondary_color: changes.secondaryColor ?? current.secondary_color,
      about: changes.about ?? current.about,
      custom_css: changes.customCss ?? current.custom_css,
      custom_html: changes.customHtml === undefined ? current.custom_html : changes.customHtml,
    };
    const changed = (Object.keys(next) as Array<keyof Vendor>).some((k) => next[k] !== current[k]);
    if (!changed) return current;
    if (next.custom_html !== current.custom_html) Object.assign(next, customHtmlColumns(next.custom_html));
    next.updated_at = clock.now().toISOString();
    await trx
      .updateTable("vendors")
      .set({
        name: next.name,
        owner_name: next.owner_name,
        email: next.email,
        slug: next.slug,
        owner_user_id: next.owner_user_id,
        is_internal: next.is_internal,
        theme: next.theme,
        primary_color: next.primary_color,
        secondary_color: next.secondary_color,
        about: next.about,
        custom_css: next.custom_css,
        custom_html: next.custom_html,
        custom_html_shown: next.custom_html_shown,
        custom_html_policy: next.custom_html_policy,
        updated_at: next.updated_at,
      })
      .where("id", "=", vendorId)
      .execute();
    if (next.is_internal !== current.is_internal) {
      await incrementCounters(trx, { [COUNTERS.vendorsInternal]: next.is_internal - current.is_internal });
      await setVendorInPeriodTotals(trx, vendorId, next.is_internal === 0);
    }
    return next;
  });
}

/** The vendor_totals row of a vendor with nothing yet. */
export function emptyVendorTotals(vendorId: string) {
  return { vendor_id: vendorId, listed_products: 0, gross_cents: 0, orders: 0, fees_cents: 0, items_sold: 0, visits: 0, last_sale_at: null };
}

/** Throws not_found unless the vendor exists (used before writing rows that belong to it). */
export async function requireVendor(db: Executor, vendorId: string): Promise<void> {
  const row = await db.selectFrom("vendors").select("id").where("id", "=", vendorId).executeTakeFirst();
  if (!row) throw new LedgerError("not_found", `Vendor ${vendorId} not found`);
}
