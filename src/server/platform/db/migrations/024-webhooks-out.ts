import type { Kysely } from "kysely";

/**
 * Decisions out (docs/integration.md "Webhooks"):
 * - `webhook_endpoints`: where the panel's decisions are sent: the address, the event types it
 *   takes (JSON list), whether it is enabled (and why not, since when), its signing secret sealed
 *   with WEBHOOK_SECRETS_KEY (AES-256-GCM) and, for 24 hours after a rotation, the previous one;
 *   `failing_since` is the first failed attempt since the last success (3 days of it disables);
 * - `webhook_events`: the outbox, one row per decision, written in the decision's transaction,
 *   holding the exact body every delivery sends;
 * - `webhook_deliveries`: one row per event and endpoint subscribed to it when it was recorded:
 *   status, attempts, the next attempt's time, the last answer (status, duration, at most 1 kB of
 *   body, error), and `locked_until`, the lease of the process sending it (a process that dies
 *   loses it, and another sends the delivery again: at least once).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("webhook_endpoints")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("events", "text", (c) => c.notNull())
    .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("disabled_reason", "text")
    .addColumn("disabled_at", "text")
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("previous_secret", "text")
    .addColumn("previous_secret_expires_at", "text")
    .addColumn("failing_since", "text")
    .addColumn("last_success_at", "text")
    .addColumn("created_by_email", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("webhook_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("webhook_events_created_idx").on("webhook_events").columns(["created_at", "id"]).execute();

  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("endpoint_id", "text", (c) => c.notNull())
    .addColumn("event_id", "text", (c) => c.notNull())
    .addColumn("event_type", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text")
    .addColumn("locked_until", "text")
    .addColumn("last_attempt_at", "text")
    .addColumn("last_status_code", "integer")
    .addColumn("last_duration_ms", "integer")
    .addColumn("last_error", "text")
    .addColumn("last_response_body", "text")
    .addColumn("delivered_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // The sender's walk: pending deliveries in the order they are due.
  await db.schema.createIndex("webhook_deliveries_due_idx").on("webhook_deliveries").columns(["status", "next_attempt_at"]).execute();
  // An endpoint's log, newest first (ids are UUIDv7: time order), all or by status.
  await db.schema.createIndex("webhook_deliveries_endpoint_idx").on("webhook_deliveries").columns(["endpoint_id", "id"]).execute();
  await db.schema.createIndex("webhook_deliveries_endpoint_status_idx").on("webhook_deliveries").columns(["endpoint_id", "status", "id"]).execute();
  await db.schema.createIndex("webhook_deliveries_event_idx").on("webhook_deliveries").column("event_id").execute();
  // The retention sweep's walk, oldest first.
  await db.schema.createIndex("webhook_deliveries_created_idx").on("webhook_deliveries").columns(["created_at", "id"]).execute();
}
