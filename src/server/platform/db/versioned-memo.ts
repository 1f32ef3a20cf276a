import { type CacheName, countCacheLookup } from "../metrics/metrics.ts";

interface Entry<V> {
  version: number;
  value: Promise<V>;
}

/**
 * Answers kept per key and per version of what they depend on (a version counter that database
 * triggers move in the same transaction as any change that could alter them: migrations 020, 021),
 * so a kept answer is exact until that data changes, whichever process or replica changes it.
 * The caller reads the version BEFORE computing: a change committed meanwhile leaves the entry
 * stale for the next request (which reads the new version), never a stale answer marked current.
 * The least recently used key goes first; concurrent misses share one computation; a failed one
 * is not kept. Lookups are counted as `hki_cache_lookups_total{cache}`.
 */
export class VersionedMemo<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(
    private readonly cache: CacheName,
    private readonly maxKeys: number,
  ) {}

  read(version: number, key: string, compute: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && hit.version === version) {
      countCacheLookup(this.cache, true);
      // Most recently used last: the Map's order is the eviction order.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value;
    }
    countCacheLookup(this.cache, false);
    const entry: Entry<V> = { version, value: compute() };
    entry.value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.maxKeys) this.entries.delete(this.entries.keys().next().value!);
    return entry.value;
  }
}
