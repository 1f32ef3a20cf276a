import type { AppDeps } from "../../platform/request/app-env.ts";
import type { Clock } from "../../platform/clock.ts";
import type { Database } from "../../platform/db/connect.ts";
import { newId } from "../../platform/db/ids.ts";
import type { Payout } from "../../platform/db/schema.ts";
import type { JobContext } from "../../platform/jobs/job-worker.ts";
import type { JobWorker } from "../../platform/jobs/job-worker.ts";
import {
  addPendingPayouts,
  cancelPendingPayouts,
  finishPayoutRun,
  markPayoutFailed,
  markPayoutPaid,
  markPayoutProcessing,
  markPayoutUnknown,
  markRunProcessingUnknown,
  setRunPlanCursor,
  startPayoutRun,
} from "../../domain/ledger/payouts.ts";
import { Pacer, type PayoutProvider, type TransferOutcome } from "../../platform/stripe/stripe-payouts.ts";
import { findPayout, findPayoutRun, isRunCancelRequested, nextEligibleAccounts, runPayoutsInStatus } from "./financials.queries.ts";
import { reconcileWithStripe, settleUnknownPayouts } from "./payout-reconcile.ts";
import { payoutProviderFor } from "./payout-provider.ts";

/**
 * A payout run as a background job (docs/product.md §15.3). The job's id is the run's id. It can
 * be cut at any point (kill -9, a lost lease) and run again from the start by another worker:
 * - planning walks the vendors by id in chunks; each chunk's payouts and the cursor are written in
 *   one transaction, so a vendor is never planned twice;
 * - sending marks a payout processing, asks Stripe for the transfer with an idempotency key made
 *   from the payout's id and attempt, then marks it paid or failed; a run that resumes first
 *   re-asks for the payouts it left in processing, with the same key, and Stripe answers with the
 *   transfer it already made: never a second one;
 * - calls are paced at STRIPE_MAX_RPS; 429s, Stripe's 5xx and timeouts are retried with the same key;
 * - when the calls run out without a definite answer after a 5xx or a timeout, Stripe may have made
 *   the transfer (and keeps answering the key with the same 500): the payout becomes `unknown`,
 *   stays in flight, and is settled by listing the run's transfers (payout-reconcile.ts): at the
 *   end of the run, every PAYOUT_SETTLE_JOB period, and from "Check with Stripe". A run ending
 *   with unknown payouts is `unresolved` until they are settled.
 */
export const PAYOUT_RUN_JOB = "payouts.run";
export const PAYOUT_RETRY_JOB = "payouts.retry";
/** Settles payouts whose outcome is unknown (scheduled). */
export const PAYOUT_SETTLE_JOB = "payouts.settle";
/** Compares Stripe's transfers of the last days with the ledger (daily). */
export const PAYOUT_RECONCILE_JOB = "payouts.reconcile";
const DAY_MS = 86_400_000;

export interface PayoutJobOptions {
  /** Replaces the provider made from the configuration (tests). */
  provider?: PayoutProvider | null;
  /** Calls per second; default STRIPE_MAX_RPS. */
  maxRps?: number;
  /** Calls for one payout before it is failed (with its last message). */
  maxCallsPerPayout?: number;
  /** First wait after a retryable answer without Retry-After (doubled each time, capped at 8 s). */
  backoffBaseMs?: number;
  /** Vendors read per planning chunk. */
  planChunk?: number;
  /** How long after a payout's last attempt Stripe's "no such transfer" is believed; default PAYOUT_UNKNOWN_WINDOW_SECONDS. */
  unknownWindowMs?: number;
}

/** How often unknown payouts are checked with Stripe: the window, between 5 s and 5 minutes. */
export function settleEveryMs(windowMs: number): number {
  return Math.min(5 * 60_000, Math.max(5_000, windowMs));
}

const PAGE = 200;

