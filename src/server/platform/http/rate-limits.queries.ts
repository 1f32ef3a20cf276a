import { sql } from "kysely";
import type { Executor } from "../db/executor.ts";

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

/** Takes back one hit (never below zero): an attempt counted up front that turned out not to count. */
export async function decrementRateLimit(db: Executor, bucket: string): Promise<void> {
  await db
    .updateTable("rate_limits")
    .set((eb) => ({ count: eb("count", "-", 1) }))
    .where("bucket", "=", bucket)
    .where("count", ">", 0)
    .execute();
}

/**
 * Deletes up to `limit` counters whose window started before `cutoff` (they can no longer refuse
 * anything: the next hit would restart them anyway). Index rate_limits_window_idx (migration 010).
 * Returns how many went.
 */
export async function deleteExpiredRateLimits(db: Executor, cutoff: number, limit: number): Promise<number> {
  const result = await db
    .deleteFrom("rate_limits")
    .where("bucket", "in", (eb) => eb.selectFrom("rate_limits").select("bucket").where("window_started_at", "<", cutoff).limit(limit))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
