import { type Kysely, PostgresAdapter, sql } from "kysely";
import { logEvent, processLog } from "../../logging/logger.ts";

/**
 * Indexed substring search over vendors' name, owner, e-mail and slug (docs/decisions/0003-vendor-search.md).
 * A leading-wildcard LIKE cannot use a b-tree, so each database gets a trigram index:
 * - SQLite: an FTS5 table with the trigram tokenizer (case-insensitive), kept in sync by triggers on
 *   vendors, so every writer (ledger, seed, bulk generator, raw SQL) keeps it right;
 * - PostgreSQL: a generated lower-cased `search_text` column with a pg_trgm GIN index when the
 *   extension can be installed (without it search still works, as a scan).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await upPostgres(db);
  else await upSqlite(db);
}

/** The text searched: one string, so a query matches wherever the part sits. */
const SQLITE_BODY = (row: "new" | "old" | "v") => `${row}.name || ' ' || ${row}.owner_name || ' ' || ${row}.email || ' ' || ${row}.slug`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
async function upSqlite(db: Kysely<any>): Promise<void> {
  await sql`create virtual table vendor_search using fts5(vendor_id unindexed, body, tokenize = 'trigram case_sensitive 0')`.execute(db);
  await sql.raw(`insert into vendor_search (vendor_id, body) select v.id, ${SQLITE_BODY("v")} from vendors v`).execute(db);
  await sql
    .raw(
      `create trigger vendor_search_insert after insert on vendors begin
        insert into vendor_search (vendor_id, body) values (new.id, ${SQLITE_BODY("new")});
      end`,
    )
    .execute(db);
  // Only changes of the searched columns touch the index (enable/disable does not).
  await sql
    .raw(
      `create trigger vendor_search_update after update of name, owner_name, email, slug on vendors begin
        delete from vendor_search where vendor_id = old.id;
        insert into vendor_search (vendor_id, body) values (new.id, ${SQLITE_BODY("new")});
      end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger vendor_search_delete after delete on vendors begin
        delete from vendor_search where vendor_id = old.id;
      end`,
    )
    .execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
async function upPostgres(db: Kysely<any>): Promise<void> {
  await sql`alter table vendors add column search_text text generated always as
    (lower(name || ' ' || owner_name || ' ' || email || ' ' || slug)) stored`.execute(db);

  // Installing an extension needs privileges we may not have; a failure must not abort the
  // migration's transaction, hence the savepoint. It goes into "public" so that dropping one
  // schema (tests give each context its own) never drops it for the others.
  const inTransaction = db.isTransaction;
  if (inTransaction) await sql`savepoint vendor_search_trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
    if (inTransaction) await sql`release savepoint vendor_search_trgm`.execute(db);
  } catch (err) {
    if (inTransaction) await sql`rollback to savepoint vendor_search_trgm`.execute(db);
    logEvent(processLog(), "warn", "pg_trgm unavailable, vendor search will scan", { err });
  }
  const ext = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
    join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  const schema = ext.rows[0]?.schema;
  if (schema) {
    await sql`create index vendors_search_trgm_idx on vendors using gin (search_text ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
  }
}
