import { sql } from "kysely";
import type { Payout, PayoutAccount, PayoutAccountStatus, PayoutRun, PayoutStatus } from "../../platform/db/schema.ts";
import { CHUNK_ROWS, type Executor, inTransaction } from "../../platform/db/executor.ts";
import { dayOf, LedgerError } from "./ledger-error.ts";
import { addToDailyPlatformTotals } from "./rollups.ts";
import { artistIdsOf, recordEventOut } from "../outbox/events-out.ts";

/**
 * The money the platform owes its artists (docs/product.md §15), kept in the same transaction as
 * the rows it sums:
 * - payout_accounts: per vendor, earned (gross − fee of its paid orders) − paid out − in flight
 *   (pending and processing payouts) − held (its shares of open disputes) − charged (dispute fees
 *   it pays) = balance;
 * - payout_balance_totals: vendors with a positive balance and the sum of those balances, per
 *   account status;
 * - payout_runs: each run's payouts counted (and summed) by status;
 * - daily_platform_totals.payouts_cents: payouts paid per day.
 * A payout moves pending → processing → paid | failed | unknown, or pending → canceled, and
 * failed → pending on a retry. `unknown` (Stripe may or may not have made the transfer) stays in
 * flight until Stripe is asked: unknown → paid when Stripe lists the transfer, unknown → failed
 * when it confirms there is none (only then is the amount owed again). Every move is a
 * conditional update, so doing it twice (two workers, a replay after a crash) changes nothing the
 * second time.
 */

export interface PayoutAccountDeltas {
  earnedCents?: number;
  paidOutCents?: number;
  inFlightCents?: number;
  /** The artist's shares of open disputes (ledger/disputes.ts). */
  heldCents?: number;
  /** Dispute fees charged to the artist. */
  chargedCents?: number;
}

/** The payout account row every vendor has from its creation (not connected until Stripe says otherwise). */
export function newPayoutAccount(vendorId: string, account: { stripeAccountId?: string | null; status?: PayoutAccountStatus } = {}) {
  return {
    vendor_id: vendorId,
    stripe_account_id: account.stripeAccountId ?? null,
    status: account.status ?? ("not_connected" as const),
    charges_enabled: account.status === "active" ? 1 : 0,
    payouts_enabled: account.status === "active" ? 1 : 0,
    requirements: null,
    checked_at: null,
    last_payout_at: null,
  };
}

/** Adds a vendor's row (balance 0, so no totals change). */
export async function insertPayoutAccount(db: Executor, vendorId: string, account: { stripeAccountId?: string | null; status?: PayoutAccountStatus } = {}): Promise<void> {
  await db.insertInto("payout_accounts").values(newPayoutAccount(vendorId, account)).execute();
}

/** Adds to the per-status totals of vendors owed money (the generator writes them in bulk too). */
export async function addToBalanceTotals(db: Executor, status: PayoutAccountStatus, vendors: number, cents: number): Promise<void> {
  if (vendors === 0 && cents === 0) return;
  await db
    .insertInto("payout_balance_totals")
    .values({ account_status: status, vendors_owed: vendors, owed_cents: cents })
    .onConflict((oc) =>
      oc.column("account_status").doUpdateSet((eb) => ({
        vendors_owed: eb("payout_balance_totals.vendors_owed", "+", eb.ref("excluded.vendors_owed")),
        owed_cents: eb("payout_balance_totals.owed_cents", "+", eb.ref("excluded.owed_cents")),
      })),
    )
    .execute();
}

/** What a balance contributes to payout_balance_totals: owed vendors count once, with what they are owed. */
const owed = (balance: number) => (balance > 0 ? { vendors: 1, cents: balance } : { vendors: 0, cents: 0 });

/**
 * Adds deltas to a vendor's payout account and keeps payout_balance_totals in step. The update
 * returns the new balance (and takes the row's lock on PostgreSQL), so the old one is known
 * exactly even with concurrent writers. A vendor without a row (deleted) is skipped.
 */
