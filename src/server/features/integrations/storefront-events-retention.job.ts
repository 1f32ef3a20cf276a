import type { AppDeps } from "../../platform/request/app-env.ts";
import type { Clock } from "../../platform/clock.ts";
import type { JobWorker } from "../../platform/jobs/job-worker.ts";
import { inChunks } from "../../platform/db/in-chunks.ts";
import { CHUNK_ROWS, type Executor } from "../../platform/db/executor.ts";
import { inJobSlice } from "../../platform/jobs/job-slice.ts";
import { cancelSubscription } from "../../domain/ledger/subscriptions.ts";
import { deleteStorefrontEvents, selectLapsedSubscriptions, selectStorefrontEventIdsBefore } from "./integrations.queries.ts";

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

/**
 * A storefront subscription not paid again within this many days after its paid-up period ended
 * has lapsed: it is cancelled as of that end, and leaves Monthly Recurring (docs/integration.md).
 */
export const SUBSCRIPTION_GRACE_DAYS = 7;

/** Cancels lapsed storefront subscriptions through the ledger, each as of the end of its last paid period. */
export async function lapseStorefrontSubscriptions(
  db: Executor,
  clock: Clock,
  options: { shouldStop?: () => Promise<boolean>; chunkRows?: number } = {},
): Promise<{ cancelled: number; stopped: boolean }> {
  const cutoff = new Date(clock.now().getTime() - SUBSCRIPTION_GRACE_DAYS * DAY_MS).toISOString();
  const run = await inChunks(
    async (size) => {
      const lapsed = await selectLapsedSubscriptions(db, cutoff, size);
      for (const s of lapsed) await cancelSubscription(db, s.id, clock, s.current_period_end);
      return lapsed.length;
    },
    { startRows: options.chunkRows ?? 200, pace: "background", ...(options.shouldStop ? { shouldStop: options.shouldStop } : {}) },
  );
  return { cancelled: run.total, stopped: run.stopped };
}

/** The daily sweep, on the job worker of every server process (one runs it), in slices. */
export function storefrontEventsJobs(worker: JobWorker, deps: AppDeps): void {
  worker.register(STOREFRONT_EVENTS_RETENTION_JOB, (context) =>
    inJobSlice(context, { db: deps.database.db, clock: deps.clock }, async (shouldStop) => {
      const swept = await sweepStorefrontEvents(deps.database.db, deps.clock, { shouldStop });
      if (swept.stopped) return swept;
      const lapsed = await lapseStorefrontSubscriptions(deps.database.db, deps.clock, { shouldStop });
      return { ...swept, lapsedSubscriptions: lapsed.cancelled, stopped: lapsed.stopped };
    }),
  );
  worker.schedule(STOREFRONT_EVENTS_RETENTION_JOB, DAY_MS);
}
