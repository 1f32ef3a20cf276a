import type {
  BalancesQuery,
  CheckPayoutResponse,
  BalancesResponse,
  FinancialDay,
  FinancialFigures,
  FinancialOverview,
  FinancialPeriod,
  PayoutItem,
  PayoutRunItem,
  PayoutRunsResponse,
  PayoutsQuery,
  PayoutsResponse,
  VendorPayoutsResponse,
  StatementResponse,
} from "../../../contract/financials.ts";
import { addDays, daysBetween, monthStart } from "../../domain/ledger/platform-days.queries.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { changedValues, recordAudit } from "../../domain/audit/audit-log.ts";
import { utcDay } from "../../platform/clock.ts";
import { newId } from "../../platform/db/ids.ts";
import type { Actor } from "../../platform/identity/actor.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { conflict, HttpError, notFound } from "../../platform/http/http-error.ts";
import { cancelPayout, insertPayoutRun, requestPayoutRunCancel, retryFailedPayout, setPayoutAccount } from "../../domain/ledger/payouts.ts";
import { accountStatusOf, Pacer, type PayoutProvider, ProviderError } from "../../platform/stripe/stripe-payouts.ts";
import { currentMinimumPayoutCents } from "../../domain/settings/settings.queries.ts";
import {
  countEligible,
  countPayouts,
  findPayout,
  findPayoutAccount,
  findPayoutRun,
  findVendorName,
  type FinancialDayRow,
  listBalancesPage,
  listPayoutRunsPage,
  listPayoutsPage,
  orphanPendingPayouts,
  readBalanceTotals,
  readOverviewDays,
  recentVendorPayouts,
} from "./financials.queries.ts";
import { dollars, toAccountItem, toBalanceItem, toPayoutItem, toRunItem } from "./financials.mapping.ts";
import { settleUnknownPayout } from "./payout-reconcile.ts";
import { PAYOUT_RETRY_JOB, PAYOUT_RUN_JOB } from "./payout-run.job.ts";
import { payoutProviderFor } from "./payout-provider.ts";
import { readStatementPage } from "./statement.ts";
import { encodeKeyset, keysetPage, readKeyset } from "../../platform/http/keyset-cursor.ts";

const providerMissing = () => new HttpError(422, "payment_provider_not_configured", "Payment provider not configured");
/** A run retries a job that failed on its own (a database outage) for a long while: its payouts wait for it. */
const RUN_MAX_ATTEMPTS = 50;
const RECENT_PAYOUTS = 5;

/** The first and last day of a period ending today, and the period of equal length before it. */
export function periodRange(period: FinancialPeriod, today: string): { from: string; to: string; prevFrom: string; prevTo: string } {
  const from = period === "mtd" ? monthStart(today) : period === "ytd" ? `${today.slice(0, 4)}-01-01` : addDays(today, -(Number(period) - 1));
  const length = daysBetween(from, today).length;
  return { from, to: today, prevFrom: addDays(from, -length), prevTo: addDays(from, -1) };
}

/**
 * The overview of a period ending today (docs/product.md §15.1), from the per-day rollup only:
 * the days from the previous period's start to today, and one sum of everything before them.
 */
export async function computeFinancialOverview(db: Executor, now: Date, period: FinancialPeriod): Promise<FinancialOverview> {
  const today = utcDay(now);
  const range = periodRange(period, today);
  const { owedBeforeCents, mrrBeforeCents, days } = await readOverviewDays(db, range.prevFrom);
  const zero: FinancialDayRow = { day: "", grossCents: 0, feesCents: 0, refundsCents: 0, payoutsCents: 0, mrrChangeCents: 0 };
  // Walk every day from the previous period's start to today: running totals give what was owed
  // and the recurring revenue in force at the end of each day.
  let owed = owedBeforeCents;
  let mrr = mrrBeforeCents;
  const perDay = daysBetween(range.prevFrom, range.to).map((day) => {
    const row = days.get(day) ?? zero;
    owed += row.grossCents - row.feesCents - row.payoutsCents;
    mrr += row.mrrChangeCents;
    return { day, row, owedAtEnd: owed, mrrAtEnd: mrr };
  });
  const figures = (from: string, to: string): FinancialFigures => {
    const inRange = perDay.filter((d) => d.day >= from && d.day <= to);
    const sum = (f: (d: (typeof perDay)[number]) => number) => inRange.reduce((s, d) => s + f(d), 0);
    const gross = sum((d) => d.row.grossCents);
    const fees = sum((d) => d.row.feesCents);
    return {
      from,
      to,
      grossSales: dollars(gross),
      platformFees: dollars(fees),
      // A subscription active at the end of a day earns its monthly fee × 12 / 365 for it.
      subscriptionRevenue: dollars(Math.round((sum((d) => d.mrrAtEnd) * 12) / 365)),
      refunds: dollars(sum((d) => d.row.refundsCents)),
      vendorEarnings: dollars(gross - fees),
      paidOut: dollars(sum((d) => d.row.payoutsCents)),
      outstandingBalance: dollars(inRange.at(-1)?.owedAtEnd ?? owedBeforeCents),
    };
  };
  const series: FinancialDay[] = perDay
    .filter((d) => d.day >= range.from)
    .map((d) => ({
      date: d.day,
      grossSales: dollars(d.row.grossCents),
      platformFees: dollars(d.row.feesCents),
      refunds: dollars(d.row.refundsCents),
      paidOut: dollars(d.row.payoutsCents),
    }));
  return { period, ...figures(range.from, range.to), previous: figures(range.prevFrom, range.prevTo), series };
}