export async function addToPayoutAccount(db: Executor, vendorId: string, d: PayoutAccountDeltas, lastPayoutAt?: string): Promise<void> {
  const earned = d.earnedCents ?? 0;
  const paidOut = d.paidOutCents ?? 0;
  const inFlight = d.inFlightCents ?? 0;
  const held = d.heldCents ?? 0;
  const charged = d.chargedCents ?? 0;
  const balanceDelta = earned - paidOut - inFlight - held - charged;
  if (earned === 0 && paidOut === 0 && inFlight === 0 && held === 0 && charged === 0 && lastPayoutAt === undefined) return;
  const row = await db
    .updateTable("payout_accounts")
    .set((eb) => ({
      earned_cents: eb("earned_cents", "+", earned),
      paid_out_cents: eb("paid_out_cents", "+", paidOut),
      in_flight_cents: eb("in_flight_cents", "+", inFlight),
      held_cents: eb("held_cents", "+", held),
      charged_cents: eb("charged_cents", "+", charged),
      balance_cents: eb("balance_cents", "+", balanceDelta),
      ...(lastPayoutAt !== undefined
        ? {
            last_payout_at: eb
              .case()
              .when(eb.or([eb("last_payout_at", "is", null), eb("last_payout_at", "<", lastPayoutAt)]))
              .then(lastPayoutAt)
              .else(eb.ref("last_payout_at"))
              .end(),
          }
        : {}),
    }))
    .where("vendor_id", "=", vendorId)
    .returning(["balance_cents", "status"])
    .executeTakeFirst();
  if (!row || balanceDelta === 0) return;
  const after = Number(row.balance_cents);
  const before = owed(after - balanceDelta);
  const now = owed(after);
  await addToBalanceTotals(db, row.status, now.vendors - before.vendors, now.cents - before.cents);
}

/** What a set of payout accounts' new balances moves payout_balance_totals by, per account status. */
export type BalanceTotalsChange = Map<PayoutAccountStatus, { vendors: number; cents: number }>;

/**
 * Adds what sales earned (negative: what their refunds took back) to several vendors' payout
 * accounts in one statement, and answers what each vendor's change of balance moves
 * payout_balance_totals by: the caller writes that with the rows every sale shares, at the end of
 * its transaction (shared-rows.ts). The update returns each new balance (and takes the rows' locks
 * on PostgreSQL, all in the index's order), so the old ones are known exactly. Vendors without a
 * row (deleted) are skipped.
 */
export async function addEarnings(db: Executor, earnings: ReadonlyArray<{ vendorId: string; cents: number }>): Promise<BalanceTotalsChange> {
  const byVendor = new Map<string, number>();
  for (const e of earnings) byVendor.set(e.vendorId, (byVendor.get(e.vendorId) ?? 0) + e.cents);
  const changing = [...byVendor].filter(([, cents]) => cents !== 0);
  const totals: BalanceTotalsChange = new Map();
  if (changing.length === 0) return totals;
  const deltaOfRow = sql<number>`case ${sql.ref("vendor_id")} ${sql.join(
    changing.map(([vendorId, cents]) => sql`when ${vendorId} then cast(${cents} as bigint)`),
    sql` `,
  )} else 0 end`;
  const rows = await db
    .updateTable("payout_accounts")
    .set((eb) => ({ earned_cents: eb("earned_cents", "+", deltaOfRow), balance_cents: eb("balance_cents", "+", deltaOfRow) }))
    .where(
      "vendor_id",
      "in",
      changing.map(([vendorId]) => vendorId),
    )
    .returning(["vendor_id", "balance_cents", "status"])
    .execute();
  for (const row of rows) {
    const after = Number(row.balance_cents);
    const before = owed(after - byVendor.get(row.vendor_id)!);
    const now = owed(after);
    const sum = totals.get(row.status) ?? { vendors: 0, cents: 0 };
    totals.set(row.status, { vendors: sum.vendors + now.vendors - before.vendors, cents: sum.cents + now.cents - before.cents });
  }
  return totals;
}

