import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * Featured artist, top lists and the dashboard's "needs attention" counts (issue 22,
 * docs/product.md §18, docs/decisions/0013-top-lists.md):
 * - `featured_artists`: one row per featured slot (current, queued or past). A slot runs from
 *   `starts_at` to `ends_at`, or to `ended_at` when it ended early (replaced, ended by an admin,
 *   its vendor disabled or deleted); `vendor_name` is kept so the history outlives the vendor.
 * - `product_sales_days`: paid sales per product and UTC day (the ledger keeps it with each order).
 * - `product_period_totals` / `vendor_period_totals`: sales over the rolling 7/30/90-day windows
 *   that end on `period_windows.last_day`, kept by the ledger with each order and moved forward
 *   a day at a time as days roll over; internal vendors are left out. An index on
 *   (period_days, gross_cents) makes a top-N one index walk.
 * - `error_log_hours`: error-log entries written per UTC hour and level, kept by a database
 *   trigger on insert (like error_log_counts, migration 003), whoever writes them.
 * - an index on open invitations by expiry, for "invitations expiring within 2 days".
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("featured_artists")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("vendor_id", "text", (c) => c.notNull())
    .addColumn("vendor_name", "text", (c) => c.notNull())
    .addColumn("duration_days", "integer", (c) => c.notNull())
    .addColumn("starts_at", "text", (c) => c.notNull())
    .addColumn("ends_at", "text", (c) => c.notNull())
    .addColumn("ended_at", "text")
    .addColumn("end_reason", "text")
    .addColumn("set_by", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  // Live slots (current and queued) are the few rows with ends_at in the future.
  await db.schema.createIndex("featured_artists_ends_idx").on("featured_artists").columns(["ends_at", "starts_at"]).execute();
  await db.schema.createIndex("featured_artists_starts_idx").on("featured_artists").columns(["starts_at", "id"]).execute();
  await db.schema.createIndex("featured_artists_vendor_idx").on("featured_artists").columns(["vendor_id", "ends_at"]).execute();

  await db.schema
    .createTable("product_sales_days")
    .addColumn("product_id", "text", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("vendor_id", "text", (c) => c.notNull())
    .addColumn("gross_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("orders", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("units", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("product_sales_days_pk", ["product_id", "day"])
    .execute();
  await db.schema.createIndex("product_sales_days_day_idx").on("product_sales_days").columns(["day", "product_id"]).execute();

  await db.schema
    .createTable("product_period_totals")
    .addColumn("product_id", "text", (c) => c.notNull())
    .addColumn("period_days", "integer", (c) => c.notNull())
    .addColumn("vendor_id", "text", (c) => c.notNull())
    .addColumn("gross_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("orders", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("units", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("product_period_totals_pk", ["product_id", "period_days"])
    .execute();
  await db.schema.createIndex("product_period_totals_top_idx").on("product_period_totals").columns(["period_days", "gross_cents", "product_id"]).execute();

  await db.schema
    .createTable("vendor_period_totals")
    .addColumn("vendor_id", "text", (c) => c.notNull())
    .addColumn("period_days", "integer", (c) => c.notNull())
    .addColumn("gross_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("orders", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("units", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("vendor_period_totals_pk", ["vendor_id", "period_days"])
    .execute();
  await db.schema.createIndex("vendor_period_totals_top_idx").on("vendor_period_totals").columns(["period_days", "gross_cents", "vendor_id"]).execute();

  await db.schema
    .createTable("period_windows")
    .addColumn("period_days", "integer", (c) => c.primaryKey())
    .addColumn("last_day", "text", (c) => c.notNull())
    .execute();

  // Existing paid orders become per-product days (start-up runs migrations before anything writes).
  // The period totals start empty with no window row: the first roll (job or read) fills them.
  await sql`insert into product_sales_days (product_id, day, vendor_id, gross_cents, orders, units)
    select product_id, substr(created_at, 1, 10), vendor_id, sum(gross_cents), count(*), sum(quantity)
    from orders where status = 'paid' and product_id is not null
    group by product_id, substr(created_at, 1, 10), vendor_id`.execute(db);

  await db.schema
    .createTable("error_log_hours")
    .addColumn("hour", "text", (c) => c.notNull())
    .addColumn("level", "text", (c) => c.notNull())
    .addColumn("entries", "bigint", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("error_log_hours_pk", ["hour", "level"])
    .execute();
  await sql`insert into error_log_hours (hour, level, entries)
    select substr(created_at, 1, 13), level, count(*) from error_logs group by substr(created_at, 1, 13), level`.execute(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql
      .raw(
        `create function error_logs_hour_insert_fn() returns trigger language plpgsql as $fn$
         begin
           insert into error_log_hours (hour, level, entries)
             select substr(created_at, 1, 13), level, count(*) from new_rows group by substr(created_at, 1, 13), level
             on conflict (hour, level) do update set entries = error_log_hours.entries + excluded.entries;
           return null;
         end $fn$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger error_logs_hour_insert after insert on error_logs
         referencing new table as new_rows for each statement execute function error_logs_hour_insert_fn()`,
      )
      .execute(db);
  } else {
    await sql
      .raw(
        `create trigger error_logs_hour_insert after insert on error_logs begin
           insert into error_log_hours (hour, level, entries) values (substr(NEW.created_at, 1, 13), NEW.level, 1)
             on conflict (hour, level) do update set entries = entries + 1;
         end`,
      )
      .execute(db);
  }

  await sql`create index user_invitations_open_expiry_idx on user_invitations (expires_at) where accepted_at is null and revoked_at is null`.execute(db);
}
