import type { Kysely } from "kysely";

/**
 * Hardening (issue 15):
 * - `error_logs.request_id`: the request (X-Request-Id) behind each entry, as in the access log.
 * - `error_log_drops`: entries the error-log budgets dropped, per hour and level, shown on the
 *   health page (docs/product.md §5.3, §8.1).
 * - `rate_limits_window_idx`: the sweep of expired counters reads them by window start.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("error_logs").addColumn("request_id", "text").execute();
  await db.schema
    .createTable("error_log_drops")
    .addColumn("hour", "text", (c) => c.notNull())
    .addColumn("level", "text", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("error_log_drops_pk", ["hour", "level"])
    .execute();
  await db.schema.createIndex("rate_limits_window_idx").on("rate_limits").column("window_started_at").execute();
}