export interface AccountFacts {
  stripeAccountId?: string | null;
  status: PayoutAccountStatus;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  requirements: unknown;
  checkedAt: string | null;
}

/**
 * Stores what Stripe says of a vendor's account; a change of status moves the vendor's balance
 * between the per-status totals. Returns the row before and after, or null for an unknown vendor.
 */
export async function setPayoutAccount(db: Executor, vendorId: string, facts: AccountFacts): Promise<{ before: PayoutAccount; after: PayoutAccount } | null> {
  return inTransaction(db, async (trx) => {
    // A no-op update first: it locks the row on PostgreSQL, so the balance read stays true.
    const locked = await trx
      .updateTable("payout_accounts")
      .set((eb) => ({ status: eb.ref("status") }))
      .where("vendor_id", "=", vendorId)
      .returningAll()
      .executeTakeFirst();
    if (!locked) return null;
    const before = normaliseAccount(locked);
    const next = {
      stripe_account_id: facts.stripeAccountId === undefined ? before.stripe_account_id : facts.stripeAccountId,
      status: facts.status,
      charges_enabled: facts.chargesEnabled ? 1 : 0,
      payouts_enabled: facts.payoutsEnabled ? 1 : 0,
      requirements: facts.requirements === null || facts.requirements === undefined ? null : JSON.stringify(facts.requirements),
      checked_at: facts.checkedAt,
    };
    await trx.updateTable("payout_accounts").set(next).where("vendor_id", "=", vendorId).execute();
    if (before.status !== facts.status) {
      const o = owed(before.balance_cents);
      await addToBalanceTotals(trx, before.status, -o.vendors, -o.cents);
      await addToBalanceTotals(trx, facts.status, o.vendors, o.cents);
    }
    return { before, after: { ...before, ...next } };
  });
}

export function normaliseAccount(r: PayoutAccount): PayoutAccount {
  return {
    ...r,
    earned_cents: Number(r.earned_cents),
    paid_out_cents: Number(r.paid_out_cents),
    in_flight_cents: Number(r.in_flight_cents),
    balance_cents: Number(r.balance_cents),
    held_cents: Number(r.held_cents ?? 0),
    charged_cents: Number(r.charged_cents ?? 0),
  };
}

export function normalisePayout(p: Payout): Payout {
  return { ...p, amount_cents: Number(p.amount_cents), reversed_cents: Number(p.reversed_cents ?? 0) };
}

type RunCount = "pending" | "processing" | "unknown" | "paid" | "failed" | "canceled";

interface RunDeltas {
  payouts?: number;
  totalCents?: number;
  paidCents?: number;
  counts?: Partial<Record<RunCount, number>>;
}

async function addToRun(db: Executor, runId: string, d: RunDeltas): Promise<void> {
  const counts = d.counts ?? {};
  await db
    .updateTable("payout_runs")
    .set((eb) => ({
      payouts: eb("payouts", "+", d.payouts ?? 0),
      total_cents: eb("total_cents", "+", d.totalCents ?? 0),
      paid_cents: eb("paid_cents", "+", d.paidCents ?? 0),
      pending: eb("pending", "+", counts.pending ?? 0),
      processing: eb("processing", "+", counts.processing ?? 0),
      unknown: eb("unknown", "+", counts.unknown ?? 0),
      paid: eb("paid", "+", counts.paid ?? 0),
      failed: eb("failed", "+", counts.failed ?? 0),
      canceled: eb("canceled", "+", counts.canceled ?? 0),
    }))
    .where("id", "=", runId)
    .execute();
}

/** The attempt and state version a decision about a payout was taken on (see `markUnknownPayoutAbsent`). */
export interface PayoutReading {
  attempt: number;
  stateVersion: number;
}

