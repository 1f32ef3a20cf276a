import type { Kysely } from "kysely";

/**
 * The whole data model (docs/product.md §11.10). Only portable column types are used (text, integer,
 * bigint) so the same migration has the same effect on SQLite and PostgreSQL.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("name", "text")
    .addColumn("role", "text", (c) => c.notNull().defaultTo("user"))
    .addColumn("password_hash", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .execute();
  await db.schema.createIndex("sessions_user_idx").on("sessions").column("user_id").execute();
  await db.schema.createIndex("sessions_expires_idx").on("sessions").column("expires_at").execute();

  await db.schema
    .createTable("rate_limits")
    .addColumn("bucket", "text", (c) => c.primaryKey())
    .addColumn("window_started_at", "bigint", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("vendors")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("owner_name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("owner_user_id", "text")
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("is_internal", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("joined_at", "text", (c) => c.notNull())
    .addColumn("theme", "text", (c) => c.notNull().defaultTo("default"))
    .addColumn("primary_color", "text", (c) => c.notNull().defaultTo("#111827"))
    .addColumn("secondary_color", "text", (c) => c.notNull().defaultTo("#6b7280"))
    .addColumn("about", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("custom_css", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("custom_html", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // The list orders by newest first with a stable tie-break; filters lead with the flags.
  await db.schema.createIndex("vendors_joined_idx").on("vendors").columns(["joined_at", "id"]).execute();
  await db.schema.createIndex("vendors_active_joined_idx").on("vendors").columns(["is_active", "joined_at", "id"]).execute();
  await db.schema.createIndex("vendors_internal_joined_idx").on("vendors").columns(["is_internal", "joined_at", "id"]).execute();
  await db.schema.createIndex("vendors_owner_user_idx").on("vendors").column("owner_user_id").execute();

  await db.schema
    .createTable("products")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("vendor_id", "text", (c) => c.notNull().references("vendors.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("price_cents", "bigint", (c) => c.notNull())
    .addColumn("inventory", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("listed"))
    .addColumn("units_sold", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("revenue_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("products_vendor_created_idx").on("products").columns(["vendor_id", "created_at", "id"]).execute();
  await db.schema.createIndex("products_created_idx").on("products").columns(["created_at", "id"]).execute();

  await db.schema
    .createTable("orders")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("vendor_id", "text", (c) => c.notNull().references("vendors.id"))
    .addColumn("product_id", "text")
    .addColumn("product_name", "text", (c) => c.notNull())
    .addColumn("quantity", "integer", (c) => c.notNull())
    .addColumn("gross_cents", "bigint", (c) => c.notNull())
    .addColumn("fee_cents", "bigint", (c) => c.notNull())
    .addColumn("fee_rate_basis_points", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("customer_email", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("orders_vendor_created_idx").on("orders").columns(["vendor_id", "created_at", "id"]).execute();
  await db.schema.createIndex("orders_created_idx").on("orders").columns(["created_at", "id"]).execute();
  await db.schema.createIndex("orders_product_idx").on("orders").column("product_id").execute();

  await db.schema
    .createTable("subscriptions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("vendor_id", "text", (c) => c.notNull().references("vendors.id"))
    .addColumn("plan", "text", (c) => c.notNull())
    .addColumn("monthly_fee_cents", "bigint", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("started_at", "text", (c) => c.notNull())
    .addColumn("cancelled_at", "text")
    .execute();
  await db.schema.createIndex("subscriptions_vendor_idx").on("subscriptions").column("vendor_id").execute();

  await db.schema
    .createTable("store_visits")
    .addColumn("vendor_id", "text", (c) => c.notNull().references("vendors.id"))
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("visits", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("store_visits_pk", ["vendor_id", "day"])
    .execute();

  await db.schema
    .createTable("error_logs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("level", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("endpoint", "text")
    .addColumn("method", "text")
    .addColumn("status_code", "integer")
    .addColumn("user_email", "text")
    .addColumn("ip_address", "text")
    .addColumn("user_agent", "text")
    .addColumn("stack_trace", "text")
    .addColumn("context", "text")
    .addColumn("fingerprint", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("archived_at", "text")
    .addColumn("archived", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  // Keyset pagination newest-first, per view and per level (issue 5).
  await db.schema.createIndex("error_logs_view_idx").on("error_logs").columns(["archived", "created_at", "id"]).execute();
  await db.schema.createIndex("error_logs_view_level_idx").on("error_logs").columns(["archived", "level", "created_at", "id"]).execute();
  // Cleanup of old archives walks archived_at.
  await db.schema.createIndex("error_logs_archived_at_idx").on("error_logs").column("archived_at").execute();
  // Repeat suppression looks up the latest entry of a fingerprint.
  await db.schema.createIndex("error_logs_fingerprint_idx").on("error_logs").columns(["fingerprint", "created_at"]).execute();

  await db.schema
    .createTable("platform_settings")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("updated_by", "text")
    .execute();

  await db.schema
    .createTable("platform_setting_changes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("old_value", "text")
    .addColumn("new_value", "text", (c) => c.notNull())
    .addColumn("changed_by", "text", (c) => c.notNull())
    .addColumn("changed_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("setting_changes_key_idx").on("platform_setting_changes").columns(["key", "changed_at"]).execute();

  await db.schema
    .createTable("audit_log")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("actor_email", "text", (c) => c.notNull())
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("target_type", "text", (c) => c.notNull())
    .addColumn("target_id", "text", (c) => c.notNull())
    .addColumn("details", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("audit_log_created_idx").on("audit_log").columns(["created_at", "id"]).execute();
  await db.schema.createIndex("audit_log_target_idx").on("audit_log").columns(["target_type", "target_id"]).execute();

  await db.schema
    .createTable("daily_platform_totals")
    .addColumn("day", "text", (c) => c.primaryKey())
    .addColumn("gross_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("orders", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("fees_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("items_sold", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("new_vendors", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("new_products", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("daily_vendor_totals")
    .addColumn("vendor_id", "text", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("gross_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("orders", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("fees_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("items_sold", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("daily_vendor_totals_pk", ["vendor_id", "day"])
    .execute();

  await db.schema
    .createTable("vendor_totals")
    .addColumn("vendor_id", "text", (c) => c.primaryKey())
    .addColumn("listed_products", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("gross_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("orders", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("fees_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("items_sold", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("visits", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_sale_at", "text")
    .execute();

  await db.schema
    .createTable("counters")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("value", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
}
