import { type Kysely, sql } from "kysely";

/**
 * Financials and payouts (docs/product.md §15):
 * - `payout_accounts`: one row per vendor: its Stripe connected account and status, and the money
 *   it is owed, kept by the ledger with every order, refund and payout (earned − paid out − in
 *   flight = balance), indexed so "largest balances first" and a run's eligible vendors are index
 *   ranges;
 * - `payout_balance_totals`: vendors owed money and the sum owed, per account status (a rollup of
 *   payout_accounts, so the balances screen never counts 50k rows);
 * - `payout_runs`: one per run (its id is the job's id), with its counts per payout status;
 * - `payouts`: one transfer to one vendor, with its status, Stripe transfer id or failure;
 * - `daily_platform_totals` gains refunds (by refund day), payouts (by paid day) and the change of
 *   monthly recurring revenue (subscriptions started − cancelled that day), for the overview.
 * Existing rows are back-filled once, here, from the raw rows.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("payout_accounts")
    .addColumn("vendor_id", "text", (c) => c.primaryKey())
    .addColumn("stripe_account_id", "text")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("not_connected"))
    .addColumn("charges_enabled", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("payouts_enabled", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("requirements", "text")
    .addColumn("checked_at", "text")
    .addColumn("earned_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("paid_out_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("in_flight_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("balance_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("last_payout_at", "text")
    .execute();
  await db.schema.createIndex("payout_accounts_balance_idx").on("payout_accounts").columns(["balance_cents", "vendor_id"]).execute();
  await db.schema.createIndex("payout_accounts_status_balance_idx").on("payout_accounts").columns(["status", "balance_cents", "vendor_id"]).execute();

  await db.schema
    .createTable("payout_balance_totals")
    .addColumn("account_status", "text", (c) => c.primaryKey())
    .addColumn("vendors_owed", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("owed_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("payout_runs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("status", "text", (c) => c.notNull())
    // 1 while queued or running, null once finished: a unique index lets only one run be active.
    .addColumn("active", "integer")
    .addColumn("minimum_cents", "bigint", (c) => c.notNull())
    .addColumn("expected_payouts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expected_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("skipped", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("skipped_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("payouts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("total_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("pending", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("processing", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("paid", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("paid_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("failed", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("canceled", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("planning_done", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("plan_cursor", "text")
    .addColumn("cancel_requested", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("error", "text")
    .addColumn("created_by", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("started_at", "text")
    .addColumn("finished_at", "text")
    .execute();
  await db.schema.createIndex("payout_runs_active_idx").on("payout_runs").column("active").unique().execute();
  await db.schema.createIndex("payout_runs_created_idx").on("payout_runs").columns(["created_at", "id"]).execute();

  await db.schema
    .createTable("payouts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("run_id", "text", (c) => c.notNull())
    .addColumn("vendor_id", "text", (c) => c.notNull())
    .addColumn("vendor_name", "text", (c) => c.notNull())
    .addColumn("destination", "text", (c) => c.notNull())
    .addColumn("amount_cents", "bigint", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempt", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("reuse_key", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("stripe_transfer_id", "text")
    .addColumn("failure_reason", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("paid_at", "text")
    .execute();
  await db.schema.createIndex("payouts_run_vendor_idx").on("payouts").columns(["run_id", "vendor_id"]).unique().execute();
  await db.schema.createIndex("payouts_run_status_idx").on("payouts").columns(["run_id", "status", "id"]).execute();
  await db.schema.createIndex("payouts_created_idx").on("payouts").columns(["created_at", "id"]).execute();
  await db.schema.createIndex("payouts_status_created_idx").on("payouts").columns(["status", "created_at", "id"]).execute();
  await db.schema.createIndex("payouts_vendor_created_idx").on("payouts").columns(["vendor_id", "created_at", "id"]).execute();
  await db.schema.createIndex("payouts_run_created_idx").on("payouts").columns(["run_id", "created_at", "id"]).execute();

  for (const column of ["refunds_cents", "payouts_cents", "mrr_change_cents"]) {
    await db.schema
      .alterTable("daily_platform_totals")
      .addColumn(column, "bigint", (c) => c.notNull().defaultTo(0))
      .execute();
  }

  // Back-fill from what exists (a one-time pass at upgrade; requests never do this).
  await sql`
    insert into payout_accounts (vendor_id, status, earned_cents, balance_cents)
    select vendor_id, 'not_connected', gross_cents - fees_cents, gross_cents - fees_cents from vendor_totals where true
  `.execute(db);
  await sql`
    insert into payout_balance_totals (account_status, vendors_owed, owed_cents)
    select status, count(*), sum(balance_cents) from payout_accounts where balance_cents > 0 group by status
  `.execute(db);
  await sql`
    insert into daily_platform_totals (day, gross_cents, orders, fees_cents, items_sold, new_vendors, new_products, refunds_cents)
    select substr(updated_at, 1, 10), 0, 0, 0, 0, 0, 0, sum(gross_cents) from orders where status = 'refunded' group by substr(updated_at, 1, 10)
    on conflict (day) do update set refunds_cents = daily_platform_totals.refunds_cents + excluded.refunds_cents
  `.execute(db);
  await sql`
    insert into daily_platform_totals (day, gross_cents, orders, fees_cents, items_sold, new_vendors, new_products, mrr_change_cents)
    select substr(started_at, 1, 10), 0, 0, 0, 0, 0, 0, sum(monthly_fee_cents) from subscriptions where true group by substr(started_at, 1, 10)
    on conflict (day) do update set mrr_change_cents = daily_platform_totals.mrr_change_cents + excluded.mrr_change_cents
  `.execute(db);
  await sql`
    insert into daily_platform_totals (day, gross_cents, orders, fees_cents, items_sold, new_vendors, new_products, mrr_change_cents)
    select substr(cancelled_at, 1, 10), 0, 0, 0, 0, 0, 0, -sum(monthly_fee_cents) from subscriptions where cancelled_at is not null group by substr(cancelled_at, 1, 10)
    on conflict (day) do update set mrr_change_cents = daily_platform_totals.mrr_change_cents + excluded.mrr_change_cents
  `.execute(db);
}
