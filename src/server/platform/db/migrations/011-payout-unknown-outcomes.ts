import type { Kysely } from "kysely";

/**
 * Payouts whose outcome is unknown, and reconciliation against Stripe (docs/product.md §15.3, issue 18):
 * - `payouts.checked_at`: when the payout's outcome was last asked of Stripe (a payout in `unknown`
 *   is settled by listing the run's transfers);
 * - `payout_runs.unknown`: the run's payouts whose outcome is unknown (a rollup like its other
 *   counts); `payout_runs.held`: artists owed at least the minimum that the run left out because a
 *   payout to them was still being sent or had an unknown outcome;
 * - `stripe_reconciliations`: one row per daily comparison of Stripe's transfers with the ledger;
 * - `stripe_reconciliation_differences`: what a comparison found (a transfer the ledger does not
 *   know, an amount that differs, a paid payout Stripe has no transfer for), one row per
 *   difference (`key` unique), open until a later comparison no longer finds it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("payouts").addColumn("checked_at", "text").execute();
  await db.schema
    .alterTable("payout_runs")
    .addColumn("unknown", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("payout_runs")
    .addColumn("held", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("stripe_reconciliations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("started_at", "text", (c) => c.notNull())
    .addColumn("finished_at", "text")
    .addColumn("since", "text", (c) => c.notNull())
    .addColumn("runs", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("transfers", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("payouts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("differences", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("error", "text")
    .execute();
  await db.schema.createIndex("stripe_reconciliations_started_idx").on("stripe_reconciliations").columns(["started_at", "id"]).execute();

  await db.schema
    .createTable("stripe_reconciliation_differences")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("key", "text", (c) => c.notNull().unique())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("run_id", "text", (c) => c.notNull())
    .addColumn("payout_id", "text")
    .addColumn("vendor_id", "text")
    .addColumn("vendor_name", "text")
    .addColumn("destination", "text")
    .addColumn("stripe_transfer_id", "text")
    .addColumn("stripe_amount_cents", "bigint")
    .addColumn("ledger_amount_cents", "bigint")
    .addColumn("detail", "text", (c) => c.notNull())
    .addColumn("open", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("found_at", "text", (c) => c.notNull())
    .addColumn("last_seen_at", "text", (c) => c.notNull())
    .addColumn("resolved_at", "text")
    .execute();
  await db.schema.createIndex("stripe_differences_open_idx").on("stripe_reconciliation_differences").columns(["open", "found_at", "id"]).execute();
  await db.schema.createIndex("stripe_differences_run_idx").on("stripe_reconciliation_differences").columns(["run_id", "open"]).execute();
}
