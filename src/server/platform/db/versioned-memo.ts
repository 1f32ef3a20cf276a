import { type CacheName, countCacheLookup } from "../metrics/metrics.ts";
import type { Executor } from "./executor.ts";
import type { SearchTextDeclaration } from "./search-texts.ts";

/**
 * How long a kept answer is served at most, whatever its version says: should a write ever reach
 * the searched columns without moving the counter (a trigger dropped by hand), an answer is wrong
 * for minutes, not for good. `search-texts.test.ts` keeps the triggers and the declarations together.
 */
export const VERSIONED_MEMO_MAX_AGE_MS = 10 * 60_000;

interface Entry<V> {
  version: number;
  at: number;
  value: Promise<V>;
}

/** A memo's reads within one request: the version is read once, at the first read asked. */
export type MemoReads<V> = (key: string, compute: () => Promise<V>) => Promise<V>;

/**
 * Answers kept per key and per version of what they depend on: a `counters` row that database
 * triggers move in the same transaction as any change that could alter them (search-texts.ts
 * declares which), so a kept answer is exact until that data changes, whichever process or replica
 * changes it. The version is read BEFORE computing: a change committed meanwhile leaves the entry
 * stale for the next request (which reads the new version), never a stale answer marked current.
 * The least recently used key goes first; concurrent misses share one computation; a failed one
 * is not kept. Lookups are counted as `hki_cache_lookups_total{cache}`.
 */
export class VersionedMemo<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(
    private readonly cache: CacheName,
    private readonly counter: SearchTextDeclaration["versionCounter"],
    private readonly maxKeys: number,
    private readonly maxAgeMs = VERSIONED_MEMO_MAX_AGE_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The reads of one request on `db`. */
  at(db: Executor): MemoReads<V> {
    let version: Promise<number> | undefined;
    const versionOnce = () => (version ??= readCounter(db, this.counter));
    return async (key, compute) => this.read(await versionOnce(), key, compute);
  }

  private read(version: number, key: string, compute: () => Promise<V>): Promise<V> {
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.version === version && now - hit.at < this.maxAgeMs) {
      countCacheLookup(this.cache, true);
      // Most recently used last: the Map's order is the eviction order.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value;
    }
    countCacheLookup(this.cache, false);
    const entry: Entry<V> = { version, at: now, value: compute() };
    entry.value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.maxKeys) this.entries.delete(this.entries.keys().next().value!);
    return entry.value;
  }
}

async function readCounter(db: Executor, name: string): Promise<number> {
  const row = await db.selectFrom("counters").select("value").where("name", "=", name).executeTakeFirst();
  return Number(row?.value ?? 0);
}
