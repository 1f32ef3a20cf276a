import type { AppDeps } from "../../platform/request/app-env.ts";
import { recordAudit } from "../../domain/audit/audit-log.ts";
import { newId } from "../../platform/db/ids.ts";
import type { Payout } from "../../platform/db/schema.ts";
import type { Actor } from "../../platform/identity/actor.ts";
import { type Executor, inTransaction } from "../../platform/db/executor.ts";
import { completeSettledRun, markPayoutChecked, markPayoutPaid, markUnknownPayoutAbsent } from "../../domain/ledger/payouts.ts";
import { listAllTransfers, type Pacer, type PayoutProvider, ProviderError, type TransferFacts } from "../../platform/stripe/stripe-payouts.ts";
import { findPayout, findPayoutsByIds, knownRunIds, paidPayoutsPage, unknownPayouts } from "./financials.queries.ts";
import { dollars } from "./financials.mapping.ts";
import { finishReconciliation, insertReconciliation, type NewStripeDifference, recordDifference, resolveDifferencesNotSeen } from "../../domain/ledger/stripe-reconciliation.ts";

/**
 * Settling payouts whose outcome is unknown, and comparing Stripe's transfers with the ledger
 * (docs/product.md §15.3). Stripe keeps the answer of a request under its idempotency key, a 500
 * included, so replaying the key cannot settle a transfer that Stripe made but answered with a
 * 5xx (or never answered): only asking what exists can. Every transfer carries its payout's id in
 * its metadata and its run's id as `transfer_group`, so `transfers.list({ transfer_group,
 * destination })` finds it.
 */

/** Default time after a payout's last attempt before "Stripe lists no transfer" is believed (a list can lag a create). */
export const DEFAULT_UNKNOWN_WINDOW_MS = 5 * 60_000;
/** Transfers made (and payouts paid) this many days back are compared with Stripe by the daily reconciliation, whatever their run's age. */
export const RECONCILE_DAYS = 3;

export type SettleOutcome = "paid" | "owed_again" | "unknown";

export interface SettleResult {
  outcome: SettleOutcome;
  message: string;
  payout: Payout;
}

/** The transfer Stripe made for this payout, if it lists one (the oldest, should there be several). */
function transferOf(p: Payout, transfers: TransferFacts[]): TransferFacts | undefined {
  return transfers.filter((t) => t.metadata.payout_id === p.id).sort((a, b) => a.created - b.created || a.id.localeCompare(b.id))[0];
}

const money = (cents: number, currency: string) => `${dollars(cents).toFixed(2)} ${currency.toUpperCase()}`;

/**
 * Asks Stripe about one payout whose outcome is unknown and records the answer:
 * - Stripe lists a transfer carrying the payout's id → paid, with that transfer's id and amount;
 * - it lists none and the last attempt is older than `windowMs` → failed, the amount owed again
 *   (a retry then uses a new idempotency key), written only if the payout is still at the attempt
 *   and state version read before the list was asked: a list answered late (another check or a
 *   retry moved the payout meanwhile, and Stripe may have made that later attempt) is dropped;
 * - it lists none yet within the window → still unknown (the check time is noted).
 * With an actor (the "Check with Stripe" action) one audit row is written whatever the answer; the
 * system's own checks write one only when they settle the payout. Throws ProviderError when Stripe
 * cannot answer (nothing is changed then).
 */
