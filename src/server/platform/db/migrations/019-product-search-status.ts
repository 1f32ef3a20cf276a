import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * SQLite: each product's status beside its search key (`product_search_keys.status`), kept by the
 * insert trigger and a new trigger on a change of status. A search across vendors with a status
 * filter counts that status among its first matches (docs/product.md §16.2) by reading this small
 * table in key order (the order the trigram index yields), not each product's row: at a million
 * products that row read cost some 10 µs a match. PostgreSQL needs nothing: its trigram matches
 * are rows of products already.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  const run = (statement: string) => sql.raw(statement).execute(db);
  await run(`alter table product_search_keys add column status text not null default 'listed'`);
  await run(`update product_search_keys set status = p.status from products p where p.id = product_search_keys.product_id and p.status <> 'listed'`);
  await run(`drop trigger product_search_insert`);
  await run(`create trigger product_search_insert after insert on products begin
    insert into product_search_keys (product_id, status) values (new.id, new.status);
    insert into product_search (rowid, body) values ((select key from product_search_keys where product_id = new.id), new.name);
  end`);
  await run(`create trigger product_search_status after update of status on products begin
    update product_search_keys set status = new.status where product_id = new.id;
  end`);
}
