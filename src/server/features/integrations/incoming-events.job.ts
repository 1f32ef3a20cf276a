import type { AppDeps } from "../../platform/request/app-env.ts";
import type { Clock } from "../../platform/clock.ts";
import type { JobWorker } from "../../platform/jobs/job-worker.ts";
import { inChunks } from "../../platform/db/in-chunks.ts";
import { CHUNK_ROWS, type Executor } from "../../platform/db/executor.ts";
import { inJobSlice } from "../../platform/jobs/job-slice.ts";
import { INCOMING_EVENT_JOB, IncomingEventsService } from "./incoming-events.service.ts";
import { deleteIncomingEvents, selectSettledEventIdsBefore } from "./incoming-events.queries.ts";

export const INCOMING_EVENTS_RETENTION_JOB = "incoming_events.retention";
/**
 * Settled Stripe and Clerk events are kept this long: longer than either provider re-delivers an
 * event (Stripe for up to 3 days, Svix for about 5), so a late re-delivery still finds its id.
 * Pending and failed ones stay until they are settled.
 */
export const INCOMING_EVENT_RETENTION_DAYS = 35;
const DAY_MS = 86_400_000;

/** Deletes settled events older than the retention, in chunks at the background pace. */
export async function sweepIncomingEvents(db: Executor, clock: Clock, options: { shouldStop?: () => Promise<boolean>; chunkRows?: number } = {}): Promise<{ deleted: number; stopped: boolean }> {
  const cutoff = new Date(clock.now().getTime() - INCOMING_EVENT_RETENTION_DAYS * DAY_MS).toISOString();
  const run = await inChunks(async (size) => deleteIncomingEvents(db, await selectSettledEventIdsBefore(db, cutoff, size)), {
    startRows: options.chunkRows ?? CHUNK_ROWS,
    pace: "background",
    ...(options.shouldStop ? { shouldStop: options.shouldStop } : {}),
  });
  return { deleted: run.total, stopped: run.stopped };
}

/** Processing of each stored event (one job per event, retried by the worker) and the daily sweep. */
export function incomingEventsJobs(worker: JobWorker, deps: AppDeps): void {
  const service = new IncomingEventsService(deps);
  worker.register<{ id: string }>(INCOMING_EVENT_JOB, async ({ job, payload }) => {
    await service.process(payload.id, job.attempts >= job.max_attempts);
    return null;
  });
  worker.register(INCOMING_EVENTS_RETENTION_JOB, (context) =>
    inJobSlice(context, { db: deps.database.db, clock: deps.clock }, (shouldStop) => sweepIncomingEvents(deps.database.db, deps.clock, { shouldStop })),
  );
  worker.schedule(INCOMING_EVENTS_RETENTION_JOB, DAY_MS);
}
