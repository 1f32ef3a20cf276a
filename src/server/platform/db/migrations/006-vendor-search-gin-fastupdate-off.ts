import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * PostgreSQL only: the vendor-search GIN index (004) stops buffering new entries in its "pending
 * list". With fastupdate on, entries written since the last vacuum sit in an unsorted list that
 * every search reads in full: after a bulk load of 5,000 vendors, 71 pending pages made a search
 * take 1.2 ms of execution instead of 0.1 ms (and 8 ms cold). Vendors are written rarely and
 * searched on every keystroke, so writes pay instead. The pending list is flushed here once.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  // The index exists only where pg_trgm could be installed (004).
  const found = await sql<{ present: boolean }>`select to_regclass('vendors_search_trgm_idx') is not null as present`.execute(db);
  if (!found.rows[0]?.present) return;
  await sql`alter index vendors_search_trgm_idx set (fastupdate = off)`.execute(db);
  await sql`select gin_clean_pending_list('vendors_search_trgm_idx'::regclass)`.execute(db);
}