/**
 * Moves one payout from `from` to `to` if it is still in `from` (and, given `reading`, still at
 * that attempt and state version); the changed row, or null. Every move advances the state version.
 */
async function movePayout(db: Executor, payoutId: string, from: PayoutStatus, to: PayoutStatus, set: Partial<Payout>, now: string, reading?: PayoutReading): Promise<Payout | null> {
  let update = db
    .updateTable("payouts")
    .set((eb) => ({ ...set, status: to, updated_at: now, state_version: eb("state_version", "+", 1) }))
    .where("id", "=", payoutId)
    .where("status", "=", from);
  if (reading) update = update.where("attempt", "=", reading.attempt).where("state_version", "=", reading.stateVersion);
  const row = await update.returningAll().executeTakeFirst();
  return row ? normalisePayout(row) : null;
}

export interface PlannedPayout {
  id: string;
  vendorId: string;
  vendorName: string;
  destination: string;
  amountCents: number;
}

/**
 * Adds pending payouts to a run: each takes the vendor's amount out of its balance into "in
 * flight", so no second payout (in this run or another) can include the same money.
 */
export async function addPendingPayouts(db: Executor, runId: string, payouts: PlannedPayout[], now: string): Promise<void> {
  if (payouts.length === 0) return;
  await inTransaction(db, async (trx) => {
    for (let i = 0; i < payouts.length; i += 500) {
      await trx
        .insertInto("payouts")
        .values(
          payouts.slice(i, i + 500).map((p) => ({
            id: p.id,
            run_id: runId,
            vendor_id: p.vendorId,
            vendor_name: p.vendorName,
            destination: p.destination,
            amount_cents: p.amountCents,
            currency: "usd",
            status: "pending" as const,
            created_at: now,
            updated_at: now,
            paid_at: null,
            stripe_transfer_id: null,
            failure_reason: null,
          })),
        )
        .execute();
    }
    for (const p of payouts) await addToPayoutAccount(trx, p.vendorId, { inFlightCents: p.amountCents });
    await addToRun(trx, runId, {
      payouts: payouts.length,
      totalCents: payouts.reduce((s, p) => s + p.amountCents, 0),
      counts: { pending: payouts.length },
    });
  });
}

/** pending → processing, just before the transfer is asked for; null when it is not pending any more. */
export function markPayoutProcessing(db: Executor, payoutId: string, now: string): Promise<Payout | null> {
  return inTransaction(db, async (trx) => {
    const p = await movePayout(trx, payoutId, "pending", "processing", {}, now);
    if (p) await addToRun(trx, p.run_id, { counts: { pending: -1, processing: 1 } });
    return p;
  });
}

/**
 * processing (or unknown) → paid with Stripe's transfer id: the money leaves "in flight" for "paid
 * out". `amountCents` is the amount Stripe's transfer has when it differs from the payout's (found
 * by reconciliation): the ledger records what was sent.
 */
export function markPayoutPaid(db: Executor, payoutId: string, transferId: string, paidAt: string, amountCents?: number): Promise<Payout | null> {
  return inTransaction(db, async (trx) => {
    const before = await trx.selectFrom("payouts").select(["amount_cents"]).where("id", "=", payoutId).executeTakeFirst();
    if (!before) return null;
    const planned = Number(before.amount_cents);
    const sent = amountCents ?? planned;
    const set = { stripe_transfer_id: transferId, paid_at: paidAt, failure_reason: null, reuse_key: 0, amount_cents: sent };
    let from: "processing" | "unknown" = "processing";
    let p = await movePayout(trx, payoutId, "processing", "paid", set, paidAt);
    if (!p) {
      from = "unknown";
      p = await movePayout(trx, payoutId, "unknown", "paid", set, paidAt);
    }
    if (!p) return null;
    await addToPayoutAccount(trx, p.vendor_id, { paidOutCents: sent, inFlightCents: -planned }, paidAt);
    await addToDailyPlatformTotals(trx, dayOf(paidAt), { payoutsCents: sent });
    await addToRun(trx, p.run_id, { paidCents: sent, totalCents: sent - planned, counts: { [from]: -1, paid: 1 } });
    await completeSettledRun(trx, p.run_id);
    const artistId = (await artistIdsOf(trx, [p.vendor_id])).get(p.vendor_id) ?? null;
    await recordEventOut(trx, "payout.paid", { vendorId: p.vendor_id, artistId, payoutId: p.id, amountCents: sent, transferId }, paidAt);
    return p;
  });
}