/**
 * Financials and payouts (docs/product.md §15): figures from rollups, payouts and balances by
 * keyset pages, runs as background jobs, each admin action with its audit row in the same
 * transaction as the change.
 */
export class FinancialsService {
  private readonly provider: PayoutProvider | null;

  constructor(
    private readonly deps: Pick<AppDeps, "database" | "clock" | "config" | "jobs" | "fetchImpl">,
    provider?: PayoutProvider | null,
  ) {
    this.provider = provider === undefined ? payoutProviderFor(deps) : provider;
  }

  private get db() {
    return this.deps.database.db;
  }

  private now() {
    return this.deps.clock.now().toISOString();
  }

  overview(period: FinancialPeriod): Promise<FinancialOverview> {
    const { database, clock } = this.deps;
    return computeFinancialOverview(database.db, clock.now(), period);
  }

  async payouts(query: PayoutsQuery): Promise<PayoutsResponse> {
    let after: { createdAt: string; id: string } | undefined;
    if (query.cursor) {
      const key = readKeyset(query.cursor, ["string", "string"] as const);
      after = { createdAt: key[0], id: key[1] };
    }
    const filters = { status: query.status, vendorId: query.vendorId, runId: query.runId };
    const rows = await listPayoutsPage(this.db, filters, query.limit + 1, after);
    const { page, nextCursor } = keysetPage(rows, query.limit, (last) => encodeKeyset([last.created_at, last.id]));
    return { payouts: page.map(toPayoutItem), total: await countPayouts(this.db, filters), nextCursor };
  }

  async balances(query: BalancesQuery): Promise<BalancesResponse> {
    let after: { balanceCents: number; vendorId: string } | undefined;
    if (query.cursor) {
      const key = readKeyset(query.cursor, ["number", "string"] as const);
      after = { balanceCents: key[0], vendorId: key[1] };
    }
    const rows = await listBalancesPage(this.db, query.accountStatus, query.limit + 1, after);
    const { page, nextCursor } = keysetPage(rows, query.limit, (last) => encodeKeyset([last.balance_cents, last.vendor_id]));
    const totals = await readBalanceTotals(this.db, query.accountStatus);
    return { balances: page.map(toBalanceItem), total: totals.vendors, totalOwed: dollars(totals.cents), nextCursor };
  }

  /**
   * Starts a run (or, dry, counts who it would pay). One payout per vendor owed at least the
   * minimum with an active account; vendors owed that much without one are counted as skipped.
   */
  async createRun(actor: Actor, dryRun: boolean): Promise<{ run: PayoutRunItem }> {
    const minimumCents = await currentMinimumPayoutCents(this.db);
    const now = this.now();
    if (dryRun) {
      const counts = await countEligible(this.db, minimumCents);
      return {
        run: {
          id: "dry-run",
          status: "queued",
          dryRun: true,
          vendors: counts.payouts,
          total: dollars(counts.cents),
          done: 0,
          failed: 0,
          unknown: 0,
          canceled: 0,
          paidTotal: 0,
          skipped: counts.skipped,
          skippedTotal: dollars(counts.skippedCents),
          held: counts.held,
          minimum: dollars(minimumCents),
          createdAt: now,
          createdBy: actor.user.email,
          startedAt: null,
          finishedAt: null,
          error: null,
        },
      };
    }
    if (!this.provider) throw providerMissing();
    const runId = newId();
    await this.db.transaction().execute(async (trx) => {
      // Pending payouts of a run that ended on its own error go back into the balances first.
      for (const id of await orphanPendingPayouts(trx, 1000)) await cancelPayout(trx, id, now);
      const counts = await countEligible(trx, minimumCents);
      const inserted = await insertPayoutRun(trx, {
        id: runId,
        minimumCents,
        expectedPayouts: counts.payouts,
        expectedCents: counts.cents,
        skipped: counts.skipped,
        skippedCents: counts.skippedCents,
        held: counts.held,
        createdBy: actor.user.email,
        createdAt: now,
      });
      if (!inserted) throw conflict("A payout run is already in progress; wait for it to finish or cancel it");
      await this.deps.jobs.enqueue(PAYOUT_RUN_JOB, { runId }, { executor: trx, id: runId, createdBy: actor.user.email, maxAttempts: RUN_MAX_ATTEMPTS });
      await recordAudit(
        trx,
        {
          actor,
          action: "payouts.run",
          target: { type: "payout_run", id: runId, label: `Payout run ${now.slice(0, 10)}` },
          details: { vendors: counts.payouts, totalCents: counts.cents, minimumCents, skipped: counts.skipped, skippedCents: counts.skippedCents, held: counts.held },
        },
        this.deps.clock,
      );
    });
    return { run: toRunItem((await findPayoutRun(this.db, runId))!) };
  }

