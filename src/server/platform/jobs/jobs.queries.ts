import type { Job, JobStatus } from "../db/schema.ts";
import type { Executor } from "../db/executor.ts";

export interface NewJob {
  id: string;
  kind: string;
  payload: unknown;
  dedupeKey?: string | null;
  maxAttempts?: number;
  runAfter: string;
  createdBy?: string | null;
  now: string;
}

/** Adds a queued job; with a dedupe key already taken, adds nothing and returns false. */
export async function insertJob(db: Executor, job: NewJob): Promise<boolean> {
  const result = await db
    .insertInto("jobs")
    .values({
      id: job.id,
      kind: job.kind,
      status: "queued",
      payload: JSON.stringify(job.payload ?? null),
      dedupe_key: job.dedupeKey ?? null,
      max_attempts: job.maxAttempts ?? 5,
      run_after: job.runAfter,
      created_by: job.createdBy ?? null,
      created_at: job.now,
      updated_at: job.now,
    })
    .onConflict((oc) => oc.column("dedupe_key").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export function findJob(db: Executor, id: string): Promise<Job | undefined> {
  return db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirst();
}

/** The newest job of a kind that is not finished (queued or running), if any. */
export function findActiveJob(db: Executor, kind: string): Promise<Job | undefined> {
  return db.selectFrom("jobs").selectAll().where("kind", "=", kind).where("status", "in", ["queued", "running"]).orderBy("created_at", "desc").limit(1).executeTakeFirst();
}

/**
 * The next job a worker may take: due and queued, or running under a lease that has expired (its
 * worker died). Index jobs_claim_idx. On PostgreSQL the row is locked and others skip it.
 */
export async function selectClaimable(db: Executor, kinds: readonly string[], now: string, postgres: boolean): Promise<Job | undefined> {
  let query = db
    .selectFrom("jobs")
    .selectAll()
    .where("kind", "in", kinds)
    .where((eb) => eb.or([eb.and([eb("status", "=", "queued"), eb("run_after", "<=", now)]), eb.and([eb("status", "=", "running"), eb("lease_expires_at", "<", now)])]))
    .orderBy("run_after")
    .limit(1);
  if (postgres) query = query.forUpdate().skipLocked();
  return query.executeTakeFirst();
}

/** The dedupe key of a long job's next slice: `<kind>:after:<the job before>` (job-slice.ts). */
export const continuationKey = (kind: string, after: string): string => `${kind}:after:${after}`;

/**
 * Whether a queued job of one of `kinds` other than `except` is due (jobs_claim_idx). Another long
 * job's next slice does not count: two long jobs take turns by whole slices, not every moment.
 */
export async function isOtherJobDue(db: Executor, kinds: readonly string[], except: string, now: string): Promise<boolean> {
  const others = kinds.filter((k) => k !== except);
  if (others.length === 0) return false;
  const row = await db
    .selectFrom("jobs")
    .select("id")
    .where("status", "=", "queued")
    .where("run_after", "<=", now)
    .where("kind", "in", others)
    .where((eb) => eb.or([eb("dedupe_key", "is", null), eb("dedupe_key", "not like", "%:after:%")]))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Takes the job for `owner` if it is still claimable; false when another worker was first. */
export async function takeLease(db: Executor, job: Job, owner: string, now: string, leaseExpiresAt: string): Promise<boolean> {
  const result = await db
    .updateTable("jobs")
    .set({ status: "running", lease_owner: owner, lease_expires_at: leaseExpiresAt, attempts: job.attempts + 1, started_at: job.started_at ?? now, updated_at: now })
    .where("id", "=", job.id)
    .where("status", "=", job.status)
    .where("attempts", "=", job.attempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Extends the lease while `owner` still holds it; false when it was lost. */
export async function renewLease(db: Executor, id: string, owner: string, now: string, leaseExpiresAt: string, progress?: unknown): Promise<boolean> {
  const result = await db
    .updateTable("jobs")
    .set({ lease_expires_at: leaseExpiresAt, updated_at: now, ...(progress !== undefined ? { progress: JSON.stringify(progress) } : {}) })
    .where("id", "=", id)
    .where("lease_owner", "=", owner)
    .where("status", "=", "running")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends the job as `status` while `owner` holds it; false when the lease was lost meanwhile. */
export async function finishJob(
  db: Executor,
  id: string,
  owner: string,
  outcome: { status: Exclude<JobStatus, "running">; result?: unknown; error?: string | null; runAfter?: string; progress?: unknown },
  now: string,
): Promise<boolean> {
  const finished = outcome.status !== "queued";
  const result = await db
    .updateTable("jobs")
    .set({
      status: outcome.status,
      ...(outcome.result !== undefined ? { result: JSON.stringify(outcome.result) } : {}),
      ...(outcome.progress !== undefined ? { progress: JSON.stringify(outcome.progress) } : {}),
      error: outcome.error ?? null,
      lease_owner: null,
      lease_expires_at: null,
      ...(outcome.runAfter ? { run_after: outcome.runAfter } : {}),
      finished_at: finished ? now : null,
      updated_at: now,
    })
    .where("id", "=", id)
    .where("lease_owner", "=", owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Asks a job to stop: a queued one is canceled at once, a running one at its next check. */
export async function requestJobCancel(db: Executor, id: string, now: string): Promise<Job | undefined> {
  await db.updateTable("jobs").set({ status: "canceled", cancel_requested: 1, finished_at: now, updated_at: now }).where("id", "=", id).where("status", "=", "queued").execute();
  await db.updateTable("jobs").set({ cancel_requested: 1, updated_at: now }).where("id", "=", id).where("status", "=", "running").execute();
  return findJob(db, id);
}

export async function isCancelRequested(db: Executor, id: string): Promise<boolean> {
  const row = await db.selectFrom("jobs").select("cancel_requested").where("id", "=", id).executeTakeFirst();
  return row?.cancel_requested === 1;
}

/** Jobs of a kind, newest first, one keyset page. */
export function listJobs(db: Executor, kind: string, limit: number, before?: { createdAt: string; id: string }): Promise<Job[]> {
  let query = db.selectFrom("jobs").selectAll().where("kind", "=", kind);
  if (before) query = query.where((eb) => eb.or([eb("created_at", "<", before.createdAt), eb.and([eb("created_at", "=", before.createdAt), eb("id", "<", before.id)])]));
  return query.orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
}

/** Jobs waiting or running, by kind and status (metrics: job queue depths). Index jobs_claim_idx. */
export async function countActiveJobs(db: Executor): Promise<Array<{ kind: string; status: string; count: number }>> {
  const rows = await db
    .selectFrom("jobs")
    .select(["kind", "status", (eb) => eb.fn.countAll<number | string>().as("count")])
    .where("status", "in", ["queued", "running"])
    .groupBy(["kind", "status"])
    .execute();
  return rows.map((r) => ({ kind: r.kind, status: r.status, count: Number(r.count) }));
}
