import { sql } from "kysely";
import type { Executor } from "../ledger/executor.ts";

/** A bucket's counter as stored: hits in the window and when (ms since epoch) the window started. */
export interface RateLimitRow {
  count: number;
  window_started_at: number;
}

/**
 * Counts one hit on `bucket` in ONE upsert (SQLite and PostgreSQL alike): a window started at or
 * before `windowStart` is over, so the counter restarts at 1 with the window starting at `now`.
 * Returns the counter after the hit.
 */
export async function upsertRateLimitHit(db: Executor, bucket: string, now: number, windowStart: number): Promise<RateLimitRow> {
  const row = await sql<RateLimitRow>`
      insert into rate_limits (bucket, window_started_at, count) values (${bucket}, ${now}, 1)
      on conflict (bucket) do update set
        count = case when rate_limits.window_started_at <= ${windowStart} then 1 else rate_limits.count + 1 end,
        window_started_at = case when rate_limits.window_started_at <= ${windowStart} then ${now} else rate_limits.window_started_at end
      returning count, window_started_at`.execute(db);
  return row.rows[0]!;
}

/** The bucket's counter, or undefined when it has none. */
export async function readRateLimit(db: Executor, bucket: string): Promise<RateLimitRow | undefined> {
  return db.selectFrom("rate_limits").select(["count", "window_started_at"]).where("bucket", "=", bucket).executeTakeFirst();
}

export async function deleteRateLimit(db: Executor, bucket: string): Promise<void> {
  await db.deleteFrom("rate_limits").where("bucket", "=", bucket).execute();
}
