import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * SQLite only: gives each vendor a stable integer search key and makes it the FTS5 rowid, so a
 * search joins FTS matches to vendors by integer primary key and can walk matches newest-first
 * (rowid desc) and stop at a page, instead of reading every match's UNINDEXED vendor_id from the
 * FTS content table (measured: 100 ms for a term matching 13k of 50k vendors, see
 * docs/decisions/0003-vendor-search.md). Triggers also find the FTS row by key, not by scan.
 * PostgreSQL keeps its pg_trgm index from 004 unchanged.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  const body = (row: "new" | "v") => `${row}.name || ' ' || ${row}.owner_name || ' ' || ${row}.email || ' ' || ${row}.slug`;
  for (const trigger of ["vendor_search_insert", "vendor_search_update", "vendor_search_delete"]) {
    await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
  }
  await sql`drop table if exists vendor_search`.execute(db);

  // key: INTEGER PRIMARY KEY, so VACUUM never renumbers it (implicit rowids may change).
  await sql`create table vendor_search_keys (key integer primary key, vendor_id text not null unique)`.execute(db);
  await sql`create virtual table vendor_search using fts5(body, tokenize = 'trigram case_sensitive 0')`.execute(db);
  // Existing vendors get keys in joined order, so rowid order is newest-first for them too.
  await sql`insert into vendor_search_keys (vendor_id) select id from vendors order by joined_at, id`.execute(db);
  await sql.raw(`insert into vendor_search (rowid, body) select k.key, ${body("v")} from vendor_search_keys k join vendors v on v.id = k.vendor_id`).execute(db);
  await sql
    .raw(
      `create trigger vendor_search_insert after insert on vendors begin
        insert into vendor_search_keys (vendor_id) values (new.id);
        insert into vendor_search (rowid, body) values ((select key from vendor_search_keys where vendor_id = new.id), ${body("new")});
      end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger vendor_search_update after update of name, owner_name, email, slug on vendors begin
        update vendor_search set body = ${body("new")} where rowid = (select key from vendor_search_keys where vendor_id = old.id);
      end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger vendor_search_delete after delete on vendors begin
        delete from vendor_search where rowid = (select key from vendor_search_keys where vendor_id = old.id);
        delete from vendor_search_keys where vendor_id = old.id;
      end`,
    )
    .execute(db);
}