/**
 * processing → unknown: the calls ran out (or the run ended) without a definite answer, so Stripe
 * may have made the transfer. The amount stays in flight: it is neither owed again nor planned
 * again until Stripe has been asked (features/financials/payout-reconcile.ts).
 */
export function markPayoutUnknown(db: Executor, payoutId: string, reason: string, now: string): Promise<Payout | null> {
  return inTransaction(db, async (trx) => {
    const p = await movePayout(trx, payoutId, "processing", "unknown", { failure_reason: reason.slice(0, 500), reuse_key: 1 }, now);
    if (p) await addToRun(trx, p.run_id, { counts: { processing: -1, unknown: 1 } });
    return p;
  });
}

/** Moves up to `limit` of a run's payouts left in processing to unknown; how many it moved. */
export async function markRunProcessingUnknown(db: Executor, runId: string, reason: string, now: string, limit = CHUNK_ROWS): Promise<number> {
  return inTransaction(db, async (trx) => {
    const ids = await trx.selectFrom("payouts").select("id").where("run_id", "=", runId).where("status", "=", "processing").orderBy("id").limit(limit).execute();
    let n = 0;
    for (const { id } of ids) if (await markPayoutUnknown(trx, id, reason, now)) n++;
    return n;
  });
}

/**
 * unknown → failed, once Stripe confirmed it has no transfer for the payout (listed after the safe
 * window): the amount goes back into the balance, and a retry uses a new idempotency key (the old
 * one may hold Stripe's stored 500). Written only if the payout is still at the attempt and state
 * version `reading` saw before Stripe was asked: a list answered late must not fail a later
 * attempt that Stripe may have made meanwhile (that would owe, and pay, the amount twice).
 */
export function markUnknownPayoutAbsent(db: Executor, payoutId: string, reading: PayoutReading, reason: string, now: string): Promise<Payout | null> {
  return inTransaction(db, async (trx) => {
    const p = await movePayout(trx, payoutId, "unknown", "failed", { failure_reason: reason.slice(0, 500), reuse_key: 0, checked_at: now }, now, reading);
    if (!p) return null;
    await addToPayoutAccount(trx, p.vendor_id, { inFlightCents: -p.amount_cents });
    await addToRun(trx, p.run_id, { counts: { unknown: -1, failed: 1 } });
    await completeSettledRun(trx, p.run_id);
    const artistId = (await artistIdsOf(trx, [p.vendor_id])).get(p.vendor_id) ?? null;
    await recordEventOut(trx, "payout.failed", { vendorId: p.vendor_id, artistId, payoutId: p.id, amountCents: Number(p.amount_cents), reason: reason.slice(0, 500) }, now);
    return p;
  });
}

/** Notes when Stripe was last asked about a payout's outcome (no rollup changes). */
export async function markPayoutChecked(db: Executor, payoutId: string, now: string): Promise<void> {
  await db.updateTable("payouts").set({ checked_at: now }).where("id", "=", payoutId).execute();
}

/** An `unresolved` run whose payouts are all settled becomes `completed`. */
export async function completeSettledRun(db: Executor, runId: string): Promise<void> {
  await db.updateTable("payout_runs").set({ status: "completed" }).where("id", "=", runId).where("status", "=", "unresolved").where("unknown", "=", 0).where("processing", "=", 0).execute();
}

