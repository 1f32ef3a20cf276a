import type { Kysely } from "kysely";

/**
 * - `jobs`: background work claimed by a worker inside a server process with a lease (jobs/), so
 *   after a crash or with several processes exactly one continues it.
 * - `audit_log` gains who did it (id, role), what it concerned (a label), before/after values and
 *   where the request came from (address, user agent, request id); indexes for the filters.
 * - `export_links`: short-lived single-use links to CSV exports (exports/), by their hash.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("jobs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("progress", "text")
    .addColumn("result", "text")
    .addColumn("error", "text")
    .addColumn("dedupe_key", "text", (c) => c.unique())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_attempts", "integer", (c) => c.notNull().defaultTo(5))
    .addColumn("cancel_requested", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("lease_owner", "text")
    .addColumn("lease_expires_at", "text")
    .addColumn("run_after", "text", (c) => c.notNull())
    .addColumn("created_by", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("started_at", "text")
    .addColumn("finished_at", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("jobs_claim_idx").on("jobs").columns(["status", "run_after"]).execute();
  await db.schema.createIndex("jobs_kind_created_idx").on("jobs").columns(["kind", "created_at", "id"]).execute();

  for (const [column, type] of [
    ["actor_id", "text"],
    ["actor_role", "text"],
    ["target_label", "text"],
    ["before_value", "text"],
    ["after_value", "text"],
    ["ip_address", "text"],
    ["user_agent", "text"],
    ["request_id", "text"],
  ] as const) {
    await db.schema.alterTable("audit_log").addColumn(column, type).execute();
  }
  await db.schema.createIndex("audit_log_actor_idx").on("audit_log").columns(["actor_email", "created_at", "id"]).execute();
  await db.schema.createIndex("audit_log_action_idx").on("audit_log").columns(["action", "created_at", "id"]).execute();
  await db.schema.createIndex("audit_log_target_time_idx").on("audit_log").columns(["target_type", "target_id", "created_at", "id"]).execute();

  await db.schema
    .createTable("export_links")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("filters", "text", (c) => c.notNull())
    .addColumn("created_by", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
}
