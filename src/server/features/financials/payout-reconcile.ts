import type { AppDeps } from "../../platform/request/app-env.ts";
import { recordAudit } from "../../domain/audit/audit-log.ts";
import { newId } from "../../platform/db/ids.ts";
import type { Payout } from "../../platform/db/schema.ts";
import type { Actor } from "../../platform/identity/actor.ts";
import { type Executor, inTransaction } from "../../platform/db/executor.ts";
import { completeSettledRun, markPayoutChecked, markPayoutPaid, markUnknownPayoutAbsent } from "../../domain/ledger/payouts.ts";
import { listAllTransfers, type Pacer, type PayoutProvider, ProviderError, type TransferFacts } from "../../platform/stripe/stripe-payouts.ts";
import { findPayout, findPayoutsByIds, runPayoutsPage, runsCreatedSince, unknownPayouts } from "./financials.queries.ts";
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
/** Runs created this many days back are compared with Stripe by the daily reconciliation. */
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
 *   (a retry then uses a new idempotency key);
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
      moved = await markUnknownPayoutAbsent(trx, payout.id, reason, at);
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
 * The daily comparison of Stripe's transfers with the ledger: for every run created in the last
 * RECONCILE_DAYS days, its unknown payouts are settled first, then every transfer Stripe lists under
 * the run's `transfer_group` is matched with the run's payouts. Recorded as differences (shown on
 * System Debug, each new one with a system audit row):
 * - `unknown_transfer`: a transfer the ledger does not know (no paid payout has its id): money sent
 *   that the ledger does not count, e.g. a vendor paid twice;
 * - `amount_differs`: the ledger's paid payout and Stripe's transfer disagree on the amount;
 * - `missing_transfer`: a payout the ledger records as paid (longer ago than the window) whose
 *   transfer Stripe does not list.
 * Transfers of payouts still in processing or unknown are left to the settling.
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
  const since = new Date(startedAt.getTime() - (options.days ?? RECONCILE_DAYS) * 86_400_000).toISOString();
  await insertReconciliation(db, { id, startedAt: startedAt.toISOString(), since });
  const summary: ReconcileSummary = { id, runs: 0, transfers: 0, payouts: 0, differences: 0, newDifferences: 0, error: null };
  try {
    for (const run of await runsCreatedSince(db, since)) {
      if (options.shouldStop && (await options.shouldStop())) break;
      await settleUnknownPayouts(deps, provider, pacer, { runId: run.id, windowMs: options.windowMs });
      // Taken before the list: a payout paid after it started is not looked for in it.
      const now = deps.clock.now();
      const at = now.toISOString();
      const transfers = await listAllTransfers(provider, pacer, { transferGroup: run.id });
      summary.runs += 1;
      summary.transfers += transfers.length;
      const found: NewStripeDifference[] = [];
      const byId = new Map(transfers.map((t) => [t.id, t]));
      const matched = new Set<string>();
      // Payouts still being sent or unknown: their transfers are the settling's business.
      const open = new Set<string>();
      let after: string | null = null;
      for (;;) {
        const page = await runPayoutsPage(db, run.id, after, 1000);
        if (page.length === 0) break;
        for (const p of page) {
          after = p.id;
          summary.payouts += 1;
          if (p.status === "processing" || p.status === "unknown" || p.status === "pending") open.add(p.id);
          if (p.status !== "paid" || !p.stripe_transfer_id) continue;
          const t = byId.get(p.stripe_transfer_id);
          const base = { runId: run.id, payoutId: p.id, vendorId: p.vendor_id, vendorName: p.vendor_name, destination: p.destination, ledgerAmountCents: p.amount_cents };
          if (!t) {
            const paidAgo = now.getTime() - Date.parse(p.paid_at ?? p.updated_at);
            if (paidAgo >= options.windowMs) {
              found.push({
                ...base,
                key: `missing_transfer:${p.id}`,
                kind: "missing_transfer",
                stripeTransferId: p.stripe_transfer_id,
                stripeAmountCents: null,
                detail: `The ledger records ${money(p.amount_cents, p.currency)} paid to ${p.destination} by ${p.stripe_transfer_id}, which Stripe does not list in the run's transfers`,
              });
            }
            continue;
          }
          matched.add(t.id);
          if (t.amountCents !== p.amount_cents) {
            found.push({
              ...base,
              key: `amount_differs:${t.id}`,
              kind: "amount_differs",
              stripeTransferId: t.id,
              stripeAmountCents: t.amountCents,
              detail: `Stripe's transfer ${t.id} is ${money(t.amountCents, t.currency)}; the ledger records ${money(p.amount_cents, p.currency)} paid`,
            });
          }
        }
      }
      const strays = transfers.filter((t) => !matched.has(t.id) && !open.has(t.metadata.payout_id ?? ""));
      const owners = new Map((await findPayoutsByIds(db, [...new Set(strays.map((t) => t.metadata.payout_id).filter((x): x is string => !!x))])).map((p) => [p.id, p]));
      for (const t of strays) {
        const owner = owners.get(t.metadata.payout_id ?? "");
        const state = owner
          ? owner.status === "paid"
            ? `payout ${owner.id} is recorded as paid by ${owner.stripe_transfer_id}: the artist was paid twice`
            : `payout ${owner.id} is ${owner.status} in the ledger, so its amount counts as owed: the artist may be paid again`
          : "no payout of the ledger carries it";
        found.push({
          key: `unknown_transfer:${t.id}`,
          kind: "unknown_transfer",
          runId: run.id,
          payoutId: owner?.id ?? t.metadata.payout_id ?? null,
          vendorId: owner?.vendor_id ?? t.metadata.vendor_id ?? null,
          vendorName: owner?.vendor_name ?? null,
          destination: t.destination,
          stripeTransferId: t.id,
          stripeAmountCents: t.amountCents,
          ledgerAmountCents: null,
          detail: `Stripe made the transfer ${t.id} of ${money(t.amountCents, t.currency)} to ${t.destination ?? "?"} that the ledger does not count: ${state}`,
        });
      }
      await inTransaction(db, async (trx) => {
        for (const d of found) {
          if (await recordDifference(trx, newId(), d, at)) {
            summary.newDifferences += 1;
            await auditDifference(trx, deps, d);
          }
        }
        await resolveDifferencesNotSeen(trx, run.id, at);
      });
      summary.differences += found.length;
    }
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    summary.error = `Stripe: ${err.message}`;
  }
  await finishReconciliation(db, id, { finishedAt: deps.clock.now().toISOString(), ...summary });
  return summary;
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
