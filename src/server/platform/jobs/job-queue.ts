import type { Clock } from "../clock.ts";
import type { Database } from "../db/connect.ts";
import { newId } from "../db/ids.ts";
import type { Job } from "../db/schema.ts";
import type { Executor } from "../db/executor.ts";
import { findJob, insertJob, requestJobCancel } from "./jobs.queries.ts";

/** How services hand work to the background worker and follow it. */
export class JobQueue {
  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
  ) {}

  /**
   * Queues a job (inside the caller's transaction when given one, so the job exists exactly when
   * the change that asked for it does). Returns its id, or null when the dedupe key is taken.
   */
  async enqueue(kind: string, payload: unknown, options: { executor?: Executor; dedupeKey?: string; createdBy?: string; maxAttempts?: number; id?: string } = {}): Promise<string | null> {
    const id = options.id ?? newId();
    const now = this.clock.now().toISOString();
    const inserted = await insertJob(options.executor ?? this.database.db, {
      id,
      kind,
      payload,
      dedupeKey: options.dedupeKey ?? null,
      runAfter: now,
      now,
      createdBy: options.createdBy ?? null,
      ...(options.maxAttempts ? { maxAttempts: options.maxAttempts } : {}),
    });
    return inserted ? id : null;
  }

  get(id: string, executor?: Executor): Promise<Job | undefined> {
    return findJob(executor ?? this.database.db, id);
  }

  cancel(id: string, executor?: Executor): Promise<Job | undefined> {
    return requestJobCancel(executor ?? this.database.db, id, this.clock.now().toISOString());
  }
}
