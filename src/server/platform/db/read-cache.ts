import type { Clock } from "../clock.ts";
import { countCacheLookup } from "../metrics/metrics.ts";

/** How long a cached answer may be served at most, whatever the data version says. */
export const READ_CACHE_MAX_AGE_MS = 1000;
/** Distinct answers kept at once (a list's pages, a vendor's tabs): a few megabytes at most. */
export const READ_CACHE_MAX_ENTRIES = 128;

interface Entry {
  at: number;
  version: string;
  value: Promise<unknown>;
}

/**
 * Keeps read answers (dashboard figures, analytics, and since decision 0016 the opening pages of the
 * lists, a vendor's detail and tabs, the settings) for at most READ_CACHE_MAX_AGE_MS, so a burst of
 * identical requests costs one computation instead of one each. An answer is dropped at once when the database's data version moves
 * (Database.dataVersion: any commit by any process on SQLite; on PostgreSQL this process's writes at
 * once and other replicas' commits through the change feed, docs/decisions/0014), so a change shows
 * on the next read; the clock reaching a row dated in the future, within the max age. Without a
 * change feed (CLIs) another process's write shows within the max age. Concurrent misses share one computation; a failed one is not
 * kept. Time comes from the injected clock, so tests with a fixed clock stay exact.
 */
export class ReadCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly dataVersion: () => string,
    private readonly maxAgeMs = READ_CACHE_MAX_AGE_MS,
  ) {}

  /** `dataVersion`: the request's once-read version (app.ts), else the database is asked. */
  read<T>(key: string, compute: () => Promise<T>, dataVersion: () => string = this.dataVersion): Promise<T> {
    const now = this.clock.now().getTime();
    const version = dataVersion();
    const hit = this.entries.get(key);
    if (hit && this.isFresh(hit, now, version)) {
      countCacheLookup("read", true);
      return hit.value as Promise<T>;
    }
    countCacheLookup("read", false);

    // The version is taken BEFORE computing: a write landing mid-computation leaves an entry that
    // is already stale for the next reader, never a stale answer marked fresh.
    const entry: Entry = { at: now, version, value: compute() };
    entry.value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    if (this.entries.size >= READ_CACHE_MAX_ENTRIES) this.dropStale(now, version);
    this.entries.set(key, entry);
    return entry.value as Promise<T>;
  }

  private isFresh(entry: Entry, now: number, version: string): boolean {
    // A clock moved backwards (tests, NTP) also invalidates.
    return entry.version === version && now >= entry.at && now - entry.at < this.maxAgeMs;
  }

  private dropStale(now: number, version: string): void {
    for (const [key, entry] of this.entries) if (!this.isFresh(entry, now, version)) this.entries.delete(key);
    // Still full of fresh entries (many distinct keys at once): start over rather than grow.
    if (this.entries.size >= READ_CACHE_MAX_ENTRIES) this.entries.clear();
  }
}