  async listRuns(limit: number, cursor: string | undefined): Promise<PayoutRunsResponse> {
    let after: { createdAt: string; id: string } | undefined;
    if (cursor) {
      const key = readKeyset(cursor, ["string", "string"] as const);
      after = { createdAt: key[0], id: key[1] };
    }
    const rows = await listPayoutRunsPage(this.db, limit + 1, after);
    const { page, nextCursor } = keysetPage(rows, limit, (last) => encodeKeyset([last.created_at, last.id]));
    return { runs: page.map(toRunItem), nextCursor };
  }

  async run(id: string): Promise<{ run: PayoutRunItem }> {
    const run = await findPayoutRun(this.db, id);
    if (!run) throw notFound("Payout run not found");
    const job = run.active === 1 ? await this.deps.jobs.get(id) : undefined;
    // A job that gave up (its own error, many times over) leaves the run as failed.
    if (job?.status === "failed") return { run: { ...toRunItem(run), status: "failed", error: job.error } };
    return { run: toRunItem(run) };
  }

  /** Stops a run: what has not started is canceled by the worker at its next check; transfers being made finish. */
  async cancelRun(actor: Actor, id: string): Promise<{ run: PayoutRunItem }> {
    await this.db.transaction().execute(async (trx) => {
      const run = await findPayoutRun(trx, id);
      if (!run) throw notFound("Payout run not found");
      // One cancel per run: of two at once, the second finds it asked already (409, no audit row).
      if (!(await requestPayoutRunCancel(trx, id))) {
        const now = await findPayoutRun(trx, id);
        if (now?.active === 1) throw conflict("This payout run is already being canceled");
        throw conflict(`This payout run has already ${now?.status === "canceled" ? "been canceled" : "finished"}`);
      }
      const job = await this.deps.jobs.get(id, trx);
      if (job?.status === "running") await this.deps.jobs.cancel(id, trx);
      await recordAudit(
        trx,
        {
          actor,
          action: "payouts.run.cancel",
          target: { type: "payout_run", id, label: `Payout run ${run.created_at.slice(0, 10)}` },
          details: { paid: run.paid, failed: run.failed, pending: run.pending, processing: run.processing },
        },
        this.deps.clock,
      );
    });
    return this.run(id);
  }

  /**
   * Sends a failed payout again, as a job of its own. Also takes up a payout a failed run left in
   * processing (it is asked for again with the same key, so Stripe answers the same transfer).
   */
  async retryPayout(actor: Actor, id: string): Promise<{ payout: PayoutItem }> {
    const now = this.now();
    await this.db.transaction().execute(async (trx) => {
      const current = await findPayout(trx, id);
      if (!current) throw notFound("Payout not found");
      if (!this.provider) throw providerMissing();
      if (current.status === "unknown") throw conflict("This payout's outcome is unknown: Stripe may have made the transfer. Check it with Stripe; it can be retried only if Stripe has none");
      if (current.status === "processing") {
        const run = await findPayoutRun(trx, current.run_id);
        if (run?.active === 1) throw conflict("This payout is being sent by its run");
      } else {
        const account = await findPayoutAccount(trx, current.vendor_id);
        if (account && account.status !== "active") {
          throw conflict(`The artist's payout account is ${account.status.replace("_", " ")}; refresh it once the artist has completed their Stripe account`);
        }
        await retryFailedPayout(trx, id, now);
      }
      // Sending it twice at once would be harmless (same idempotency key, conditional updates).
      await this.deps.jobs.enqueue(PAYOUT_RETRY_JOB, { payoutId: id }, { executor: trx, createdBy: actor.user.email, maxAttempts: RUN_MAX_ATTEMPTS });
      // A failed payout becomes pending (its reason cleared); one a failed run left processing stays
      // as it is and is only sent again, so its row has no before and after.
      const resumed = current.status === "processing";
      await recordAudit(
        trx,
        {
          actor,
          action: "payout.retry",
          target: { type: "payout", id, label: `${current.vendor_name} ${dollars(current.amount_cents).toFixed(2)} ${current.currency.toUpperCase()}` },
          ...changedValues(
            { status: current.status, failureReason: current.failure_reason },
            resumed ? { status: current.status, failureReason: current.failure_reason } : { status: "pending", failureReason: null },
          ),
          details: { vendorId: current.vendor_id, runId: current.run_id, amountCents: current.amount_cents, ...(resumed ? { resumed } : {}) },
        },
        this.deps.clock,
      );
    });
    return { payout: toPayoutItem((await findPayout(this.db, id))!) };
  }

