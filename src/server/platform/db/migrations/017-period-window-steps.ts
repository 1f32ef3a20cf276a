import type { Kysely } from "kysely";

/**
 * A window's day step in chunks of products (docs/decisions/0013-top-lists.md): while a step is
 * under way, `step_to` is the day the window is moving to and `step_cursor` the last product id
 * already moved (null: none yet). Products at or below the cursor end on `step_to`, the others
 * still on `last_day`; the ledger's per-order rule reads both. No step under way: both null.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("period_windows").addColumn("step_to", "text").execute();
  await db.schema.alterTable("period_windows").addColumn("step_cursor", "text").execute();
}
