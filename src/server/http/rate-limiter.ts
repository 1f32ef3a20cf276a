import type { Clock } from "../clock.ts";
import type { Executor } from "../ledger/executor.ts";
import { deleteRateLimit, readRateLimit, upsertRateLimitHit } from "./rate-limits.queries.ts";

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
 * Fixed-window counters in the database, so every replica sees the same counts (docs/product.md §12.3:
 * nothing shared lives only in process memory). One upsert per hit, on both SQLite and PostgreSQL.
 */
export class RateLimiter {
  constructor(
    private readonly db: Executor,
    private readonly clock: Clock,
  ) {}

  /** Counts one hit on `bucket` and says whether it is within the rule. */
  async hit(bucket: string, rule: RateLimitRule): Promise<RateLimitDecision> {
    const now = this.clock.now().getTime();
    const windowStart = now - rule.windowMs;
    const result = await upsertRateLimitHit(this.db, bucket, now, windowStart);
    return this.decide(Number(result.count), Number(result.window_started_at), now, rule);
  }

  /** Reads the bucket without counting (e.g. "is this account locked?" before checking a password). */
  async peek(bucket: string, rule: RateLimitRule): Promise<RateLimitDecision> {
    const now = this.clock.now().getTime();
    const row = await readRateLimit(this.db, bucket);
    if (!row || Number(row.window_started_at) <= now - rule.windowMs) return { allowed: true, count: 0, retryAfterSeconds: 0 };
    return this.decide(Number(row.count), Number(row.window_started_at), now, { ...rule, limit: rule.limit - 1 });
  }

  async reset(bucket: string): Promise<void> {
    await deleteRateLimit(this.db, bucket);
  }

  private decide(count: number, windowStartedAt: number, now: number, rule: RateLimitRule): RateLimitDecision {
    const retryAfterSeconds = Math.max(1, Math.ceil((windowStartedAt + rule.windowMs - now) / 1000));
    return { allowed: count <= rule.limit, count, retryAfterSeconds };
  }
}
