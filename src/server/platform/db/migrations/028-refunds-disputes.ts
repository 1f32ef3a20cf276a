import { type Kysely, sql } from "kysely";

/**
 * Refunds from the panel (docs/product.md "Orders", "Refunds from the panel"):
 * - `orders.payment_intent_id` / `charge_id`: the Stripe payment the storefront's order.paid named
 *   (one per storefront order, on each of its lines), indexed: a refund is made on the payment
 *   intent, a dispute names the charge;
 * - `orders.refunded_cents` (what part refunds took, kept by the ledger) and `orders.dispute_open`
 *   (a Stripe dispute of the line is open), each behind a partial index in date order: the list's
 *   'Partly refunded' and 'Disputed' filters;
 * - `orders.refund_reserved_cents`: what refunds asked of Stripe and not yet settled hold of the
 *   line. A refund reserves its amount with one conditional update (`gross_cents -
 *   refund_reserved_cents >= amount`), so refunds of one order asked at once can never add up to
 *   more than was paid;
 * - `refunds`: one row per refund asked from the panel, its id the idempotency key Stripe gets and
 *   the `metadata.refund_id` its refund carries; `pending → succeeded | failed | unknown`, `unknown →
 *   succeeded | failed` only by listing the payment intent's refunds (`state_version` guards a
 *   settle answered late, as payouts' does);
 * - `refund_lines`: the lines a refund takes money from, and how much from each;
 * - `order_refunds.panel_refund_id`: the panel's refund a recorded refund came from;
 *   `order_refunds.netted_payout_id`: the payout that had already carried the line when it was
 *   refunded (the artist's share is then taken off their next payout: netting).
 *
 * Disputes (docs/product.md "Disputes"), from Stripe's charge.dispute.* events:
 * - `disputes`: one row per Stripe dispute (its id), attached to the order lines of its charge;
 *   `outcome` open | won | lost, `as_of` the time of the state applied (an older event is stale);
 *   indexed by (outcome, evidence_due_by) for the attention inbox;
 * - `dispute_lines`: per order line, the part of the disputed amount it carries, the artist's share
 *   held out of payouts while open, and at a loss what came off the line and the artist's part of
 *   Stripe's dispute fee;
 * - `payout_accounts.held_cents` (open disputes' holds) and `charged_cents` (dispute fees charged
 *   to the artist): the balance is earned − paid out − in flight − held − charged.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("payment_intent_id", "text").execute();
  await db.schema.alterTable("orders").addColumn("charge_id", "text").execute();
  await db.schema
    .alterTable("orders")
    .addColumn("refund_reserved_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("orders_payment_intent_idx").on("orders").column("payment_intent_id").execute();
  await db.schema.createIndex("orders_charge_idx").on("orders").column("charge_id").execute();
  // The Orders list's 'Partly refunded' and 'Disputed' filters, each a walk of a partial index in date order.
  await db.schema
    .alterTable("orders")
    .addColumn("refunded_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("orders")
    .addColumn("dispute_open", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update orders set refunded_cents = (select coalesce(sum(r.amount_cents), 0) from order_refunds r where r.order_id = orders.id)
    where id in (select order_id from order_refunds)`.execute(db);
  await db.schema
    .createIndex("orders_part_refunded_idx")
    .on("orders")
    .columns(["created_at", "id"])
    .where(sql.ref("status"), "=", sql.lit("paid"))
    .where(sql.ref("refunded_cents"), ">", sql.lit(0))
    .execute();
  await db.schema.createIndex("orders_disputed_idx").on("orders").columns(["created_at", "id"]).where(sql.ref("dispute_open"), "=", sql.lit(1)).execute();

  await db.schema.alterTable("order_refunds").addColumn("panel_refund_id", "text").execute();
  await db.schema.alterTable("order_refunds").addColumn("netted_payout_id", "text").execute();

  await db.schema
    .createTable("refunds")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("payment_intent_id", "text", (c) => c.notNull())
    .addColumn("external_order_id", "text")
    .addColumn("amount_cents", "bigint", (c) => c.notNull())
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("stripe_refund_id", "text")
    .addColumn("failure_reason", "text")
    .addColumn("created_by", "text")
    .addColumn("created_by_email", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("checked_at", "text")
    .addColumn("state_version", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("refunds_status_updated_idx").on("refunds").columns(["status", "updated_at", "id"]).execute();
  await db.schema.createIndex("refunds_payment_intent_idx").on("refunds").columns(["payment_intent_id", "created_at"]).execute();

  await db.schema
    .createTable("refund_lines")
    .addColumn("refund_id", "text", (c) => c.notNull())
    .addColumn("order_id", "text", (c) => c.notNull())
    .addColumn("amount_cents", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("refund_lines_pk", ["refund_id", "order_id"])
    .execute();
  await db.schema.createIndex("refund_lines_order_idx").on("refund_lines").columns(["order_id", "refund_id"]).execute();

  await db.schema
    .createTable("disputes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("charge_id", "text", (c) => c.notNull())
    .addColumn("payment_intent_id", "text")
    .addColumn("external_order_id", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("amount_cents", "bigint", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("evidence_due_by", "text")
    .addColumn("fee_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("fee_paid_by", "text")
    .addColumn("opened_at", "text", (c) => c.notNull())
    .addColumn("closed_at", "text")
    .addColumn("as_of", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("disputes_outcome_due_idx").on("disputes").columns(["outcome", "evidence_due_by", "id"]).execute();
  await db.schema.createIndex("disputes_charge_idx").on("disputes").column("charge_id").execute();

  await db.schema
    .createTable("dispute_lines")
    .addColumn("dispute_id", "text", (c) => c.notNull())
    .addColumn("order_id", "text", (c) => c.notNull())
    .addColumn("vendor_id", "text", (c) => c.notNull())
    .addColumn("amount_cents", "bigint", (c) => c.notNull())
    .addColumn("held_cents", "bigint", (c) => c.notNull())
    .addColumn("lost_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("fee_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("dispute_lines_pk", ["dispute_id", "order_id"])
    .execute();
  await db.schema.createIndex("dispute_lines_order_idx").on("dispute_lines").columns(["order_id", "dispute_id"]).execute();
  await db.schema.createIndex("dispute_lines_vendor_idx").on("dispute_lines").columns(["vendor_id", "dispute_id"]).execute();

  await db.schema
    .alterTable("payout_accounts")
    .addColumn("held_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("payout_accounts")
    .addColumn("charged_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
}
