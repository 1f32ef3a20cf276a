import { sql, type Kysely } from "kysely";
import type { Clock } from "../clock.ts";
import type { DB } from "../db/schema.ts";

export interface RateLimitDecision {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

/**
 * Fixed-window counters in the database, so every replica sees the same counts (DESIGN.md:
 * nothing shared lives only in process memory). One upsert per hit, on both SQLite and PostgreSQL.
 */
export class RateLimiter {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  /** Counts one hit on `bucket` and says whether it is within the rule. */
  async hit(bucket: string, rule: RateLimitRule): Promise<RateLimitDecision> {
    const now = this.clock.now().getTime();
    const windowStart = now - rule.windowMs;
    const row = await sql<{ count: number; window_started_at: number }>`
      insert into rate_limits (bucket, window_started_at, count) values (${bucket}, ${now}, 1)
      on conflict (bucket) do update set
        count = case when rate_limits.window_started_at <= ${windowStart} then 1 else rate_limits.count + 1 end,
        window_started_at = case when rate_limits.window_started_at <= ${windowStart} then ${now} else rate_limits.window_started_at end
      returning count, window_started_at`.execute(this.db);
    const result = row.rows[0]!;
    return this.decide(Number(result.count), Number(result.window_started_at), now, rule);
  }

  /** Reads the bucket without counting (e.g. "is this account locked?" before checking a password). */
  async peek(bucket: string, rule: RateLimitRule): Promise<RateLimitDecision> {
    const now = this.clock.now().getTime();
    const row = await this.db.selectFrom("rate_limits").select(["count", "window_started_at"]).where("bucket", "=", bucket).executeTakeFirst();
    if (!row || Number(row.window_started_at) <= now - rule.windowMs) return { allowed: true, count: 0, retryAfterSeconds: 0 };
    return this.decide(Number(row.count), Number(row.window_started_at), now, { ...rule, limit: rule.limit - 1 });
  }

  async reset(bucket: string): Promise<void> {
    await this.db.deleteFrom("rate_limits").where("bucket", "=", bucket).execute();
  }

  private decide(count: number, windowStartedAt: number, now: number, rule: RateLimitRule): RateLimitDecision {
    const retryAfterSeconds = Math.max(1, Math.ceil((windowStartedAt + rule.windowMs - now) / 1000));
    return { allowed: count <= rule.limit, count, retryAfterSeconds };
  }
}
