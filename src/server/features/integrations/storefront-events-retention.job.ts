import type { AppDeps } from "../../platform/request/app-env.ts";
import type { Clock } from "../../platform/clock.ts";
import type { JobWorker } from "../../platform/jobs/job-worker.ts";
import { inChunks } from "../../platform/db/in-chunks.ts";
import { CHUNK_ROWS, type Executor } from "../../platform/db/executor.ts";
import { inJobSlice } from "../../platform/jobs/job-slice.ts";
import { deleteStorefrontEvents, selectStorefrontEventIdsBefore } from "./integrations.queries.ts";

export const STOREFRONT_EVENTS_RETENTION_JOB = "storefront.events_retention";
/**
 * Processed event ids are kept this long (docs/integration.md: at least 30 days), so a sender may
 * re-send any batch of the last month and nothing is applied twice.
 */
export const STOREFRONT_EVENT_RETENTION_DAYS = 35;
const DAY_MS = 86_400_000;

/** Deletes processed-event records older than the retention, in chunks at the background pace. */
export async function sweepStorefrontEvents(
  db: Executor,
  clock: Clock,
  options: { shouldStop?: () => Promise<boolean>; chunkRows?: number; retentionDays?: number } = {},
): Promise<{ deleted: number; cutoff: string; stopped: boolean }> {
  const cutoff = new Date(clock.now().getTime() - (options.retentionDays ?? STOREFRONT_EVENT_RETENTION_DAYS) * DAY_MS).toISOString();
  const run = await inChunks(async (size) => deleteStorefrontEvents(db, await selectStorefrontEventIdsBefore(db, cutoff, size)), {
    startRows: options.chunkRows ?? CHUNK_ROWS,
    pace: "background",
    ...(options.shouldStop ? { shouldStop: options.shouldStop } : {}),
  });
  return { deleted: run.total, cutoff, stopped: run.stopped };
}

/** The daily sweep, on the job worker of every server process (one runs it), in slices. */
export function storefrontEventsJobs(worker: JobWorker, deps: AppDeps): void {
  worker.register(STOREFRONT_EVENTS_RETENTION_JOB, (context) =>
    inJobSlice(context, { db: deps.database.db, clock: deps.clock }, (shouldStop) => sweepStorefrontEvents(deps.database.db, deps.clock, { shouldStop })),
  );
  worker.schedule(STOREFRONT_EVENTS_RETENTION_JOB, DAY_MS);
}
