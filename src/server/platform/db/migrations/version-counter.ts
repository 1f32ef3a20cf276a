import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * A version counter in `counters` that database triggers move in the same transaction as any
 * insert, delete, or update of the given columns of a table, whoever writes it (the app, the demo
 * data, a CLI, psql). Caches keyed on it are exact across processes and replicas. Not one of the
 * ledger's COUNTERS: it counts no rows, so a recompute leaves it alone. An upsert, so it works even
 * where the row is missing. SQLite fires per row; PostgreSQL once per statement.
 */
export async function createVersionCounter(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
  db: Kysely<any>,
  version: { counter: string; table: string; columns: string[] },
): Promise<void> {
  const run = (statement: string) => sql.raw(statement).execute(db);
  const { counter, table, columns } = version;
  const bump = `insert into counters (name, value) values ('${counter}', 1) on conflict (name) do update set value = counters.value + 1`;
  await run(`insert into counters (name, value) values ('${counter}', 0) on conflict (name) do nothing`);
  const updateOf = `update of ${columns.join(", ")}`;
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await run(`create function hki_bump_${counter}() returns trigger language plpgsql as $$
      begin
        ${bump};
        return null;
      end $$`);
    await run(`create trigger ${counter}_change after insert or delete or ${updateOf} on ${table} for each statement execute function hki_bump_${counter}()`);
    return;
  }
  for (const [name, event] of [
    [`${counter}_insert`, "insert"],
    [`${counter}_delete`, "delete"],
    [`${counter}_update`, updateOf],
  ] as const) {
    await run(`create trigger ${name} after ${event} on ${table} begin ${bump}; end`);
  }
}
