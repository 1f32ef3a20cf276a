import type { Kysely } from "kysely";

/**
 * Who may sell and what goes live (docs/product.md "Applications and listing review"):
 * - `vendors.approval_status`: `approved` (every artist before this migration), `pending` (an
 *   application waiting for a decision), `changes_requested` (the operator asked the artist for more)
 *   or `rejected`; an artist not approved is never active. `application` keeps what the artist sent
 *   (JSON: portfolioUrl, statement, sampleImageUrls, referral) and `applied_at` when it arrived: the
 *   Applications queue is the `(approval_status, applied_at, id)` index, oldest first.
 * - `vendors.status_reason`: the reason of the latest status decision, shown on the artist's page;
 *   `vendor_status_changes` is every decision on an artist's status with who, when and why.
 * - `vendors.trusted`: an artist whose listings skip review; `vendors.takedowns`: how many of the
 *   artist's listings were taken down for infringement (kept by the ledger with each takedown).
 * - Products may be `pending_review` (waiting in the Review queue, not live) or `rejected` (refused
 *   by an operator); the queue is the existing `(status, created_at, id)` index. A moderation row
 *   may be an `approve` or `reject`, and marks an infringement takedown.
 * - Counters `vendors_pending` and `products_pending_review`, `products_rejected` (none before).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("vendors")
    .addColumn("approval_status", "text", (c) => c.notNull().defaultTo("approved"))
    .execute();
  await db.schema.alterTable("vendors").addColumn("application", "text").execute();
  await db.schema.alterTable("vendors").addColumn("applied_at", "text").execute();
  await db.schema.alterTable("vendors").addColumn("status_reason", "text").execute();
  await db.schema
    .alterTable("vendors")
    .addColumn("trusted", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("vendors")
    .addColumn("takedowns", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("vendors_applications_idx").on("vendors").columns(["approval_status", "applied_at", "id"]).execute();

  await db.schema
    .createTable("vendor_status_changes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("vendor_id", "text", (c) => c.notNull())
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("from_status", "text", (c) => c.notNull())
    .addColumn("to_status", "text", (c) => c.notNull())
    .addColumn("reason", "text")
    .addColumn("actor_id", "text")
    .addColumn("actor_email", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("vendor_status_changes_vendor_idx").on("vendor_status_changes").columns(["vendor_id", "created_at", "id"]).execute();

  await db.schema
    .alterTable("product_moderations")
    .addColumn("infringement", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}
