import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * PostgreSQL: the products' trigram index moves off the product row, into `product_search`: per
 * product its searched text and what a search keeps of each match (status, creation time, price:
 * features/products/search-counts.ts), copied by a trigger when the name, status or price changes
 * (docs/decisions/0026). Every sale updates the product's `units_sold` and `revenue_cents`, which
 * its sort indexes cover, so each sale wrote a new version of the row into every index of
 * `products`, the trigram index included: 12 % of PostgreSQL's CPU under the storefront's stream.
 * In a table of its own the index changes only when a name, status or price does, never on a sale.
 * SQLite's search index has always been a table of its own (migration 013): nothing changes there.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`create table product_search (
    product_id text primary key references products (id) on delete cascade,
    name_search text not null,
    status text not null,
    created_at text not null,
    price_cents bigint not null
  )`.execute(db);
  await sql`insert into product_search (product_id, name_search, status, created_at, price_cents)
    select id, name_search, status, created_at, price_cents from products`.execute(db);
  // An AFTER trigger sees the generated lower-cased name (products.name_search, migration 013).
  await sql
    .raw(
      `create function hki_copy_product_search() returns trigger language plpgsql as $fn$
       begin
         insert into product_search (product_id, name_search, status, created_at, price_cents)
           values (new.id, new.name_search, new.status, new.created_at, new.price_cents)
           on conflict (product_id) do update set name_search = excluded.name_search, status = excluded.status, price_cents = excluded.price_cents;
         return null;
       end $fn$`,
    )
    .execute(db);
  await sql`create trigger product_search_update after insert or update of name, status, price_cents on products for each row execute function hki_copy_product_search()`.execute(db);
  // The index exists only where pg_trgm could be installed (migration 013); fastupdate off as there.
  const ext = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
    join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  const schema = ext.rows[0]?.schema;
  if (schema) await sql`create index product_search_trgm_idx on product_search using gin (name_search ${sql.id(schema)}.gin_trgm_ops) with (fastupdate = off)`.execute(db);
  await sql`drop index if exists products_name_trgm_idx`.execute(db);
}
