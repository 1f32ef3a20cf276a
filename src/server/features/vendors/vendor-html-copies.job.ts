import type { AppDeps } from "../../platform/request/app-env.ts";
import type { JobWorker } from "../../platform/jobs/job-worker.ts";
import { inChunks } from "../../platform/db/in-chunks.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { inJobSlice } from "../../platform/jobs/job-slice.ts";
import { refreshCustomHtmlCopies } from "../../domain/ledger/vendors.ts";

export const VENDOR_HTML_COPIES_JOB = "vendors.html_copies";
const HOUR_MS = 3_600_000;

/**
 * Walks every vendor in id order, at the background pace, and makes the stored copy of custom HTML
 * where it is missing or stale (decision 0027): after an upgrade to migration 034, or a raised
 * `CUSTOM_HTML_POLICY`, the stores' details read copies again instead of loading a DOM into every
 * process that shows one. Only the process running this job loads it.
 */
export async function makeVendorHtmlCopies(db: Executor, options: { shouldStop?: () => Promise<boolean>; chunkRows?: number } = {}): Promise<{ made: number; stopped: boolean }> {
  let afterId = "";
  let made = 0;
  const run = await inChunks(
    async (size) => {
      const step = await refreshCustomHtmlCopies(db, afterId, size);
      afterId = step.lastId;
      made += step.made;
      return step.visited;
    },
    { startRows: options.chunkRows ?? 500, pace: "background", ...(options.shouldStop ? { shouldStop: options.shouldStop } : {}) },
  );
  return { made, stopped: run.stopped };
}

/** On the job worker of every server process (one runs each slot), hourly and soon after start. */
export function vendorHtmlCopiesJobs(worker: JobWorker, deps: AppDeps): void {
  worker.register(VENDOR_HTML_COPIES_JOB, (context) => inJobSlice(context, { db: deps.database.db, clock: deps.clock }, (shouldStop) => makeVendorHtmlCopies(deps.database.db, { shouldStop })));
  worker.schedule(VENDOR_HTML_COPIES_JOB, HOUR_MS);
}
