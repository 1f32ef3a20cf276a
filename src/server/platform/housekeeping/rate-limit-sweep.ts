import type { Clock } from "../clock.ts";
import type { Database } from "../db/connect.ts";
import type { RateLimiter } from "../http/rate-limiter.ts";
import { inChunks } from "../db/in-chunks.ts";
import { deleteOldErrorLogDrops } from "../error-recorder/error-logs-insert.queries.ts";
import { hourKey } from "../error-recorder/error-recorder.ts";
import type { JobWorker } from "../jobs/job-worker.ts";

export const RATE_LIMIT_SWEEP_JOB = "rate-limits.sweep";
/** Most rows per delete: one short statement each, smaller when slow (db/in-chunks.ts; docs/product.md §12.3). */
export const RATE_LIMIT_SWEEP_CHUNK = 1000;
const SWEEP_EVERY_MS = 10 * 60_000;
/** Hourly error-log drop counts are kept a week (the health page shows the last day). */
const DROP_COUNTS_KEPT_MS = 7 * 24 * 3_600_000;

/**
 * Housekeeping: counters in `rate_limits` whose window is over (every attempt and every error-log
 * entry leaves one, so without this the table only grows) are deleted in chunks every 10 minutes,
 * by one process at a time (the jobs table's lease), with old error-log drop counts.
 */
export function registerRateLimitSweep(worker: JobWorker, deps: { limiter: RateLimiter; database: Database; clock: Clock }): void {
  worker.register(RATE_LIMIT_SWEEP_JOB, async (context) => {
    const { total: deleted } = await inChunks((size) => deps.limiter.sweepExpired(size), {
      startRows: RATE_LIMIT_SWEEP_CHUNK,
      pace: "background",
      shouldStop: () => context.shouldStop(),
      onChunk: (total) => context.reportProgress({ deleted: total }),
    });
    const dropHours = await deleteOldErrorLogDrops(deps.database.db, hourKey(new Date(deps.clock.now().getTime() - DROP_COUNTS_KEPT_MS)));
    return { deleted, dropHours };
  });
  worker.schedule(RATE_LIMIT_SWEEP_JOB, SWEEP_EVERY_MS);
}