export async function settleUnknownPayout(
  deps: Pick<AppDeps, "database" | "clock">,
  provider: PayoutProvider,
  pacer: Pacer,
  payout: Payout,
  windowMs: number,
  actor: Actor | null = null,
): Promise<SettleResult> {
  const db = deps.database.db;
  // The time the list is asked for: a transfer made before then (less the list's lag) is in it.
  const now = deps.clock.now();
  const at = now.toISOString();
  const transfers = await listAllTransfers(provider, pacer, { transferGroup: payout.run_id, destination: payout.destination });
  const found = transferOf(payout, transfers);
  const sinceLastAttempt = now.getTime() - Date.parse(payout.updated_at);
  return inTransaction(db, async (trx) => {
    let outcome: SettleOutcome = "unknown";
    let message: string;
    let moved: Payout | null = null;
    if (found) {
      moved = await markPayoutPaid(trx, payout.id, found.id, at, found.amountCents);
      if (moved) {
        outcome = "paid";
        message =
          found.amountCents === payout.amount_cents
            ? `Stripe made the transfer ${found.id} of ${money(found.amountCents, found.currency)}: the payout is paid`
            : `Stripe made the transfer ${found.id} of ${money(found.amountCents, found.currency)} (the payout was for ${money(payout.amount_cents, payout.currency)}): recorded as paid with Stripe's amount`;
      } else message = "The payout changed meanwhile";
    } else if (sinceLastAttempt >= windowMs) {
      const reason = `Stripe has no transfer for this payout (checked ${at}); nothing was sent, the amount is owed again`;
      moved = await markUnknownPayoutAbsent(trx, payout.id, { attempt: payout.attempt, stateVersion: payout.state_version }, reason, at);
      if (moved) {
        outcome = "owed_again";
        message = reason;
      } else message = "The payout changed meanwhile";
    } else {
      const waitS = Math.ceil((windowMs - sinceLastAttempt) / 1000);
      message = `Stripe lists no transfer for this payout yet; a list can lag a transfer by a little, so it stays unknown until ${new Date(Date.parse(payout.updated_at) + windowMs).toISOString()} (${waitS} s) and is checked again`;
    }
    await markPayoutChecked(trx, payout.id, at);
    const after = (await findPayout(trx, payout.id)) ?? payout;
    if (actor || outcome !== "unknown") {
      await recordAudit(
        trx,
        {
          actor,
          action: actor ? "payout.check" : "payout.settle",
          target: { type: "payout", id: payout.id, label: `${payout.vendor_name} ${money(payout.amount_cents, payout.currency)}` },
          before: { status: payout.status },
          after: { status: after.status, stripeTransferId: after.stripe_transfer_id },
          details: {
            outcome,
            message,
            runId: payout.run_id,
            vendorId: payout.vendor_id,
            destination: payout.destination,
            amountCents: payout.amount_cents,
            ...(found ? { transferId: found.id, transferAmountCents: found.amountCents } : {}),
          },
        },
        deps.clock,
      );
    }
    return { outcome, message, payout: after };
  });
}

export interface SettleSummary {
  checked: number;
  paid: number;
  owedAgain: number;
  stillUnknown: number;
  /** Stripe could not answer (the payout stays unknown); the last message. */
  errors: number;
  lastError: string | null;
}

/**
 * Settles the unknown payouts of one run (or all), as far as Stripe can say now. Stops after a few
 * failed calls in a row (Stripe is down: the next scheduled check continues).
 */
export async function settleUnknownPayouts(
  deps: Pick<AppDeps, "database" | "clock">,
  provider: PayoutProvider,
  pacer: Pacer,
  options: { runId?: string | null; windowMs: number; shouldStop?: () => Promise<boolean> },
): Promise<SettleSummary> {
  const summary: SettleSummary = { checked: 0, paid: 0, owedAgain: 0, stillUnknown: 0, errors: 0, lastError: null };
  let after: string | null = null;
  let failuresInARow = 0;
  const runs = new Set<string>();
  for (;;) {
    const page = await unknownPayouts(deps.database.db, options.runId ?? null, after, 100);
    if (page.length === 0) break;
    for (const p of page) {
      after = p.id;
      if (options.shouldStop && (await options.shouldStop())) return summary;
      summary.checked += 1;
      runs.add(p.run_id);
      try {
        const r = await settleUnknownPayout(deps, provider, pacer, p, options.windowMs);
        failuresInARow = 0;
        if (r.outcome === "paid") summary.paid += 1;
        else if (r.outcome === "owed_again") summary.owedAgain += 1;
        else summary.stillUnknown += 1;
      } catch (err) {
        if (!(err instanceof ProviderError)) throw err;
        summary.errors += 1;
        summary.stillUnknown += 1;
        summary.lastError = err.message;
        if (++failuresInARow >= 3) return summary;
      }
    }
  }
  // A run that ended unresolved is completed once nothing of it is open (settled by anyone).
  for (const runId of runs) await completeSettledRun(deps.database.db, runId);
  return summary;
}

export interface ReconcileSummary {
  id: string;
  runs: number;
  transfers: number;
  payouts: number;
  /** Differences found by this comparison (new or still there). */
  differences: number;
  /** Of those, the ones not known before (each with its audit row). */
  newDifferences: number;
  error: string | null;
}

/**
 * The daily comparison of Stripe's transfers with the ledger. Unknown payouts are settled first;
 * then every transfer Stripe lists as made in the last `days` days (RECONCILE_DAYS), whatever its
 * run's age, is matched by its metadata's payout id and destination with the ledger, and every
 * payout paid in those days is looked for among them. Recorded as differences (shown on System
 * Debug, each new one with a system audit row):
 * - `unknown_transfer`: a transfer the ledger does not count (no paid payout has its id, or it went
 *   to another account than its payout's): money sent that the ledger does not know, e.g. a vendor
 *   paid twice;
 * - `amount_differs`: the ledger's paid payout and Stripe's transfer disagree on the amount;
 * - `missing_transfer`: a payout the ledger records as paid (longer ago than the window) whose
 *   transfer Stripe does not list.
 * Transfers of payouts still pending, in processing or unknown are left to the settling.
 */
