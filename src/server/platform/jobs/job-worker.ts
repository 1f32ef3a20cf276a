import { randomUUID } from "node:crypto";
import type { Clock } from "../clock.ts";
import type { Database } from "../db/connect.ts";
import { newId } from "../db/ids.ts";
import type { Job } from "../db/schema.ts";
import { logEvent, processLog } from "../logging/logger.ts";
import { jobsFailed } from "../metrics/metrics.ts";
import { finishJob, insertJob, isCancelRequested, isOtherJobDue, renewLease, selectClaimable, takeLease } from "./jobs.queries.ts";

/** What a handler gets while it runs its job. */
export interface JobContext<P> {
  job: Job;
  payload: P;
  /** Stores how far the job got (screens poll it) and extends the lease. */
  reportProgress(progress: unknown): Promise<void>;
  /** True once an operator asked the job to stop, or this worker lost the job to another; check between steps. */
  shouldStop(): Promise<boolean>;
  /** True when a job of another kind this worker runs is due: a long job in slices hands over (job-slice.ts). */
  othersWaiting(): Promise<boolean>;
}

/**
 * Does one kind of work. It must be resumable: after a crash another worker runs it again from
 * the start with the same payload, so it continues from what it stored (and calls outside services
 * idempotently), never redoing what is done. It returns the job's result.
 */
export type JobHandler<P = unknown> = (context: JobContext<P>) => Promise<unknown>;

export interface JobWorkerOptions {
  /** How long a claim holds without renewal; a worker that dies loses its jobs after this. */
  leaseMs?: number;
  /** How often an idle worker looks for work. */
  pollMs?: number;
  /** Delay before a failed attempt is tried again (doubled each attempt). */
  retryBaseMs?: number;
}

interface Schedule {
  kind: string;
  everyMs: number;
  payload: unknown;
  lastSlot: number | null;
}

/**
 * Runs database-backed jobs inside a server process. A job is claimed under a lease in one short
 * transaction (a conditional update, and on PostgreSQL a skip-locked row lock), so with several
 * processes exactly one runs it; the lease is renewed while the handler works, and a job whose
 * worker died is taken over when its lease expires.
 */
export class JobWorker {
  readonly owner = `worker-${randomUUID()}`;
  private readonly handlers = new Map<string, JobHandler<never>>();
  private readonly schedules: Schedule[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  /** Set by stop(): a running handler sees shouldStop() and ends its step early. */
  private stopRequested = false;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly retryBaseMs: number;

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    options: JobWorkerOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? 30_000;
    this.pollMs = options.pollMs ?? 1_000;
    this.retryBaseMs = options.retryBaseMs ?? 5_000;
  }

  register<P>(kind: string, handler: JobHandler<P>): void {
    this.handlers.set(kind, handler as JobHandler<never>);
  }

  /** Enqueues `kind` once per period (per UTC slot of `everyMs`), whatever the number of processes. */
  schedule(kind: string, everyMs: number, payload: unknown = {}): void {
    this.schedules.push({ kind, everyMs, payload, lastSlot: null });
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.tick();
  }

  /** Stops taking work and waits for the job in hand (its lease lets another worker take over if it never ends). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopRequested = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private tick(): void {
    if (this.stopped) return;
    this.running = (async () => {
      try {
        await this.enqueueDueSchedules();
        // Work while there is work; then wait a poll interval.
        while (!this.stopped && (await this.runOnce())) {
          /* next job */
        }
      } catch (err) {
        // Claiming or scheduling failed (the database is down or busy): the next poll tries again.
        logEvent(processLog(), "error", "job worker could not claim or schedule jobs", { err });
      }
    })();
    void this.running.finally(() => {
      if (!this.stopped) this.timer = setTimeout(() => this.tick(), this.pollMs);
    });
  }

  async enqueueDueSchedules(): Promise<void> {
    const now = this.clock.now();
    for (const schedule of this.schedules) {
      const slot = Math.floor(now.getTime() / schedule.everyMs);
      if (schedule.lastSlot === slot) continue;
      const at = now.toISOString();
      await insertJob(this.database.db, { id: newId(), kind: schedule.kind, payload: schedule.payload, dedupeKey: `${schedule.kind}:${slot}`, runAfter: at, now: at });
      schedule.lastSlot = slot;
    }
  }

  /** Claims and runs one due job; false when there was none. Tests drive the worker with this. */
  async runOnce(): Promise<boolean> {
    const job = await this.claim();
    if (!job) return false;
    await this.run(job);
    return true;
  }

  private async claim(): Promise<Job | null> {
    const kinds = [...this.handlers.keys()];
    if (kinds.length === 0) return null;
    const { db, kind } = this.database;
    return db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      const candidate = await selectClaimable(trx, kinds, now.toISOString(), kind === "postgres");
      if (!candidate) return null;
      const leaseExpiresAt = new Date(now.getTime() + this.leaseMs).toISOString();
      if (!(await takeLease(trx, candidate, this.owner, now.toISOString(), leaseExpiresAt))) return null;
      return { ...candidate, status: "running" as const, attempts: candidate.attempts + 1, lease_owner: this.owner, lease_expires_at: leaseExpiresAt };
    });
  }

  private async run(job: Job): Promise<void> {
    const handler = this.handlers.get(job.kind)!;
    const { db } = this.database;
    let leaseLost = false;
    const renew = async (progress?: unknown) => {
      const now = this.clock.now();
      const kept = await renewLease(db, job.id, this.owner, now.toISOString(), new Date(now.getTime() + this.leaseMs).toISOString(), progress);
      if (!kept) leaseLost = true;
    };
    // The lease is renewed on a timer too, so a long step does not lose it.
    const heartbeat = setInterval(() => void renew().catch(() => undefined), Math.max(1_000, Math.floor(this.leaseMs / 3)));
    heartbeat.unref();
    const context: JobContext<never> = {
      job,
      payload: JSON.parse(job.payload) as never,
      reportProgress: (progress) => renew(progress),
      shouldStop: async () => leaseLost || this.stopRequested || (await isCancelRequested(db, job.id)),
      othersWaiting: () => isOtherJobDue(db, [...this.handlers.keys()], job.kind, this.clock.now().toISOString()),
    };
    try {
      const result = await handler(context);
      if (leaseLost) return;
      const canceled = await isCancelRequested(db, job.id);
      await finishJob(db, job.id, this.owner, { status: canceled ? "canceled" : "completed", result: result ?? null }, this.clock.now().toISOString());
    } catch (err) {
      if (leaseLost) return;
      const message = err instanceof Error ? err.message : String(err);
      const now = this.clock.now();
      const retry = job.attempts < job.max_attempts;
      const runAfter = new Date(now.getTime() + this.retryBaseMs * 2 ** (job.attempts - 1)).toISOString();
      jobsFailed.inc({ kind: job.kind });
      const fields = { kind: job.kind, jobId: job.id, attempt: job.attempts, maxAttempts: job.max_attempts, ...(retry ? { retryAt: runAfter } : {}), err };
      logEvent(processLog(), retry ? "warn" : "error", retry ? "job attempt failed; tried again later" : "job failed for good", fields);
      await finishJob(db, job.id, this.owner, retry ? { status: "queued", error: message, runAfter } : { status: "failed", error: message }, now.toISOString());
    } finally {
      clearInterval(heartbeat);
    }
  }
}
