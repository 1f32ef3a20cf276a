import { type Kysely, PostgresAdapter, sql } from "kysely";
import { logEvent, processLog } from "../../logging/logger.ts";

/**
 * The products catalogue (docs/product.md §16): every product of the marketplace found, sorted and
 * moderated without a scan.
 * - Moderation: products may now be `hidden` (taken down by an operator, with the reason the artist
 *   is shown), who did it and when; every hide and restore is a row of `product_moderations`.
 * - Sorts: each order (newest, price, units sold, revenue) has a `(status, K, id)` and a
 *   `(vendor_id, status, K, id)` index, so every keyset page is an index walk: a list of several
 *   statuses merges one walk per status (there are three).
 * - Search by name: a trigram index as vendor search has (docs/decisions/0003-vendor-search.md):
 *   SQLite an FTS5 trigram table keyed by a stable integer (`product_search_keys`) and kept by
 *   triggers; PostgreSQL a generated lower-cased `name_search` column with a pg_trgm GIN index.
 * - Counters: `products_hidden`, and `vendors_over_product_limit` (vendors whose listed products
 *   exceed the max_products_per_vendor setting), with an index on vendor_totals.listed_products so
 *   that a change of the setting recounts by an index range.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema.alterTable("products").addColumn("moderation_reason", "text").execute();
  await db.schema.alterTable("products").addColumn("moderated_at", "text").execute();
  await db.schema.alterTable("products").addColumn("moderated_by", "text").execute();

  await db.schema
    .createTable("product_moderations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("product_id", "text", (c) => c.notNull())
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("from_status", "text", (c) => c.notNull())
    .addColumn("to_status", "text", (c) => c.notNull())
    .addColumn("reason", "text")
    .addColumn("actor_id", "text")
    .addColumn("actor_email", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("product_moderations_product_idx").on("product_moderations").columns(["product_id", "created_at", "id"]).execute();

  for (const [name, column] of [
    ["created", "created_at"],
    ["price", "price_cents"],
    ["sold", "units_sold"],
    ["revenue", "revenue_cents"],
  ] as const) {
    await db.schema.createIndex(`products_status_${name}_idx`).on("products").columns(["status", column, "id"]).execute();
    await db.schema.createIndex(`products_vendor_status_${name}_idx`).on("products").columns(["vendor_id", "status", column, "id"]).execute();
  }
  await db.schema.createIndex("vendor_totals_listed_idx").on("vendor_totals").columns(["listed_products", "vendor_id"]).execute();

  // No product was hidden before this migration; vendors over the limit are counted once here.
  const setting = await sql<{ value: string }>`select value from platform_settings where key = 'max_products_per_vendor'`.execute(db);
  const parsed = Number(setting.rows[0]?.value ?? "100");
  const limit = Number.isInteger(parsed) && parsed > 0 ? parsed : 100;
  const over = await sql<{ n: number | string }>`select count(*) as n from vendor_totals where listed_products > ${limit}`.execute(db);
  await sql`insert into counters (name, value) values ('products_hidden', 0), ('vendors_over_product_limit', ${Number(over.rows[0]?.n ?? 0)})
    on conflict (name) do nothing`.execute(db);

  if (postgres) await searchPostgres(db);
  else await searchSqlite(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
async function searchSqlite(db: Kysely<any>): Promise<void> {
  // key: INTEGER PRIMARY KEY, so VACUUM never renumbers it; the FTS rowid is that key (as migration 005).
  await sql`create table product_search_keys (key integer primary key, product_id text not null unique)`.execute(db);
  await sql`create virtual table product_search using fts5(body, tokenize = 'trigram case_sensitive 0')`.execute(db);
  await sql`insert into product_search_keys (product_id) select id from products order by created_at, id`.execute(db);
  await sql`insert into product_search (rowid, body) select k.key, p.name from product_search_keys k join products p on p.id = k.product_id`.execute(db);
  await sql
    .raw(
      `create trigger product_search_insert after insert on products begin
        insert into product_search_keys (product_id) values (new.id);
        insert into product_search (rowid, body) values ((select key from product_search_keys where product_id = new.id), new.name);
      end`,
    )
    .execute(db);
  // Only a rename touches the index (sales and status changes do not).
  await sql
    .raw(
      `create trigger product_search_update after update of name on products begin
        update product_search set body = new.name where rowid = (select key from product_search_keys where product_id = old.id);
      end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger product_search_delete after delete on products begin
        delete from product_search where rowid = (select key from product_search_keys where product_id = old.id);
        delete from product_search_keys where product_id = old.id;
      end`,
    )
    .execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
async function searchPostgres(db: Kysely<any>): Promise<void> {
  await sql`alter table products add column name_search text generated always as (lower(name)) stored`.execute(db);
  // pg_trgm as in migration 004 (inside a savepoint: without the privilege search still works, as a scan).
  const inTransaction = db.isTransaction;
  if (inTransaction) await sql`savepoint product_search_trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
    if (inTransaction) await sql`release savepoint product_search_trgm`.execute(db);
  } catch (err) {
    if (inTransaction) await sql`rollback to savepoint product_search_trgm`.execute(db);
    logEvent(processLog(), "warn", "pg_trgm unavailable, product search will scan", { err });
  }
  const ext = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
    join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  const schema = ext.rows[0]?.schema;
  if (schema) {
    // fastupdate off for the reason of migration 006: searches never read an unsorted pending list.
    await sql`create index products_name_trgm_idx on products using gin (name_search ${sql.id(schema)}.gin_trgm_ops) with (fastupdate = off)`.execute(db);
  }
}
