import type { Clock } from "../clock.ts";
import type { Executor } from "../db/executor.ts";
import { rateLimitRejections } from "../metrics/metrics.ts";
import { decrementRateLimit, deleteExpiredRateLimits, deleteRateLimit, readRateLimit, upsertRateLimitHit } from "./rate-limits.queries.ts";

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
 * No rule's window may be longer: the sweep (housekeeping/rate-limit-sweep.ts) deletes counters whose
 * window started longer ago than this, which must never cut a live window short.
 */
export const RATE_LIMIT_MAX_WINDOW_MS = 60 * 60_000;

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
    if (rule.windowMs > RATE_LIMIT_MAX_WINDOW_MS) throw new Error(`rate-limit windows are at most ${RATE_LIMIT_MAX_WINDOW_MS} ms (${bucket})`);
    const now = this.clock.now().getTime();
    const windowStart = now - rule.windowMs;
    const result = await upsertRateLimitHit(this.db, bucket, now, windowStart);
    const decision = this.decide(Number(result.count), Number(result.window_started_at), now, rule);
    // The rule's name is the bucket's prefix ("signin-ip:…"): a small, fixed set of labels.
    if (!decision.allowed) rateLimitRejections.inc({ rule: bucket.slice(0, Math.max(0, bucket.indexOf(":"))) || "other" });
    return decision;
  }

  /** Takes back one hit counted up front for an attempt that, in the end, did not count. */
  async undo(bucket: string): Promise<void> {
    await decrementRateLimit(this.db, bucket);
  }

  /**
   * Deletes up to `chunk` counters whose window started more than RATE_LIMIT_MAX_WINDOW_MS ago
   * (over for every rule); returns how many went. The sweep job calls it until it returns less.
   */
  async sweepExpired(chunk: number): Promise<number> {
    return deleteExpiredRateLimits(this.db, this.clock.now().getTime() - RATE_LIMIT_MAX_WINDOW_MS, chunk);
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
