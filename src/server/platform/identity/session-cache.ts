import type { AuthenticatedUser } from "./auth-provider.ts";
import { countCacheLookup } from "../metrics/metrics.ts";

interface CachedSession {
  version: string;
  user: AuthenticatedUser;
  expiresAt: string;
}

/** Enough for every admin of a marketplace many times over; the oldest entry goes first. */
export const SESSION_CACHE_SIZE = 10_000;

/**
 * Sessions already resolved to their user, reused while the database's data version has not moved
 * (Database.dataVersion). Used where that version covers other processes: SQLite (any commit by any
 * connection moves it) and PostgreSQL with its change feed (every replica's commits arrive as
 * notifications within milliseconds; while the feed is down the version never repeats, so nothing
 * cached is served: docs/decisions/0014-caches-across-replicas.md). A sign-out, a revocation, a user
 * change or ANY other write, by this process or another, makes every entry stale, so the database
 * stays the only truth. Saves the session read, about half of a cheap request's cost under load
 * (a join through Kysely and the connection mutex, ~45 µs). Keyed by the token's sha256, like the sessions table: no plaintext token
 * is kept. Only valid sessions are kept, so unknown tokens cannot fill it.
 */
export class SessionCache {
  private readonly entries = new Map<string, CachedSession>();

  constructor(
    readonly dataVersion: () => string,
    private readonly maxEntries = SESSION_CACHE_SIZE,
  ) {}

  /** The cached user of a session, or null when unknown, stale (`version` moved) or expired at `nowIso`. */
  get(sessionId: string, version: string, nowIso: string): AuthenticatedUser | null {
    const entry = this.entries.get(sessionId);
    if (!entry) {
      countCacheLookup("session", false);
      return null;
    }
    if (entry.version !== version || entry.expiresAt <= nowIso) {
      this.entries.delete(sessionId);
      countCacheLookup("session", false);
      return null;
    }
    countCacheLookup("session", true);
    return entry.user;
  }

  /** Keeps a session read from the database; `version` must be the one read BEFORE that query. */
  set(sessionId: string, version: string, user: AuthenticatedUser, expiresAt: string): void {
    this.entries.delete(sessionId);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(sessionId, { version, user, expiresAt });
  }

  get size(): number {
    return this.entries.size;
  }
}
