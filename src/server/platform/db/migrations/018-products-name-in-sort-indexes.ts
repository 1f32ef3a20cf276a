import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * The product name in each `(status, K, id)` sort index (docs/product.md §16.2): a search across
 * vendors that matches many products walks its sort's index keeping the names that match, and
 * with the name in the index entry that test reads no table row (a step of the walk costs tens of
 * nanoseconds instead of a row lookup). SQLite: `(status, K, id, name)`; PostgreSQL:
 * `(status, K, id) include (name_search)` (the lower-cased name its trigram index holds). Each
 * replaces the index of migration 013 it extends (the same walks use it).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // The sort keys of migration 013's indexes (a migration keeps its own copy: it never changes).
  const sortColumns: Record<string, string> = { created: "created_at", price: "price_cents", sold: "units_sold", revenue: "revenue_cents" };
  for (const [name, column] of Object.entries(sortColumns)) {
    const index = sql.id(`products_status_${name}_name_idx`);
    if (postgres) await sql`create index ${index} on products (status, ${sql.id(column)}, id) include (name_search)`.execute(db);
    else await sql`create index ${index} on products (status, ${sql.id(column)}, id, name)`.execute(db);
    await sql`drop index ${sql.id(`products_status_${name}_idx`)}`.execute(db);
  }
}
