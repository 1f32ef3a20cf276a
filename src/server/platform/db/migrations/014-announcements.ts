import type { Kysely } from "kysely";

/**
 * Announcements to artists (docs/product.md §17):
 * - `announcements`: one per announcement: its title, message (as written and rendered), audience,
 *   channels, the dashboard's end date and take-down, its status, and its counts per delivery
 *   status (kept with every change of a recipient, so history pages never count recipients);
 * - `announcement_recipients`: the delivery record of one artist for one announcement (primary
 *   key: the pair, so nobody is queued twice), with the address and name it was queued with, its
 *   status, attempts, last error, sent time, the job that claimed it while sending and how often
 *   it was found interrupted mid-send (a possible repeat).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("announcements")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("html_body", "text", (c) => c.notNull())
    .addColumn("text_body", "text", (c) => c.notNull())
    .addColumn("audience", "text", (c) => c.notNull())
    .addColumn("include_internal", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("vendor_ids", "text")
    .addColumn("send_email", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("show_on_dashboard", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("show_until", "text")
    .addColumn("taken_down_at", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("queue_cursor", "text")
    .addColumn("recipients", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("pending_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("sent_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("failed_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("canceled_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_by", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("finished_at", "text")
    .execute();
  await db.schema.createIndex("announcements_created_idx").on("announcements").columns(["created_at", "id"]).execute();
  await db.schema.createIndex("announcements_dashboard_idx").on("announcements").columns(["show_on_dashboard", "taken_down_at", "created_at"]).execute();

  await db.schema
    .createTable("announcement_recipients")
    .addColumn("announcement_id", "text", (c) => c.notNull())
    .addColumn("vendor_id", "text", (c) => c.notNull())
    .addColumn("vendor_name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("claimed_by", "text")
    .addColumn("interrupted", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_error", "text")
    .addColumn("sent_at", "text")
    .addPrimaryKeyConstraint("announcement_recipients_pk", ["announcement_id", "vendor_id"])
    .execute();
  // Claiming a batch and the recipients filtered by status, both in vendor order.
  await db.schema.createIndex("announcement_recipients_status_idx").on("announcement_recipients").columns(["announcement_id", "status", "vendor_id"]).execute();
}