export function payoutJobs(worker: JobWorker, deps: AppDeps, options: PayoutJobOptions = {}): void {
  const provider = options.provider === undefined ? payoutProviderFor(deps) : options.provider;
  const windowMs = options.unknownWindowMs ?? deps.config.payoutUnknownWindowMs;
  const pacer = () => new Pacer(options.maxRps ?? deps.config.stripeMaxRps);
  worker.register<{ runId: string }>(PAYOUT_RUN_JOB, (ctx) => runPayouts(ctx, deps, provider, options));
  worker.register<{ payoutId: string }>(PAYOUT_RETRY_JOB, (ctx) => sendOnePayout(ctx.payload.payoutId, deps, provider, options));
  worker.register(PAYOUT_SETTLE_JOB, async (ctx) => {
    if (!provider) return { skipped: "Payment provider not configured" };
    return settleUnknownPayouts(deps, provider, pacer(), { windowMs, shouldStop: () => ctx.shouldStop() });
  });
  worker.register(PAYOUT_RECONCILE_JOB, async (ctx) => {
    if (!provider) return { skipped: "Payment provider not configured" };
    return reconcileWithStripe(deps, provider, pacer(), { windowMs, shouldStop: () => ctx.shouldStop() });
  });
  if (provider) {
    worker.schedule(PAYOUT_SETTLE_JOB, settleEveryMs(windowMs));
    worker.schedule(PAYOUT_RECONCILE_JOB, DAY_MS);
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Sends one payout that is in processing, until Stripe gives a definite answer or the calls run out. */
class PayoutSender {
  aborted: string | null = null;
  private readonly maxCalls: number;
  private readonly backoffBaseMs: number;

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly provider: PayoutProvider,
    private readonly pacer: Pacer,
    options: PayoutJobOptions,
  ) {
    this.maxCalls = options.maxCallsPerPayout ?? 6;
    this.backoffBaseMs = options.backoffBaseMs ?? 500;
  }

  private now = () => this.clock.now().toISOString();

  /**
   * `resumed`: the payout was already processing (an earlier attempt, perhaps a process that died,
   * asked for it and nobody heard the answer), so its transfer may exist from the start.
   */
  async send(p: Payout, resumed: boolean): Promise<"paid" | "failed" | "unknown" | "abort"> {
    const db = this.database.db;
    let last: Extract<TransferOutcome, { kind: "retry" }> | null = null;
    // Once a call may have reached Stripe without a definite answer, only Stripe's list can say
    // whether the transfer exists: never "failed" (owed again) on our own. A run of 429s after
    // such a call proves nothing (Stripe's rate limit answers before it looks at the key).
    let mayExist = resumed;
    for (let call = 1; call <= this.maxCalls; call++) {
      await this.pacer.slot();
      const outcome = await this.provider.createTransfer({
        amountCents: p.amount_cents,
        currency: p.currency,
        destination: p.destination,
        transferGroup: p.run_id,
        idempotencyKey: `payout_${p.id}_${p.attempt}`,
        metadata: { payout_id: p.id, vendor_id: p.vendor_id, run_id: p.run_id },
      });
      if (outcome.kind === "paid") {
        await markPayoutPaid(db, p.id, outcome.transferId, this.now());
        return "paid";
      }
      if (outcome.kind === "failed") {
        await markPayoutFailed(db, p.id, outcome.message, false, this.now());
        return "failed";
      }
      if (outcome.kind === "abort") {
        this.aborted = outcome.message;
        if (mayExist) await markPayoutUnknown(db, p.id, `${outcome.message} (after an earlier call without a definite answer)`, this.now());
        else await markPayoutFailed(db, p.id, outcome.message, true, this.now());
        return "abort";
      }
      last = outcome;
      if (outcome.outcomeUnknown) mayExist = true;
      if (call < this.maxCalls) {
        const wait = outcome.retryAfterMs ?? Math.min(8_000, this.backoffBaseMs * 2 ** (call - 1));
        // A 429 slows every sender down, not just this one.
        if (!outcome.outcomeUnknown) this.pacer.pause(wait);
        await sleep(wait);
      }
    }
    const message = `${last?.message ?? "No answer from Stripe"} (gave up after ${this.maxCalls} attempts)`;
    if (mayExist || !last) {
      await markPayoutUnknown(db, p.id, `Outcome unknown: ${message}; Stripe may have made the transfer, so it is checked with Stripe before anything is sent again`, this.now());
      return "unknown";
    }
    // Only 429s: Stripe did nothing.
    await markPayoutFailed(db, p.id, message, false, this.now());
    return "failed";
  }
}

function concurrencyFor(rps: number): number {
  // Enough calls in the air to keep the pace with Stripe's ~0.3–0.5 s answers, never a crowd.
  return Math.min(32, Math.max(1, Math.ceil(rps / 2)));
}

function runPayouts(ctx: JobContext<{ runId: string }>, deps: AppDeps, provider: PayoutProvider | null, options: PayoutJobOptions): Promise<unknown> {
  return new PayoutRunJob(ctx, deps, provider, options).run();
}

type RunEnd = "completed" | "canceled" | "failed";

/**
 * One worker's turn at a payout run, in its steps: plan the payouts (in chunks, resumable), send
 * them (what an earlier worker left in processing first, then the pending ones, a few at a time at
 * Stripe's pace), then finish. Cancel is looked for between chunks and payouts; a stop (shutdown,
 * lost lease) leaves the run for the next worker, which resumes where this one left off.
 */
class PayoutRunJob {
  private readonly db: AppDeps["database"]["db"];
  private readonly runId: string;

  constructor(
    private readonly ctx: JobContext<{ runId: string }>,
    private readonly deps: AppDeps,
    private readonly provider: PayoutProvider | null,
    private readonly options: PayoutJobOptions,
  ) {
    this.db = deps.database.db;
    this.runId = ctx.payload.runId;
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  async run(): Promise<unknown> {
    const run = await findPayoutRun(this.db, this.runId);
    if (!run || run.active !== 1) return { runId: this.runId, skipped: "the run is not active" };
    if (!this.provider) return this.finish("failed", "Payment provider not configured");
    await startPayoutRun(this.db, this.runId, this.now());
    const planning = await this.plan(run);
    if (planning === "cancel") return this.finish("canceled");
    if (planning === "stop") throw this.interrupted();
    const sent = await this.send(this.provider);
    if (sent.reason === "stop") throw this.interrupted();
    if (sent.aborted) return this.finish("failed", `Stripe refused the API key: ${sent.aborted}`);
    if (sent.reason === "cancel" || (await isRunCancelRequested(this.db, this.runId))) return this.finish("canceled");
    return this.finish("completed");
  }

  /** "cancel" when an admin asked, "stop" when this worker must let go (shutdown, lost lease). */
  private async stopReason(): Promise<"cancel" | "stop" | null> {
    if (await isRunCancelRequested(this.db, this.runId)) return "cancel";
    if (await this.ctx.shouldStop()) return "stop";
    return null;
  }

  private interrupted(): Error {
    return new Error("Payout run interrupted (server stopping or job taken over); it resumes where it left off");
  }

  /** 1. Planning: each eligible artist's balance becomes a pending payout, a chunk per transaction, from where the last worker stopped. */
  private async plan(run: NonNullable<Awaited<ReturnType<typeof findPayoutRun>>>): Promise<"done" | "cancel" | "stop"> {
    const planChunk = this.options.planChunk ?? 500;
    let cursor = run.plan_cursor;
    let planned = run.planning_done === 1;
    while (!planned) {
      const reason = await this.stopReason();
      if (reason) return reason;
      await this.db.transaction().execute(async (trx) => {
        const next = await nextEligibleAccounts(trx, run.minimum_cents, cursor, planChunk);
        await addPendingPayouts(
          trx,
          this.runId,
          next.accounts.map((a) => ({ id: newId(), vendorId: a.vendorId, vendorName: a.vendorName, destination: a.destination, amountCents: a.balanceCents })),
          this.now(),
        );
        await setRunPlanCursor(trx, this.runId, next.lastVendorId, next.exhausted);
        cursor = next.lastVendorId;
        planned = next.exhausted;
      });
    }
    return "done";
  }

  /** 2. Sending: first what a previous attempt left in processing (same key), then the pending ones. */
  private async send(provider: PayoutProvider): Promise<{ reason: "cancel" | "stop" | null; aborted: string | null }> {
    const { database, clock } = this.deps;
    const rps = this.options.maxRps ?? this.deps.config.stripeMaxRps;
    const sender = new PayoutSender(database, clock, provider, new Pacer(rps), this.options);
    const concurrency = concurrencyFor(rps);
    const inFlight = new Set<Promise<void>>();
    let failure: unknown = null;
    let reason: "cancel" | "stop" | null = null;
    let launched = 0;
    let checkedAt = performance.now();
    const launch = (p: Payout, fromStatus: "processing" | "pending") => {
      const task = (async () => {
        const claimed = fromStatus === "pending" ? await markPayoutProcessing(this.db, p.id, this.now()) : p;
        if (claimed) await sender.send(claimed, fromStatus === "processing");
      })().catch((err: unknown) => {
        failure ??= err;
      });
      inFlight.add(task);
      void task.finally(() => inFlight.delete(task));
    };

    outer: for (const status of ["processing", "pending"] as const) {
      let after: string | null = null;
      for (;;) {
        const page = await runPayoutsInStatus(this.db, this.runId, status, after, PAGE);
        if (page.length === 0) break;
        for (const p of page) {
          after = p.id;
          if (sender.aborted || failure) break outer;
          // Cancel and stop are looked for every 10 payouts, and at least 5 times a second.
          if (launched % 10 === 0 || performance.now() - checkedAt > 200) {
            checkedAt = performance.now();
            reason = await this.stopReason();
            if (reason) break outer;
          }
          while (inFlight.size >= concurrency) await Promise.race(inFlight);
          launch(p, status);
          launched += 1;
        }
        await this.reportProgress();
      }
    }
    await Promise.all(inFlight);
    if (failure) throw failure;
    return { reason, aborted: sender.aborted };
  }

  private async reportProgress(): Promise<void> {
    const progress = await findPayoutRun(this.db, this.runId);
    if (progress) await this.ctx.reportProgress({ payouts: progress.payouts, paid: progress.paid, failed: progress.failed, unknown: progress.unknown, canceled: progress.canceled });
  }

  /**
   * 3. Ends the run: whatever is still pending is canceled (in chunks); payouts left in processing
   * (a previous worker asked for them and this one did not get to) become unknown; the unknown
   * ones are checked with Stripe once; then its final status (`unresolved` while any is unknown).
   */
  private async finish(status: RunEnd, error: string | null = null) {
    const { db, runId } = this;
    while ((await cancelPendingPayouts(db, runId, this.now())) > 0) {
      /* next chunk */
    }
    while ((await markRunProcessingUnknown(db, runId, "Outcome unknown: the run ended while this payout was being sent by an earlier attempt; it is checked with Stripe", this.now())) > 0) {
      /* next chunk */
    }
    if (this.provider) {
      const windowMs = this.options.unknownWindowMs ?? this.deps.config.payoutUnknownWindowMs;
      await settleUnknownPayouts(this.deps, this.provider, new Pacer(this.options.maxRps ?? this.deps.config.stripeMaxRps), { runId, windowMs });
    }
    await finishPayoutRun(db, runId, status, this.now(), error);
    const final = await findPayoutRun(db, runId);
    return { runId, status: final?.status ?? status, paid: final?.paid ?? 0, failed: final?.failed ?? 0, unknown: final?.unknown ?? 0, canceled: final?.canceled ?? 0 };
  }
}

/** A retried payout (or one a failed run left in processing), sent on its own. */
async function sendOnePayout(payoutId: string, deps: AppDeps, provider: PayoutProvider | null, options: PayoutJobOptions): Promise<unknown> {
  const { database, clock } = deps;
  const p = await findPayout(database.db, payoutId);
  if (!p) return { payoutId, skipped: "not found" };
  if (!provider) {
    if (p.status === "pending") {
      const claimed = await markPayoutProcessing(database.db, p.id, clock.now().toISOString());
      if (claimed) await markPayoutFailed(database.db, p.id, "Payment provider not configured", true, clock.now().toISOString());
    }
    return { payoutId, status: "failed" };
  }
  const claimed = p.status === "pending" ? await markPayoutProcessing(database.db, p.id, clock.now().toISOString()) : p.status === "processing" ? p : null;
  if (!claimed) return { payoutId, skipped: p.status };
  const sender = new PayoutSender(database, clock, provider, new Pacer(options.maxRps ?? deps.config.stripeMaxRps), options);
  return { payoutId, status: await sender.send(claimed, p.status === "processing") };
}