/**
 * processing → failed with Stripe's message: the amount goes back into the balance. `outcomeUnknown`
 * (a timeout: Stripe may have made the transfer) makes a retry reuse the same idempotency key.
 */
export function markPayoutFailed(db: Executor, payoutId: string, reason: string, outcomeUnknown: boolean, now: string): Promise<Payout | null> {
  // Kept for rows from before unknown outcomes had a state of their own; the payout run never fails an unknown outcome.
  return inTransaction(db, async (trx) => {
    const p = await movePayout(trx, payoutId, "processing", "failed", { failure_reason: reason.slice(0, 500), reuse_key: outcomeUnknown ? 1 : 0 }, now);
    if (!p) return null;
    await addToPayoutAccount(trx, p.vendor_id, { inFlightCents: -p.amount_cents });
    await addToRun(trx, p.run_id, { counts: { processing: -1, failed: 1 } });
    await completeSettledRun(trx, p.run_id);
    const artistId = (await artistIdsOf(trx, [p.vendor_id])).get(p.vendor_id) ?? null;
    await recordEventOut(trx, "payout.failed", { vendorId: p.vendor_id, artistId, payoutId: p.id, amountCents: Number(p.amount_cents), reason: reason.slice(0, 500) }, now);
    return p;
  });
}

/** pending → canceled (a canceled run): the amount goes back into the balance. */
export function cancelPayout(db: Executor, payoutId: string, now: string): Promise<Payout | null> {
  return inTransaction(db, async (trx) => {
    const p = await movePayout(trx, payoutId, "pending", "canceled", {}, now);
    if (!p) return null;
    await addToPayoutAccount(trx, p.vendor_id, { inFlightCents: -p.amount_cents });
    await addToRun(trx, p.run_id, { counts: { pending: -1, canceled: 1 } });
    return p;
  });
}

/** Cancels up to `limit` pending payouts of a run; how many it canceled (0: none left). */
export async function cancelPendingPayouts(db: Executor, runId: string, now: string, limit = CHUNK_ROWS): Promise<number> {
  return inTransaction(db, async (trx) => {
    const ids = await trx.selectFrom("payouts").select("id").where("run_id", "=", runId).where("status", "=", "pending").orderBy("id").limit(limit).execute();
    let n = 0;
    for (const { id } of ids) if (await cancelPayout(trx, id, now)) n++;
    return n;
  });
}

/**
 * failed → pending again. Refused (invalid_state) when the vendor's balance no longer covers the
 * amount (a later payout already included it: retrying would pay it twice). After a definite
 * failure the next attempt gets a new idempotency key; after an unknown outcome the same one.
 */
export function retryFailedPayout(db: Executor, payoutId: string, now: string): Promise<Payout> {
  return inTransaction(db, async (trx) => {
    const current = await trx.selectFrom("payouts").selectAll().where("id", "=", payoutId).executeTakeFirst();
    if (!current) throw new LedgerError("not_found", "Payout not found");
    if (current.status !== "failed") throw new LedgerError("invalid_state", `Only a failed payout can be retried (this one is ${current.status})`);
    const account = await trx.selectFrom("payout_accounts").select(["balance_cents"]).where("vendor_id", "=", current.vendor_id).executeTakeFirst();
    const amount = Number(current.amount_cents);
    if (!account || Number(account.balance_cents) < amount) {
      throw new LedgerError("invalid_state", "The artist's balance no longer covers this payout (a later payout included it), so it cannot be retried");
    }
    const p = await movePayout(trx, payoutId, "failed", "pending", { attempt: current.reuse_key === 1 ? current.attempt : current.attempt + 1, failure_reason: null }, now);
    if (!p) throw new LedgerError("invalid_state", "The payout changed meanwhile; reload and try again");
    await addToPayoutAccount(trx, p.vendor_id, { inFlightCents: amount });
    await addToRun(trx, p.run_id, { counts: { failed: -1, pending: 1 } });
    return p;
  });
}

