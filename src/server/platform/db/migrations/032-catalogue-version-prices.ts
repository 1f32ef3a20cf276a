import { type Kysely, PostgresAdapter, sql } from "kysely";
import { createVersionCounter } from "./version-counter.ts";

/**
 * The catalogue's version (migration 020) moves when a product's price changes too: a search's
 * matches are kept with their prices (features/products/search-counts.ts), so a page sorted by
 * price is cut from the kept matches instead of read row by row. Prices change seldom (an artist
 * edits a listing); sales, which change often, still do not move it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop trigger catalogue_version_change on products`.execute(db);
    await sql`drop function hki_bump_catalogue_version()`.execute(db);
  } else {
    for (const trigger of ["catalogue_version_insert", "catalogue_version_delete", "catalogue_version_update"]) await sql.raw(`drop trigger ${trigger}`).execute(db);
  }
  await createVersionCounter(db, { counter: "catalogue_version", table: "products", columns: ["name", "status", "price_cents"] });
}