export async function reconcileWithStripe(
  deps: Pick<AppDeps, "database" | "clock">,
  provider: PayoutProvider,
  pacer: Pacer,
  options: { windowMs: number; days?: number; shouldStop?: () => Promise<boolean> },
): Promise<ReconcileSummary> {
  const db = deps.database.db;
  const id = newId();
  const startedAt = deps.clock.now();
  const since = new Date(startedAt.getTime() - (options.days ?? RECONCILE_DAYS) * 86_400_000);
  await insertReconciliation(db, { id, startedAt: startedAt.toISOString(), since: since.toISOString() });
  const summary: ReconcileSummary = { id, runs: 0, transfers: 0, payouts: 0, differences: 0, newDifferences: 0, error: null };
  try {
    await settleUnknownPayouts(deps, provider, pacer, { windowMs: options.windowMs, ...(options.shouldStop ? { shouldStop: options.shouldStop } : {}) });
    if (!(options.shouldStop && (await options.shouldStop()))) {
      const comparison = await compareWithStripe(deps, provider, pacer, since, options.windowMs);
      Object.assign(summary, { runs: comparison.runs, transfers: comparison.transfers, payouts: comparison.payouts, differences: comparison.differences.length });
      summary.newDifferences = await recordComparison(deps, comparison);
    }
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    summary.error = `Stripe: ${err.message}`;
  }
  await finishReconciliation(db, id, { finishedAt: deps.clock.now().toISOString(), ...summary });
  return summary;
}

interface Comparison {
  /** When Stripe was asked: differences not found again at this time are closed. */
  at: string;
  runs: number;
  transfers: number;
  payouts: number;
  differences: NewStripeDifference[];
  /** The keys of every difference this comparison could have found. */
  scope: string[];
}

/** Lists Stripe's transfers made since `since` and compares them, and the payouts paid since then, with the ledger. */
async function compareWithStripe(deps: Pick<AppDeps, "database" | "clock">, provider: PayoutProvider, pacer: Pacer, since: Date, windowMs: number): Promise<Comparison> {
  const db = deps.database.db;
  // Taken before the list: a payout paid after it started is not looked for in it.
  const now = deps.clock.now();
  const transfers = await listAllTransfers(provider, pacer, { createdGte: Math.floor(since.getTime() / 1000) });
  const owners = await payoutsCarriedBy(db, transfers);
  const runs = await knownRunIds(db, [...new Set(transfers.map((t) => t.transferGroup).filter((g): g is string => !!g))]);
  const comparison: Comparison = { at: now.toISOString(), runs: 0, transfers: transfers.length, payouts: 0, differences: [], scope: [] };
  const runIds = new Set<string>();
  for (const t of transfers) {
    const owner = owners.get(t.metadata.payout_id ?? "");
    // A transfer neither carrying a payout's id nor grouped under a run was not made by the panel.
    if (!owner && !t.metadata.payout_id && !(t.transferGroup && runs.has(t.transferGroup))) continue;
    runIds.add(owner?.run_id ?? t.transferGroup ?? "");
    comparison.scope.push(`unknown_transfer:${t.id}`, `amount_differs:${t.id}`);
    const difference = transferDifference(t, owner);
    if (difference) comparison.differences.push(difference);
  }
  const listed = new Map(transfers.map((t) => [t.id, t]));
  let after: { paidAt: string; id: string } | null = null;
  for (;;) {
    const page = await paidPayoutsPage(db, since.toISOString(), after, 1000);
    if (page.length === 0) break;
    for (const p of page) {
      after = { paidAt: p.paid_at ?? "", id: p.id };
      comparison.payouts += 1;
      runIds.add(p.run_id);
      comparison.scope.push(`missing_transfer:${p.id}`);
      if (!p.stripe_transfer_id || listed.has(p.stripe_transfer_id) || now.getTime() - Date.parse(p.paid_at ?? p.updated_at) < windowMs) continue;
      // Paid lately by a transfer made before the window (an outcome settled late): ask its run for it.
      const own = (await listAllTransfers(provider, pacer, { transferGroup: p.run_id, destination: p.destination })).find((t) => t.id === p.stripe_transfer_id);
      if (own) {
        comparison.scope.push(`amount_differs:${own.id}`);
        const difference = transferDifference(own, p);
        if (difference) comparison.differences.push(difference);
      } else comparison.differences.push(missingTransfer(p));
    }
  }
  comparison.runs = runIds.size;
  return comparison;
}