  /**
   * "Check with Stripe" on a payout whose outcome is unknown (docs/product.md §15.3): lists its
   * run's transfers to its account; paid when one carries its id, owed again when none does after
   * the safe window, still unknown otherwise. One audit row whatever the answer.
   */
  async checkPayout(actor: Actor, id: string): Promise<CheckPayoutResponse> {
    const current = await findPayout(this.db, id);
    if (!current) throw notFound("Payout not found");
    if (!this.provider) throw providerMissing();
    if (current.status !== "unknown") throw conflict(`Only a payout whose outcome is unknown can be checked with Stripe (this one is ${current.status})`);
    try {
      const result = await settleUnknownPayout(this.deps, this.provider, new Pacer(this.deps.config.stripeMaxRps), current, this.deps.config.payoutUnknownWindowMs, actor);
      return { payout: toPayoutItem(result.payout), outcome: result.outcome, message: result.message };
    } catch (err) {
      if (err instanceof ProviderError) throw new HttpError(502, "payment_provider_error", `Stripe: ${err.message}`);
      throw err;
    }
  }

  /** The artist's statement (docs/product.md §15.8): one page, newest first, with the running balance. */
  statement(vendorId: string, cursor: string | undefined, limit: number): Promise<StatementResponse> {
    return readStatementPage(this.db, vendorId, cursor, limit);
  }

  async vendorPayouts(vendorId: string): Promise<VendorPayoutsResponse> {
    const account = await findPayoutAccount(this.db, vendorId);
    if (!account) throw notFound("Vendor not found");
    return {
      account: toAccountItem(account),
      money: {
        earned: dollars(account.earned_cents),
        paidOut: dollars(account.paid_out_cents),
        inFlight: dollars(account.in_flight_cents),
        balance: dollars(account.balance_cents),
        lastPayoutAt: account.last_payout_at,
      },
      recentPayouts: (await recentVendorPayouts(this.db, vendorId, RECENT_PAYOUTS)).map(toPayoutItem),
    };
  }

  /** Reads the connected account from Stripe (accounts.retrieve) and stores its status. */
  async refreshAccount(actor: Actor, vendorId: string): Promise<VendorPayoutsResponse> {
    const account = await findPayoutAccount(this.db, vendorId);
    if (!account) throw notFound("Vendor not found");
    if (!this.provider) throw providerMissing();
    if (!account.stripe_account_id) throw conflict("This artist has not connected a Stripe account yet");
    let facts;
    try {
      facts = await this.provider.retrieveAccount(account.stripe_account_id);
    } catch (err) {
      if (err instanceof ProviderError) throw new HttpError(502, "payment_provider_error", `Stripe: ${err.message}`);
      throw err;
    }
    const status = accountStatusOf(facts);
    const name = (await findVendorName(this.db, vendorId)) ?? vendorId;
    await this.db.transaction().execute(async (trx) => {
      const changed = await setPayoutAccount(trx, vendorId, {
        status,
        chargesEnabled: facts.chargesEnabled,
        payoutsEnabled: facts.payoutsEnabled,
        requirements: { currentlyDue: facts.currentlyDue, pastDue: facts.pastDue, disabledReason: facts.disabledReason },
        checkedAt: this.now(),
      });
      if (!changed) throw notFound("Vendor not found");
      await recordAudit(
        trx,
        {
          actor,
          action: "payout_account.refresh",
          target: { type: "vendor", id: vendorId, label: name },
          // Every refresh is recorded (it is a check with Stripe); before and after only when the account changed.
          ...changedValues(
            { status: changed.before.status, chargesEnabled: changed.before.charges_enabled === 1, payoutsEnabled: changed.before.payouts_enabled === 1 },
            { status, chargesEnabled: facts.chargesEnabled, payoutsEnabled: facts.payoutsEnabled },
          ),
          details: { stripeAccountId: account.stripe_account_id, currentlyDue: facts.currentlyDue, pastDue: facts.pastDue, disabledReason: facts.disabledReason },
        },
        this.deps.clock,
      );
    });
    return this.vendorPayouts(vendorId);
  }
}
