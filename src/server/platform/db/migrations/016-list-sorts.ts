import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * Sorted lists (issue 23, docs/product.md §4.1 and §5.1): every order a list offers is a keyset walk
 * over an index, never a sort of the whole table.
 * - vendors by name: (name, id), and per status filter (is_active, name, id), (is_internal, name, id);
 * - vendors by products and revenue: the figures live in vendor_totals, so its rows carry copies of
 *   the vendor's is_active and is_internal flags (kept by database triggers, like error_log_counts in
 *   migration 003, whoever writes vendors or vendor_totals), and indexes (flag, figure, vendor_id)
 *   serve each status filter; without a filter (listed_products, vendor_id) from migration 013 and
 *   (gross_cents, vendor_id) here;
 * - error logs oldest first walk the existing (archived[, level], created_at, id) indexes forwards;
 * - staff by last sign-in: a user's latest session is one seek of (user_id, created_at).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("vendors_name_idx").on("vendors").columns(["name", "id"]).execute();
  await db.schema.createIndex("vendors_active_name_idx").on("vendors").columns(["is_active", "name", "id"]).execute();
  await db.schema.createIndex("vendors_internal_name_idx").on("vendors").columns(["is_internal", "name", "id"]).execute();

  await db.schema
    .alterTable("vendor_totals")
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("vendor_totals")
    .addColumn("is_internal", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update vendor_totals set
      is_active = coalesce((select v.is_active from vendors v where v.id = vendor_totals.vendor_id), 0),
      is_internal = coalesce((select v.is_internal from vendors v where v.id = vendor_totals.vendor_id), 0)`.execute(db);

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create function vendor_totals_flags_fn() returns trigger language plpgsql as $fn$
      begin
        select v.is_active, v.is_internal into new.is_active, new.is_internal from vendors v where v.id = new.vendor_id;
        new.is_active := coalesce(new.is_active, 0);
        new.is_internal := coalesce(new.is_internal, 0);
        return new;
      end $fn$`.execute(db);
    await sql`create trigger vendor_totals_flags before insert on vendor_totals for each row execute function vendor_totals_flags_fn()`.execute(db);
    await sql`create function vendors_flags_to_totals_fn() returns trigger language plpgsql as $fn$
      begin
        update vendor_totals set is_active = new.is_active, is_internal = new.is_internal
          where vendor_id = new.id and (is_active <> new.is_active or is_internal <> new.is_internal);
        return null;
      end $fn$`.execute(db);
    await sql`create trigger vendors_flags_to_totals after insert or update of is_active, is_internal on vendors
      for each row execute function vendors_flags_to_totals_fn()`.execute(db);
  } else {
    const copyFlags = (row: "NEW") => `update vendor_totals set is_active = ${row}.is_active, is_internal = ${row}.is_internal where vendor_id = ${row}.id;`;
    await sql.raw(`create trigger vendors_flags_insert after insert on vendors begin ${copyFlags("NEW")} end`).execute(db);
    await sql
      .raw(
        `create trigger vendors_flags_update after update of is_active, is_internal on vendors
         when old.is_active is not new.is_active or old.is_internal is not new.is_internal
         begin ${copyFlags("NEW")} end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger vendor_totals_flags_insert after insert on vendor_totals begin
           update vendor_totals set
             is_active = coalesce((select v.is_active from vendors v where v.id = NEW.vendor_id), 0),
             is_internal = coalesce((select v.is_internal from vendors v where v.id = NEW.vendor_id), 0)
           where vendor_id = NEW.vendor_id;
         end`,
      )
      .execute(db);
  }

  await db.schema.createIndex("sessions_user_created_idx").on("sessions").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("vendor_totals_gross_idx").on("vendor_totals").columns(["gross_cents", "vendor_id"]).execute();
  for (const flag of ["is_active", "is_internal"] as const) {
    const name = flag === "is_active" ? "active" : "internal";
    await db.schema.createIndex(`vendor_totals_${name}_listed_idx`).on("vendor_totals").columns([flag, "listed_products", "vendor_id"]).execute();
    await db.schema.createIndex(`vendor_totals_${name}_gross_idx`).on("vendor_totals").columns([flag, "gross_cents", "vendor_id"]).execute();
  }
}
