import type { Clock } from "../clock.ts";
import type { Executor } from "../db/executor.ts";
import { newId } from "../db/ids.ts";
import type { JobContext } from "./job-worker.ts";
import { continuationKey, insertJob } from "./jobs.queries.ts";

/** How long one run of a long background job works before it hands over to a continuation. */
export const JOB_SLICE_MS = 10_000;
/**
 * Sooner when another job is due: a slice works at least this long, then asks every as often
 * whether one waits, so a webhook delivery or a mail waits at most about this long behind a sweep.
 */
export const HAND_OVER_CHECK_MS = 250;

/**
 * Runs a resumable job's work for at most one slice. The worker runs one job at a time, so a sweep
 * or catch-up that takes minutes (a first sweep of a large audit log, top lists catching up on a
 * long history) would keep an announcement or a payout run waiting behind it. `work` gets a
 * `shouldStop` that turns true once the slice is used or another job is due (or the operator stopped
 * the job, or the lease was lost); when the slice ran out, a continuation of the same job is queued at once, behind the
 * jobs already waiting, and picks up from what the work stored.
 */
export async function inJobSlice<T extends { stopped: boolean }>(
  context: JobContext<unknown>,
  deps: { db: Executor; clock: Clock },
  work: (shouldStop: () => Promise<boolean>) => Promise<T>,
  sliceMs: number = JOB_SLICE_MS,
): Promise<T & { continued: boolean }> {
  const started = performance.now();
  const sliceEnds = started + sliceMs;
  let nextHandOverCheck = started + Math.min(HAND_OVER_CHECK_MS, sliceMs);
  let sliceUsed = false;
  const sliceOver = async () => {
    const now = performance.now();
    if (now >= sliceEnds) return true;
    if (now < nextHandOverCheck) return false;
    nextHandOverCheck = now + HAND_OVER_CHECK_MS;
    return context.othersWaiting();
  };
  const result = await work(async () => (await context.shouldStop()) || (sliceUsed = await sliceOver()));
  const continued = result.stopped && sliceUsed;
  if (continued) {
    const now = deps.clock.now().toISOString();
    const { kind, id, max_attempts: maxAttempts } = context.job;
    await insertJob(deps.db, { id: newId(), kind, payload: context.payload, dedupeKey: continuationKey(kind, id), maxAttempts, runAfter: now, now });
  }
  return { ...result, continued };
}
