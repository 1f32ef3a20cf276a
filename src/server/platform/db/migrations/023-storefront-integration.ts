import type { Kysely } from "kysely";

/**
 * The storefront's door (docs/integration.md):
 * - `api_keys`: keys services call the API with; only the sha256 of a key is stored (a key is 32
 *   random bytes, so a fast hash is enough), with its prefix and last four characters to tell keys
 *   apart, its scopes (JSON list), who made it, when it was last used and when it was revoked;
 * - `storefront_events`: every event applied (or found stale) by its sender's id, with the sha256 of
 *   its body, so a re-sent event changes nothing and the same id with another body is refused;
 *   kept at least 30 days (the `storefront.events_retention` job deletes older ones);
 * - `storefront_versions`: the newest `occurredAt` applied per thing ("artist:<id>",
 *   "product:<id>", …), so an older update arriving late is answered `stale`;
 * - the storefront's own ids on the rows they became (`external_id`; an order's storefront order
 *   and line ids), each unique, so an event finds its row and an operator can search by them;
 * - `products.storefront_status`: the status the artist gave the product (draft, active,
 *   archived), kept apart from the panel's status, which an operator's hide overrides;
 * - `order_refunds`: refunds the storefront made, per order row, by the storefront's refund id;
 *   an order's gross is what remains paid after its refunds (ledger/orders.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("api_keys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("key_hash", "text", (c) => c.notNull().unique())
    .addColumn("prefix", "text", (c) => c.notNull())
    .addColumn("last_four", "text", (c) => c.notNull())
    .addColumn("created_by_id", "text")
    .addColumn("created_by_email", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_used_at", "text")
    .addColumn("revoked_at", "text")
    .addColumn("revoked_by_email", "text")
    .execute();
  await db.schema.createIndex("api_keys_created_idx").on("api_keys").columns(["created_at", "id"]).execute();

  await db.schema
    .createTable("storefront_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("body_hash", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("api_key_id", "text")
    .addColumn("received_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("storefront_events_received_idx").on("storefront_events").columns(["received_at", "id"]).execute();

  await db.schema
    .createTable("storefront_versions")
    .addColumn("thing", "text", (c) => c.primaryKey())
    .addColumn("occurred_at", "text", (c) => c.notNull())
    .addColumn("deleted", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema.alterTable("vendors").addColumn("external_id", "text").execute();
  await db.schema.createIndex("vendors_external_idx").on("vendors").column("external_id").unique().execute();
  await db.schema.alterTable("products").addColumn("external_id", "text").execute();
  await db.schema.alterTable("products").addColumn("storefront_status", "text").execute();
  await db.schema.createIndex("products_external_idx").on("products").column("external_id").unique().execute();
  await db.schema.alterTable("orders").addColumn("external_order_id", "text").execute();
  await db.schema.alterTable("orders").addColumn("external_line_id", "text").execute();
  await db.schema.createIndex("orders_external_idx").on("orders").columns(["external_order_id", "external_line_id"]).unique().execute();
  await db.schema.alterTable("subscriptions").addColumn("external_id", "text").execute();
  await db.schema.alterTable("subscriptions").addColumn("current_period_end", "text").execute();
  await db.schema.createIndex("subscriptions_external_idx").on("subscriptions").columns(["external_id", "status"]).execute();

  await db.schema
    .createTable("order_refunds")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("order_id", "text", (c) => c.notNull())
    .addColumn("external_refund_id", "text", (c) => c.notNull())
    .addColumn("amount_cents", "bigint", (c) => c.notNull())
    .addColumn("refunded_at", "text", (c) => c.notNull())
    .addColumn("reason", "text")
    .execute();
  await db.schema.createIndex("order_refunds_order_idx").on("order_refunds").columns(["order_id", "external_refund_id"]).unique().execute();
  await db.schema.createIndex("order_refunds_refund_idx").on("order_refunds").column("external_refund_id").execute();
}
