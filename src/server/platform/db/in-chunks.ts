import { CHUNK_ROWS } from "./executor.ts";

/** Lets queued requests run between two chunks of a bulk write (better-sqlite3 is synchronous). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A chunk slower than this (a loaded machine, a table with many indexes) halves the next one; a
 * faster one lets it grow back. A request that arrives during a chunk waits for it (better-sqlite3
 * is synchronous), so this is what a bulk job may add to a request: a small share of the 5 ms
 * single-request budget (docs/performance.md, issue 25: 20 ms chunks at start-up made every p95 miss).
 */
const CHUNK_BUDGET_MS = 2;
const MIN_CHUNK_ROWS = 10;
const FIRST_CHUNK_ROWS = 64;
/** After each chunk the job rests this many times as long as the chunk took: it gets at most 1/(1+REST_FACTOR) of the time. */
const REST_FACTOR = 4;

export interface ChunkedRun {
  total: number;
  /** True when `shouldStop` ended it early; the next run continues. */
  stopped: boolean;
}

/**
 * The one way bulk writes run (archive-all, cleanup, retention, sweeps): repeats `chunk(size)`
 * (which changes at most `size` rows and says how many) until one changes nothing, yielding to the
 * event loop in between. Stopping only at zero (not at a short chunk) keeps it complete when a
 * concurrent write took part of a chunk. The size starts at `startRows` and adapts so one chunk
 * stays near CHUNK_BUDGET_MS whatever the table and the machine: a waiting request is delayed by
 * about one chunk, never by the whole job, and the job gets at most about a fifth of the time.
 */
export async function inChunks(
  chunk: (size: number) => Promise<number>,
  options: { startRows?: number; shouldStop?: () => Promise<boolean>; onChunk?: (total: number) => Promise<void> } = {},
): Promise<ChunkedRun> {
  const maxRows = options.startRows ?? CHUNK_ROWS;
  let total = 0;
  // Start small and let a fast table grow the chunk: a first chunk of maxRows could take 100 ms.
  let size = Math.min(maxRows, FIRST_CHUNK_ROWS);
  for (;;) {
    const started = performance.now();
    const changed = await chunk(size);
    if (changed === 0) return { total, stopped: false };
    total += changed;
    const took = performance.now() - started;
    // Too slow: shrink in proportion at once (a first 2,000-row chunk may take 100 ms), not by halves.
    if (took > CHUNK_BUDGET_MS) size = Math.max(Math.min(MIN_CHUNK_ROWS, maxRows), Math.floor((size * CHUNK_BUDGET_MS) / took));
    else if (took < CHUNK_BUDGET_MS / 2) size = Math.min(maxRows, size * 2);
    await options.onChunk?.(total);
    if (await options.shouldStop?.()) return { total, stopped: true };
    await yieldToEventLoop();
    // Then rest REST_FACTOR times as long as the chunk took: requests that need several event-loop
    // turns (accept, read, query, write) finish between two chunks instead of waiting behind each.
    await new Promise((resolve) => setTimeout(resolve, REST_FACTOR * Math.min(took, 4 * CHUNK_BUDGET_MS)));
  }
}