/** The payouts the transfers name in their metadata, by id. */
async function payoutsCarriedBy(db: Executor, transfers: TransferFacts[]): Promise<Map<string, Payout>> {
  const ids = [...new Set(transfers.map((t) => t.metadata.payout_id).filter((x): x is string => !!x))];
  const owners = new Map<string, Payout>();
  for (let i = 0; i < ids.length; i += 500) for (const p of await findPayoutsByIds(db, ids.slice(i, i + 500))) owners.set(p.id, p);
  return owners;
}

const differenceBase = (p: Payout) => ({ runId: p.run_id, payoutId: p.id, vendorId: p.vendor_id, vendorName: p.vendor_name, destination: p.destination, ledgerAmountCents: p.amount_cents });

/** What is wrong with one of Stripe's transfers as the ledger sees it, or null when the ledger counts it as it is (or its payout is still being settled). */
function transferDifference(t: TransferFacts, owner: Payout | undefined): NewStripeDifference | null {
  if (owner && (owner.status === "pending" || owner.status === "processing" || owner.status === "unknown")) return null;
  if (owner?.status === "paid" && owner.stripe_transfer_id === t.id && t.destination === owner.destination) {
    if (t.amountCents === owner.amount_cents) return null;
    return {
      ...differenceBase(owner),
      key: `amount_differs:${t.id}`,
      kind: "amount_differs",
      stripeTransferId: t.id,
      stripeAmountCents: t.amountCents,
      detail: `Stripe's transfer ${t.id} is ${money(t.amountCents, t.currency)}; the ledger records ${money(owner.amount_cents, owner.currency)} paid`,
    };
  }
  const state = !owner
    ? "no payout of the ledger carries it"
    : owner.status === "paid" && owner.stripe_transfer_id === t.id
      ? `payout ${owner.id} is for ${owner.destination}: the money went to another account`
      : owner.status === "paid"
        ? `payout ${owner.id} is recorded as paid by ${owner.stripe_transfer_id}: the artist was paid twice`
        : `payout ${owner.id} is ${owner.status} in the ledger, so its amount counts as owed: the artist may be paid again`;
  return {
    key: `unknown_transfer:${t.id}`,
    kind: "unknown_transfer",
    runId: owner?.run_id ?? t.transferGroup ?? "",
    payoutId: owner?.id ?? t.metadata.payout_id ?? null,
    vendorId: owner?.vendor_id ?? t.metadata.vendor_id ?? null,
    vendorName: owner?.vendor_name ?? null,
    destination: t.destination,
    stripeTransferId: t.id,
    stripeAmountCents: t.amountCents,
    ledgerAmountCents: null,
    detail: `Stripe made the transfer ${t.id} of ${money(t.amountCents, t.currency)} to ${t.destination ?? "?"} that the ledger does not count: ${state}`,
  };
}

function missingTransfer(p: Payout): NewStripeDifference {
  return {
    ...differenceBase(p),
    key: `missing_transfer:${p.id}`,
    kind: "missing_transfer",
    stripeTransferId: p.stripe_transfer_id,
    stripeAmountCents: null,
    detail: `The ledger records ${money(p.amount_cents, p.currency)} paid to ${p.destination} by ${p.stripe_transfer_id}, which Stripe does not list`,
  };
}

/** Records what a comparison found (a system audit row for each new difference) and closes what it no longer finds; how many are new. */
async function recordComparison(deps: Pick<AppDeps, "database" | "clock">, comparison: Comparison): Promise<number> {
  return inTransaction(deps.database.db, async (trx) => {
    let fresh = 0;
    for (const d of comparison.differences) {
      if (await recordDifference(trx, newId(), d, comparison.at)) {
        fresh += 1;
        await auditDifference(trx, deps, d);
      }
    }
    await resolveDifferencesNotSeen(trx, comparison.scope, comparison.at);
    return fresh;
  });
}

function auditDifference(trx: Executor, deps: Pick<AppDeps, "clock">, d: NewStripeDifference): Promise<void> {
  return recordAudit(
    trx,
    {
      actor: null,
      action: "payouts.reconcile.difference",
      target: { type: d.payoutId ? "payout" : "stripe_transfer", id: d.payoutId ?? d.stripeTransferId ?? d.runId, label: d.vendorName ?? d.destination ?? null },
      details: {
        kind: d.kind,
        detail: d.detail,
        runId: d.runId,
        stripeTransferId: d.stripeTransferId,
        stripeAmountCents: d.stripeAmountCents,
        ledgerAmountCents: d.ledgerAmountCents,
        destination: d.destination,
      },
    },
    deps.clock,
  );
}
