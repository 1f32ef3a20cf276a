import type { Selectable } from "kysely";
import type { Executor } from "../../platform/db/executor.ts";
import type { ApiKeysTable, StorefrontEventsTable } from "../../platform/db/schema.ts";

export type ApiKeyRow = Selectable<ApiKeysTable>;
export type StorefrontEventRow = Selectable<StorefrontEventsTable>;

// --- API keys ---

export async function insertApiKey(db: Executor, row: ApiKeyRow): Promise<void> {
  await db.insertInto("api_keys").values(row).execute();
}

export async function countLiveApiKeys(db: Executor): Promise<number> {
  const row = await db
    .selectFrom("api_keys")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("revoked_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Live keys and those revoked since `revokedSince`, newest first (a handful of rows: keys are few). */
export async function listApiKeys(db: Executor, revokedSince: string, limit: number): Promise<ApiKeyRow[]> {
  return db
    .selectFrom("api_keys")
    .selectAll()
    .where((eb) => eb.or([eb("revoked_at", "is", null), eb("revoked_at", ">=", revokedSince)]))
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

export async function findApiKey(db: Executor, id: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom("api_keys").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Revokes a live key; false when it was already revoked (by someone else meanwhile). */
export async function revokeApiKeyRow(db: Executor, id: string, at: string, byEmail: string): Promise<boolean> {
  const result = await db.updateTable("api_keys").set({ revoked_at: at, revoked_by_email: byEmail }).where("id", "=", id).where("revoked_at", "is", null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// --- Storefront events: what came before, and versions per thing ---

export async function findStorefrontEvent(db: Executor, id: string): Promise<Pick<StorefrontEventRow, "body_hash" | "status"> | undefined> {
  return db.selectFrom("storefront_events").select(["body_hash", "status"]).where("id", "=", id).executeTakeFirst();
}

export async function insertStorefrontEvents(db: Executor, rows: readonly StorefrontEventRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto("storefront_events").values(rows).execute();
}

/** The ids among these that were recorded before. */
export async function findStorefrontEventIds(db: Executor, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom("storefront_events").select("id").where("id", "in", ids).execute();
  return new Set(rows.map((r) => r.id));
}

export async function readVersion(db: Executor, thing: string): Promise<{ occurredAt: string; deleted: boolean } | undefined> {
  const row = await db.selectFrom("storefront_versions").select(["occurred_at", "deleted"]).where("thing", "=", thing).executeTakeFirst();
  return row ? { occurredAt: row.occurred_at, deleted: Number(row.deleted) === 1 } : undefined;
}

export async function writeVersion(db: Executor, thing: string, occurredAt: string, deleted: boolean): Promise<void> {
  await db
    .insertInto("storefront_versions")
    .values({ thing, occurred_at: occurredAt, deleted: deleted ? 1 : 0 })
    .onConflict((oc) => oc.column("thing").doUpdateSet({ occurred_at: occurredAt, deleted: deleted ? 1 : 0 }))
    .execute();
}

/** Ids of processed events received before `cutoff`, oldest first (storefront_events_received_idx). */
export async function selectStorefrontEventIdsBefore(db: Executor, cutoff: string, limit: number): Promise<string[]> {
  const rows = await db.selectFrom("storefront_events").select("id").where("received_at", "<", cutoff).orderBy("received_at").orderBy("id").limit(limit).execute();
  return rows.map((r) => r.id);
}

export async function deleteStorefrontEvents(db: Executor, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db.deleteFrom("storefront_events").where("id", "in", ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}

// --- The panel's rows the storefront's ids name ---

export async function findVendorByExternalId(db: Executor, externalId: string) {
  return db.selectFrom("vendors").selectAll().where("external_id", "=", externalId).executeTakeFirst();
}

export async function findVendorIdsByExternalIds(db: Executor, externalIds: string[]): Promise<Map<string, string>> {
  if (externalIds.length === 0) return new Map();
  const rows = await db.selectFrom("vendors").select(["id", "external_id"]).where("external_id", "in", externalIds).execute();
  return new Map(rows.map((r) => [r.external_id!, r.id]));
}

export async function findSlugOwner(db: Executor, slug: string): Promise<{ id: string } | undefined> {
  return db.selectFrom("vendors").select("id").where("slug", "=", slug).executeTakeFirst();
}

export async function findProductByExternalId(db: Executor, externalId: string) {
  return db.selectFrom("products").selectAll().where("external_id", "=", externalId).executeTakeFirst();
}

export async function findProductsByExternalIds(db: Executor, externalIds: string[]) {
  if (externalIds.length === 0) return [];
  return db.selectFrom("products").select(["id", "external_id", "vendor_id"]).where("external_id", "in", externalIds).execute();
}

/** The storefront orders among these that have order rows already. */
export async function findRecordedOrderIds(db: Executor, externalOrderIds: readonly string[]): Promise<Set<string>> {
  if (externalOrderIds.length === 0) return new Set();
  const rows = await db.selectFrom("orders").select("external_order_id").where("external_order_id", "in", externalOrderIds).execute();
  return new Set(rows.map((r) => r.external_order_id!));
}

/** The order rows of a storefront order (one per line), in line order. */
export async function findOrderRows(db: Executor, externalOrderId: string) {
  return db.selectFrom("orders").select(["id", "external_line_id", "vendor_id", "status", "gross_cents"]).where("external_order_id", "=", externalOrderId).orderBy("external_line_id").execute();
}

/** Order rows a refund id was already recorded on. */
export async function findRefundedOrderIds(db: Executor, refundId: string, orderIds: string[]): Promise<string[]> {
  if (orderIds.length === 0) return [];
  const rows = await db.selectFrom("order_refunds").select("order_id").where("external_refund_id", "=", refundId).where("order_id", "in", orderIds).execute();
  return rows.map((r) => r.order_id);
}

/** Active storefront subscriptions whose paid-up period ended before `cutoff`, with that end (a daily sweep's few rows). */
export async function selectLapsedSubscriptions(db: Executor, cutoff: string, limit: number): Promise<Array<{ id: string; current_period_end: string }>> {
  const rows = await db
    .selectFrom("subscriptions")
    .select(["id", "current_period_end"])
    .where("status", "=", "active")
    .where("external_id", "is not", null)
    .where("current_period_end", "<", cutoff)
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, current_period_end: r.current_period_end! }));
}

export async function findActiveSubscription(db: Executor, externalId: string) {
  return db.selectFrom("subscriptions").selectAll().where("external_id", "=", externalId).where("status", "=", "active").executeTakeFirst();
}

export async function readPayoutAccountId(db: Executor, vendorId: string): Promise<string | null | undefined> {
  const row = await db.selectFrom("payout_accounts").select("stripe_account_id").where("vendor_id", "=", vendorId).executeTakeFirst();
  return row?.stripe_account_id;
}
