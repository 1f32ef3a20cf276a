import type { StripeDifferenceKind } from "../../platform/db/schema.ts";
import type { Executor } from "../../platform/db/executor.ts";

/**
 * The record of reconciliations against Stripe (docs/product.md §15.3): each daily comparison and
 * the differences it found, open until a later comparison no longer finds them. The financials
 * area writes them; System Debug and the attention list read them.
 */

// ---------- reconciliation against Stripe (docs/product.md §15.3) ----------

export interface NewStripeDifference {
  key: string;
  kind: StripeDifferenceKind;
  runId: string;
  payoutId: string | null;
  vendorId: string | null;
  vendorName: string | null;
  destination: string | null;
  stripeTransferId: string | null;
  stripeAmountCents: number | null;
  ledgerAmountCents: number | null;
  detail: string;
}

export async function insertReconciliation(db: Executor, row: { id: string; startedAt: string; since: string }): Promise<void> {
  await db.insertInto("stripe_reconciliations").values({ id: row.id, started_at: row.startedAt, since: row.since, finished_at: null, error: null }).execute();
}

export async function finishReconciliation(
  db: Executor,
  id: string,
  facts: { finishedAt: string; runs: number; transfers: number; payouts: number; differences: number; error: string | null },
): Promise<void> {
  await db
    .updateTable("stripe_reconciliations")
    .set({ finished_at: facts.finishedAt, runs: facts.runs, transfers: facts.transfers, payouts: facts.payouts, differences: facts.differences, error: facts.error })
    .where("id", "=", id)
    .execute();
}

/**
 * Records a difference: a new one is inserted (true), one already known is marked seen again (and
 * open again if a comparison had stopped finding it): false.
 */
export async function recordDifference(db: Executor, id: string, d: NewStripeDifference, now: string): Promise<boolean> {
  const result = await db
    .insertInto("stripe_reconciliation_differences")
    .values({
      id,
      key: d.key,
      kind: d.kind,
      run_id: d.runId,
      payout_id: d.payoutId,
      vendor_id: d.vendorId,
      vendor_name: d.vendorName,
      destination: d.destination,
      stripe_transfer_id: d.stripeTransferId,
      stripe_amount_cents: d.stripeAmountCents,
      ledger_amount_cents: d.ledgerAmountCents,
      detail: d.detail.slice(0, 500),
      open: 1,
      found_at: now,
      last_seen_at: now,
      resolved_at: null,
    })
    .onConflict((oc) => oc.column("key").doNothing())
    .executeTakeFirst();
  if (Number(result.numInsertedOrUpdatedRows ?? 0) > 0) return true;
  await db
    .updateTable("stripe_reconciliation_differences")
    .set({ last_seen_at: now, open: 1, resolved_at: null, detail: d.detail.slice(0, 500) })
    .where("key", "=", d.key)
    .execute();
  return false;
}

/**
 * Closes the open differences among `keys` (those the comparison at `now` looked at) that it did
 * not find again; how many. A difference outside what was compared stays open.
 */
export async function resolveDifferencesNotSeen(db: Executor, keys: string[], now: string): Promise<number> {
  let closed = 0;
  for (let i = 0; i < keys.length; i += 500) {
    const result = await db
      .updateTable("stripe_reconciliation_differences")
      .set({ open: 0, resolved_at: now })
      .where("key", "in", keys.slice(i, i + 500))
      .where("open", "=", 1)
      .where("last_seen_at", "<", now)
      .executeTakeFirst();
    closed += Number(result.numUpdatedRows);
  }
  return closed;
}

export interface StripeReconciliationFacts {
  last: { startedAt: string; finishedAt: string | null; since: string; runs: number; transfers: number; payouts: number; differences: number; error: string | null } | null;
  openDifferences: number;
  differences: Array<
    Omit<NewStripeDifference, "key"> & {
      foundAt: string;
      lastSeenAt: string;
    }
  >;
}

/** The last comparison with Stripe and the open differences, newest first (System Debug). */
export async function readStripeReconciliation(db: Executor, limit: number): Promise<StripeReconciliationFacts> {
  const last = await db.selectFrom("stripe_reconciliations").selectAll().orderBy("started_at", "desc").orderBy("id", "desc").limit(1).executeTakeFirst();
  const count = await db
    .selectFrom("stripe_reconciliation_differences")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("open", "=", 1)
    .executeTakeFirstOrThrow();
  const rows = await db.selectFrom("stripe_reconciliation_differences").selectAll().where("open", "=", 1).orderBy("found_at", "desc").orderBy("id", "desc").limit(limit).execute();
  const cents = (v: number | null) => (v === null ? null : Number(v));
  return {
    last: last
      ? {
          startedAt: last.started_at,
          finishedAt: last.finished_at,
          since: last.since,
          runs: Number(last.runs),
          transfers: Number(last.transfers),
          payouts: Number(last.payouts),
          differences: Number(last.differences),
          error: last.error,
        }
      : null,
    openDifferences: Number(count.n),
    differences: rows.map((r) => ({
      kind: r.kind,
      runId: r.run_id,
      payoutId: r.payout_id,
      vendorId: r.vendor_id,
      vendorName: r.vendor_name,
      destination: r.destination,
      stripeTransferId: r.stripe_transfer_id,
      stripeAmountCents: cents(r.stripe_amount_cents),
      ledgerAmountCents: cents(r.ledger_amount_cents),
      detail: r.detail,
      foundAt: r.found_at,
      lastSeenAt: r.last_seen_at,
    })),
  };
}
