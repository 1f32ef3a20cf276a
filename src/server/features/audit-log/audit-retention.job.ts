import type { AppDeps } from "../../platform/request/app-env.ts";
import type { Clock } from "../../platform/clock.ts";
import type { JobWorker } from "../../platform/jobs/job-worker.ts";
import { inChunks } from "../../platform/db/in-chunks.ts";
import { CHUNK_ROWS, type Executor } from "../../platform/db/executor.ts";
import { inJobSlice } from "../../platform/jobs/job-slice.ts";
import { recordAudit } from "../../domain/audit/audit-log.ts";
import { deleteAuditRows, selectAuditIdsBefore } from "../../domain/audit/audit.queries.ts";

export const AUDIT_RETENTION_JOB = "audit.retention";
const DAY_MS = 86_400_000;

export interface RetentionResult {
  deleted: number;
  cutoff: string;
  /** True when asked to stop before the end; the next run continues. */
  stopped: boolean;
}

/**
 * Deletes audit rows older than `retentionDays` in chunks (db/in-chunks.ts: each its own short
 * statement, at the background pace: ~2 ms each, resting 4 times as long); never in a request. When it deleted anything it records
 * one audit row of its own (actor "system") saying how many and up to when.
 */
export async function sweepAuditRetention(
  db: Executor,
  clock: Clock,
  retentionDays: number,
  options: { shouldStop?: () => Promise<boolean>; onChunk?: (deleted: number) => Promise<void>; chunkRows?: number } = {},
): Promise<RetentionResult> {
  const cutoff = new Date(clock.now().getTime() - retentionDays * DAY_MS).toISOString();
  const run = await inChunks(async (size) => deleteAuditRows(db, await selectAuditIdsBefore(db, cutoff, size)), {
    startRows: options.chunkRows ?? CHUNK_ROWS,
    pace: "background",
    ...(options.shouldStop ? { shouldStop: options.shouldStop } : {}),
    ...(options.onChunk ? { onChunk: options.onChunk } : {}),
  });
  const { total: deleted, stopped } = run;
  if (deleted > 0) {
    await recordAudit(
      db,
      {
        actor: null,
        action: "audit_log.retention",
        target: { type: "audit_log", id: "retention", label: `rows older than ${retentionDays} days` },
        details: { deleted, cutoff, retentionDays, complete: !stopped },
      },
      clock,
    );
  }
  return { deleted, cutoff, stopped };
}

/**
 * The daily retention sweep (AUDIT_RETENTION_DAYS), on the job worker of every server process (one
 * runs it), in slices (platform/jobs/job-slice.ts): a first sweep of a large log takes minutes.
 */
export function auditJobs(worker: JobWorker, deps: AppDeps, options: { sliceMs?: number; chunkRows?: number } = {}): void {
  worker.register(AUDIT_RETENTION_JOB, (context) =>
    inJobSlice(
      context,
      { db: deps.database.db, clock: deps.clock },
      (shouldStop) =>
        sweepAuditRetention(deps.database.db, deps.clock, deps.config.auditRetentionDays, {
          shouldStop,
          onChunk: (deleted) => context.reportProgress({ deleted }),
          ...(options.chunkRows ? { chunkRows: options.chunkRows } : {}),
        }),
      options.sliceMs,
    ),
  );
  worker.schedule(AUDIT_RETENTION_JOB, DAY_MS);
}
