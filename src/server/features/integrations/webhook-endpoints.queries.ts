import type { Selectable, Updateable } from "kysely";
import type { Executor } from "../../platform/db/executor.ts";
import type { WebhookDeliveriesTable, WebhookDeliveryStatus, WebhookEndpointsTable } from "../../platform/db/schema.ts";

/** SQL of the webhook endpoints, their deliveries and the sender (docs/integration.md "Webhooks"). */

export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;

// --- Endpoints ---

export async function insertWebhookEndpoint(db: Executor, row: WebhookEndpointRow): Promise<void> {
  await db.insertInto("webhook_endpoints").values(row).execute();
}

export function findWebhookEndpoint(db: Executor, id: string): Promise<WebhookEndpointRow | undefined> {
  return db.selectFrom("webhook_endpoints").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function countWebhookEndpoints(db: Executor): Promise<number> {
  const row = await db
    .selectFrom("webhook_endpoints")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Every endpoint, newest first (a handful: MAX_WEBHOOK_ENDPOINTS). */
export function listWebhookEndpoints(db: Executor, limit: number): Promise<WebhookEndpointRow[]> {
  return db.selectFrom("webhook_endpoints").selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
}

export async function updateWebhookEndpoint(db: Executor, id: string, changes: Updateable<WebhookEndpointsTable>): Promise<WebhookEndpointRow | undefined> {
  return db.updateTable("webhook_endpoints").set(changes).where("id", "=", id).returningAll().executeTakeFirst();
}

export async function deleteWebhookEndpointRow(db: Executor, id: string): Promise<boolean> {
  const result = await db.deleteFrom("webhook_endpoints").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Disables an enabled endpoint for `reason`; false when it was disabled already (nothing changed). */
export async function disableWebhookEndpoint(db: Executor, id: string, reason: "gone" | "failing", at: string): Promise<boolean> {
  const result = await db
    .updateTable("webhook_endpoints")
    .set({ enabled: 0, disabled_reason: reason, disabled_at: at, updated_at: at })
    .where("id", "=", id)
    .where("enabled", "=", 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * After a 2xx: the endpoint is not failing. Its last success is moved at most once a minute while
 * it does not fail (a burst of deliveries writes the row once, not once each).
 */
export async function markEndpointSucceeded(db: Executor, id: string, at: string): Promise<void> {
  const minuteBefore = new Date(Date.parse(at) - 60_000).toISOString();
  await db
    .updateTable("webhook_endpoints")
    .set({ failing_since: null, last_success_at: at })
    .where("id", "=", id)
    .where((eb) => eb.or([eb("failing_since", "is not", null), eb("last_success_at", "is", null), eb("last_success_at", "<", minuteBefore)]))
    .execute();
}

/** After a failed attempt: failing since the first failure after the last success. Answers that time. */
export async function markEndpointFailed(db: Executor, id: string, at: string): Promise<string | null> {
  await db.updateTable("webhook_endpoints").set({ failing_since: at }).where("id", "=", id).where("failing_since", "is", null).execute();
  const row = await db.selectFrom("webhook_endpoints").select("failing_since").where("id", "=", id).executeTakeFirst();
  return row?.failing_since ?? null;
}

// --- Deliveries ---

export function findWebhookDelivery(db: Executor, id: string): Promise<WebhookDeliveryRow | undefined> {
  return db.selectFrom("webhook_deliveries").selectAll().where("id", "=", id).executeTakeFirst();
}

/** One page of an endpoint's deliveries, newest first (ids are UUIDv7), after `beforeId` (webhook_deliveries_endpoint[_status]_idx). */
export function listWebhookDeliveries(db: Executor, endpointId: string, status: WebhookDeliveryStatus | undefined, limit: number, beforeId: string | null): Promise<WebhookDeliveryRow[]> {
  let query = db.selectFrom("webhook_deliveries").selectAll().where("endpoint_id", "=", endpointId);
  if (status) query = query.where("status", "=", status);
  if (beforeId) query = query.where("id", "<", beforeId);
  return query.orderBy("id", "desc").limit(limit).execute();
}

export async function insertWebhookDelivery(db: Executor, row: Omit<WebhookDeliveryRow, "attempts"> & { attempts?: number }): Promise<void> {
  await db.insertInto("webhook_deliveries").values(row).execute();
}

/** Deletes up to `limit` deliveries of an endpoint (after its deletion); the number deleted. */
export async function deleteDeliveriesOfEndpoint(db: Executor, endpointId: string, limit: number): Promise<number> {
  const ids = await db.selectFrom("webhook_deliveries").select("id").where("endpoint_id", "=", endpointId).limit(limit).execute();
  if (ids.length === 0) return 0;
  const result = await db
    .deleteFrom("webhook_deliveries")
    .where(
      "id",
      "in",
      ids.map((r) => r.id),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

// --- The sender ---

/** Deliveries due now to enabled endpoints and not held by a sender, in the order they fell due (webhook_deliveries_due_idx). */
export function selectDueDeliveries(db: Executor, now: string, limit: number): Promise<Array<{ id: string; endpoint_id: string }>> {
  return db
    .selectFrom("webhook_deliveries as d")
    .innerJoin("webhook_endpoints as e", "e.id", "d.endpoint_id")
    .select(["d.id", "d.endpoint_id"])
    .where("d.status", "=", "pending")
    .where("d.next_attempt_at", "<=", now)
    .where((eb) => eb.or([eb("d.locked_until", "is", null), eb("d.locked_until", "<", now)]))
    .where("e.enabled", "=", 1)
    .orderBy("d.next_attempt_at")
    .limit(limit)
    .execute();
}

/**
 * Takes deliveries for one sender until `lockedUntil`, counting the attempt now (a sender that dies
 * mid-attempt has still made it). One conditional statement: of two senders, each delivery goes to
 * one. Answers the ones taken.
 */
export function claimDeliveries(db: Executor, ids: readonly string[], now: string, lockedUntil: string): Promise<Array<{ id: string; endpoint_id: string; event_id: string; attempts: number }>> {
  return db
    .updateTable("webhook_deliveries")
    .set((eb) => ({ locked_until: lockedUntil, attempts: eb("attempts", "+", 1), last_attempt_at: now, updated_at: now }))
    .where("id", "in", ids)
    .where("status", "=", "pending")
    .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<", now)]))
    .returning(["id", "endpoint_id", "event_id", "attempts"])
    .execute();
}

export function findEventBodies(db: Executor, ids: readonly string[]): Promise<Array<{ id: string; body: string }>> {
  return db.selectFrom("webhook_events").select(["id", "body"]).where("id", "in", ids).execute();
}

export function findEndpointsForSending(db: Executor, ids: readonly string[]): Promise<Array<Pick<WebhookEndpointRow, "id" | "url" | "secret" | "previous_secret" | "previous_secret_expires_at">>> {
  return db.selectFrom("webhook_endpoints").select(["id", "url", "secret", "previous_secret", "previous_secret_expires_at"]).where("id", "in", ids).execute();
}

/** The outcome of an attempt, written while this sender still holds the delivery (its `locked_until`). */
export async function finishAttempt(
  db: Executor,
  id: string,
  lockedUntil: string,
  outcome: Pick<WebhookDeliveryRow, "status" | "next_attempt_at" | "last_status_code" | "last_duration_ms" | "last_error" | "last_response_body" | "delivered_at">,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable("webhook_deliveries")
    .set({ ...outcome, locked_until: null, updated_at: now })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .where("locked_until", "=", lockedUntil)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Finished deliveries created before `cutoff` (retention), up to `limit`; and the events no delivery names any more. */
export async function deleteOldDeliveries(db: Executor, cutoff: string, limit: number): Promise<number> {
  const ids = await db.selectFrom("webhook_deliveries").select("id").where("created_at", "<", cutoff).where("status", "!=", "pending").orderBy("created_at").limit(limit).execute();
  if (ids.length === 0) return 0;
  const result = await db
    .deleteFrom("webhook_deliveries")
    .where(
      "id",
      "in",
      ids.map((r) => r.id),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteOldEvents(db: Executor, cutoff: string, limit: number): Promise<number> {
  const ids = await db
    .selectFrom("webhook_events as ev")
    .select("ev.id")
    .where("ev.created_at", "<", cutoff)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom("webhook_deliveries as d").select("d.id").whereRef("d.event_id", "=", "ev.id"))))
    .orderBy("ev.created_at")
    .limit(limit)
    .execute();
  if (ids.length === 0) return 0;
  const result = await db
    .deleteFrom("webhook_events")
    .where(
      "id",
      "in",
      ids.map((r) => r.id),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Staff who can act on a disabled endpoint: admins by role or by the company's domain (the one rule filters them again). */
export function selectAdminEmails(db: Executor, adminEmailDomain: string, limit: number): Promise<Array<{ email: string; role: string }>> {
  return db
    .selectFrom("users")
    .select(["email", "role"])
    .where((eb) => eb.or([eb("role", "=", "admin"), eb("email", "like", `%@${adminEmailDomain}`)]))
    .orderBy("email")
    .limit(limit)
    .execute();
}