/** A paid payout's transfer reversed at Stripe, as recordTransferReversal leaves it. */
export interface ReversedPayout {
  payout: Payout;
  /** What this call added to the reversed amount (and so to the vendor's balance). */
  addedCents: number;
}

/**
 * Stripe reversed (part of) a paid payout's transfer: `totalReversedCents` is the transfer's
 * reversed amount as Stripe now states it (its `amount_reversed`, which only grows). The payout
 * keeps what it sent; what came back since the last call leaves "paid out" and is owed to the
 * vendor again (its balance grows by it). Taking the total, never a delta, makes a repeated or
 * late event change nothing: only an amount above the one recorded moves money, once. Null when
 * the payout is not paid or nothing new was reversed.
 */
export function recordTransferReversal(db: Executor, payoutId: string, totalReversedCents: number): Promise<ReversedPayout | null> {
  return inTransaction(db, async (trx) => {
    const current = await trx.selectFrom("payouts").select(["amount_cents", "reversed_cents"]).where("id", "=", payoutId).where("status", "=", "paid").executeTakeFirst();
    if (!current) return null;
    const recorded = Number(current.reversed_cents);
    const total = Math.min(Math.max(0, Math.trunc(totalReversedCents)), Number(current.amount_cents));
    if (total <= recorded) return null;
    // Conditional on the amount read: a concurrent call that recorded first leaves this one nothing to add.
    const row = await trx
      .updateTable("payouts")
      .set({ reversed_cents: total })
      .where("id", "=", payoutId)
      .where("status", "=", "paid")
      .where("reversed_cents", "=", recorded)
      .returningAll()
      .executeTakeFirst();
    if (!row) return null;
    const added = total - recorded;
    await addToPayoutAccount(trx, row.vendor_id, { paidOutCents: -added });
    return { payout: normalisePayout(row), addedCents: added };
  });
}

/**
 * Removes a vendor's payouts (with its other rows, docs/product.md §4.3), taking them back out of
 * every rollup: paid ones from their day's payouts, all from their run's counts. Refused while a
 * payout to the vendor is being sent (its outcome must be recorded first).
 */
export async function deleteVendorPayouts(db: Executor, vendorId: string): Promise<number> {
  return inTransaction(db, async (trx) => {
    const sending = await trx.selectFrom("payouts").select("status").where("vendor_id", "=", vendorId).where("status", "in", ["processing", "unknown"]).limit(1).executeTakeFirst();
    if (sending?.status === "processing") throw new LedgerError("invalid_state", "A payout to this vendor is being sent; delete the vendor once the payout run has finished");
    if (sending) throw new LedgerError("invalid_state", "A payout to this vendor has an unknown outcome; delete the vendor once it has been checked with Stripe");
    let deleted = 0;
    for (;;) {
      const rows = await trx.selectFrom("payouts").select(["id", "run_id", "status", "amount_cents", "paid_at"]).where("vendor_id", "=", vendorId).limit(CHUNK_ROWS).execute();
      if (rows.length === 0) break;
      for (const p of rows) {
        const amount = Number(p.amount_cents);
        if (p.status === "paid" && p.paid_at) await addToDailyPlatformTotals(trx, dayOf(p.paid_at), { payoutsCents: -amount });
        await addToRun(trx, p.run_id, {
          payouts: -1,
          totalCents: -amount,
          paidCents: p.status === "paid" ? -amount : 0,
          counts: { [p.status]: -1 },
        });
      }
      const ids = rows.map((p) => p.id);
      await trx.deleteFrom("payouts").where("id", "in", ids).execute();
      deleted += rows.length;
    }
    const account = await trx.selectFrom("payout_accounts").select(["status", "balance_cents"]).where("vendor_id", "=", vendorId).executeTakeFirst();
    if (account) {
      const o = owed(Number(account.balance_cents));
      await addToBalanceTotals(trx, account.status, -o.vendors, -o.cents);
      await trx.deleteFrom("payout_accounts").where("vendor_id", "=", vendorId).execute();
    }
    return deleted;
  });
}

