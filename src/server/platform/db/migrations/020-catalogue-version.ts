import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * The catalogue's version: a counter (`counters.catalogue_version`) that moves whenever a product
 * is added or deleted, or its name or status changes, kept by triggers so that every writer (the
 * ledger, the demo data, a CLI, psql) moves it in the same transaction as the change. A search's
 * count across vendors depends on nothing else (prices and sales do not change who matches), so it
 * is kept in memory per version and counted again only after the catalogue changed
 * (features/products/search-counts.ts; docs/performance.md). Not one of the ledger's COUNTERS: it
 * counts no rows, so a recompute leaves it alone. An upsert, so it works even where the row is missing.
 * SQLite fires per row; PostgreSQL once per statement.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  const run = (statement: string) => sql.raw(statement).execute(db);
  const bump = `insert into counters (name, value) values ('catalogue_version', 1) on conflict (name) do update set value = counters.value + 1`;
  await run(`insert into counters (name, value) values ('catalogue_version', 0) on conflict (name) do nothing`);
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await run(`create function hki_bump_catalogue_version() returns trigger language plpgsql as $$
      begin
        ${bump};
        return null;
      end $$`);
    await run(`create trigger catalogue_version_change after insert or delete or update of name, status on products for each statement execute function hki_bump_catalogue_version()`);
    return;
  }
  for (const [name, event] of [
    ["catalogue_version_insert", "insert"],
    ["catalogue_version_delete", "delete"],
    ["catalogue_version_update", "update of name, status"],
  ] as const) {
    await run(`create trigger ${name} after ${event} on products begin ${bump}; end`);
  }
}
