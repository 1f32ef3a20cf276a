import { rollPeriodWindows } from "../../domain/ledger/period-totals.ts";
import { utcDay } from "../../platform/clock.ts";
import { inJobSlice } from "../../platform/jobs/job-slice.ts";
import type { JobWorker } from "../../platform/jobs/job-worker.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";

export const TOP_LISTS_ROLL_JOB = "top-lists.roll";
/** Often enough that the windows move within minutes of midnight UTC; a no-op the rest of the day. */
const ROLL_EVERY_MS = 10 * 60_000;
/** How often a long roll reports progress (which renews the job's lease). */
const REPORT_EVERY_MS = 5_000;

/**
 * Moves the top lists' 7/30/90-day windows to today as days roll over (docs/decisions/0013-top-lists.md):
 * one process runs it per slot; each window's day step runs in background-paced chunks of products
 * (period-totals.ts), so requests run between them. A run stopped or cut short resumes from the cursor.
 */
export function topListsJobs(worker: JobWorker, deps: Pick<AppDeps, "database" | "clock">, options: { sliceMs?: number } = {}): void {
  worker.register(TOP_LISTS_ROLL_JOB, (context) => {
    let chunks = 0;
    let reported = performance.now();
    // In slices (platform/jobs/job-slice.ts): catching up on a long history takes minutes.
    return inJobSlice(
      context,
      { db: deps.database.db, clock: deps.clock },
      (shouldStop) =>
        rollPeriodWindows(deps.database.db, utcDay(deps.clock.now()), {
          pace: "background",
          shouldStop,
          onChunk: async (chunk) => {
            chunks++;
            if (performance.now() - reported < REPORT_EVERY_MS) return;
            reported = performance.now();
            await context.reportProgress({ period: chunk.period, chunks });
          },
        }),
      options.sliceMs,
    );
  });
  worker.schedule(TOP_LISTS_ROLL_JOB, ROLL_EVERY_MS);
}