export function normaliseRun(r: PayoutRun): PayoutRun {
  const n = (v: number) => Number(v);
  return {
    ...r,
    minimum_cents: n(r.minimum_cents),
    expected_cents: n(r.expected_cents),
    skipped_cents: n(r.skipped_cents),
    total_cents: n(r.total_cents),
    paid_cents: n(r.paid_cents),
  };
}

export interface NewPayoutRun {
  id: string;
  minimumCents: number;
  expectedPayouts: number;
  expectedCents: number;
  skipped: number;
  skippedCents: number;
  /** Artists left out because a payout to them is being sent or has an unknown outcome. */
  held?: number;
  createdBy: string | null;
  createdAt: string;
}

/**
 * Stores a queued run; false when another run is active (queued or running): the unique index on
 * `active` lets only one exist, whatever the number of processes asking at once.
 */
export async function insertPayoutRun(db: Executor, run: NewPayoutRun): Promise<boolean> {
  const result = await db
    .insertInto("payout_runs")
    .values({
      id: run.id,
      status: "queued",
      active: 1,
      minimum_cents: run.minimumCents,
      expected_payouts: run.expectedPayouts,
      expected_cents: run.expectedCents,
      skipped: run.skipped,
      skipped_cents: run.skippedCents,
      held: run.held ?? 0,
      plan_cursor: null,
      error: null,
      created_by: run.createdBy,
      created_at: run.createdAt,
      started_at: null,
      finished_at: null,
    })
    .onConflict((oc) => oc.column("active").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** queued → running (the worker took it); a resumed run keeps its first start time. */
export async function startPayoutRun(db: Executor, runId: string, now: string): Promise<void> {
  await db.updateTable("payout_runs").set({ status: "running" }).where("id", "=", runId).where("status", "in", ["queued", "running"]).execute();
  await db.updateTable("payout_runs").set({ started_at: now }).where("id", "=", runId).where("started_at", "is", null).execute();
}

/** Records how far planning got (the last vendor given a payout) and whether it is done. */
export async function setRunPlanCursor(db: Executor, runId: string, cursor: string | null, done: boolean): Promise<void> {
  await db
    .updateTable("payout_runs")
    .set({ plan_cursor: cursor, planning_done: done ? 1 : 0 })
    .where("id", "=", runId)
    .execute();
}

/**
 * Ends a run (completed, canceled or failed); it stops being the active one. A run that would be
 * completed while payouts of it have an unknown outcome ends `unresolved` instead, decided in the
 * same statement as the end (so a payout settled meanwhile is counted).
 */
export async function finishPayoutRun(db: Executor, runId: string, status: "completed" | "canceled" | "failed", now: string, error: string | null = null): Promise<boolean> {
  const result = await db
    .updateTable("payout_runs")
    .set((eb) => ({
      status:
        status === "completed"
          ? eb
              .case()
              .when(eb.or([eb("unknown", ">", 0), eb("processing", ">", 0)]))
              .then("unresolved" as const)
              .else("completed" as const)
              .end()
          : status,
      active: null,
      finished_at: now,
      error,
    }))
    .where("id", "=", runId)
    .where("active", "=", 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Asks a run to stop: the worker cancels what has not started at its next check. Only once: of two
 * concurrent asks one changes the row, the other finds it asked already (false).
 */
export async function requestPayoutRunCancel(db: Executor, runId: string): Promise<boolean> {
  const result = await db.updateTable("payout_runs").set({ cancel_requested: 1 }).where("id", "=", runId).where("active", "=", 1).where("cancel_requested", "=", 0).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
