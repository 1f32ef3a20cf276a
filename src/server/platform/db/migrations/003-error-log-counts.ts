import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * Per-(archived, level) entry counts of error_logs, kept by database triggers in the same
 * transaction as every insert, archive (update) and delete, whoever writes: the ErrorRecorder,
 * the archive/cleanup routes, the demo seed, the bulk generator or a raw SQL statement. The Error
 * Logs screen reads these six rows instead of count(*) over up to a million entries.
 *
 * Triggers (rather than app code next to each write) because several writers exist and a single
 * forgotten one would make the cards wrong forever. SQLite has only row triggers (a few µs per
 * row); PostgreSQL uses statement triggers over transition tables, so a 2,000-row archive chunk
 * updates each count row once.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("error_log_counts")
    .addColumn("archived", "integer", (c) => c.notNull())
    .addColumn("level", "text", (c) => c.notNull())
    .addColumn("entries", "bigint", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("error_log_counts_pk", ["archived", "level"])
    .execute();

  // Entries written before this migration (start-up runs migrations before anything else writes).
  await sql`insert into error_log_counts (archived, level, entries)
    select archived, level, count(*) from error_logs group by archived, level`.execute(db);

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await createPostgresTriggers(db);
  } else {
    await createSqliteTriggers(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
async function createSqliteTriggers(db: Kysely<any>): Promise<void> {
  const bump = (row: "NEW" | "OLD", delta: 1 | -1) => `
    insert into error_log_counts (archived, level, entries) values (${row}.archived, ${row}.level, ${delta})
      on conflict (archived, level) do update set entries = entries + (${delta});`;
  await sql.raw(`create trigger error_logs_count_insert after insert on error_logs begin ${bump("NEW", 1)} end`).execute(db);
  await sql.raw(`create trigger error_logs_count_delete after delete on error_logs begin ${bump("OLD", -1)} end`).execute(db);
  await sql
    .raw(
      `create trigger error_logs_count_update after update of archived, level on error_logs
       when old.archived is not new.archived or old.level is not new.level
       begin ${bump("OLD", -1)} ${bump("NEW", 1)} end`,
    )
    .execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
async function createPostgresTriggers(db: Kysely<any>): Promise<void> {
  // Applies signed per-(archived, level) deltas computed from the statement's transition tables.
  const apply = (deltas: string) => `
    insert into error_log_counts (archived, level, entries)
      select archived, level, sum(delta) from (${deltas}) d group by archived, level having sum(delta) <> 0
      on conflict (archived, level) do update set entries = error_log_counts.entries + excluded.entries;`;
  const added = "select archived, level, 1 as delta from new_rows";
  const removed = "select archived, level, -1 as delta from old_rows";
  const fn = (name: string, body: string) =>
    sql
      .raw(
        `create function ${name}() returns trigger language plpgsql as $fn$
         begin ${body} return null; end $fn$`,
      )
      .execute(db);
  await fn("error_logs_count_insert_fn", apply(added));
  await fn("error_logs_count_delete_fn", apply(removed));
  await fn("error_logs_count_update_fn", apply(`${removed} union all ${added}`));
  await sql
    .raw(
      `create trigger error_logs_count_insert after insert on error_logs
       referencing new table as new_rows for each statement execute function error_logs_count_insert_fn()`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger error_logs_count_delete after delete on error_logs
       referencing old table as old_rows for each statement execute function error_logs_count_delete_fn()`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger error_logs_count_update after update on error_logs
       referencing old table as old_rows new table as new_rows for each statement execute function error_logs_count_update_fn()`,
    )
    .execute(db);
}
