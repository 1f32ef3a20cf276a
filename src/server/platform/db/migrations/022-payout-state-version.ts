import type { Kysely } from "kysely";

/**
 * Payouts' state version and the reconciliation's walk by payment time:
 * - `payouts.state_version`: moves on every change of a payout's status, so a decision taken on a
 *   read of the payout (a check with Stripe answered late) is written only if the payout is still
 *   as it was read (ledger/payouts.ts `markUnknownPayoutAbsent`);
 * - `payouts_status_paid_idx`: the daily comparison with Stripe walks the payouts paid in its
 *   window, whatever their run's age (financials/payout-reconcile.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("payouts")
    .addColumn("state_version", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("payouts_status_paid_idx").on("payouts").columns(["status", "paid_at", "id"]).execute();
}
