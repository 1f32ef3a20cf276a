import { CHUNK_ROWS } from "./executor.ts";

/** Lets queued requests run between two chunks of a bulk write (better-sqlite3 is synchronous). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A chunk slower than this (a loaded machine, a table with many indexes) halves the next one; a faster one lets it grow back. */
const CHUNK_BUDGET_MS = 20;
const MIN_CHUNK_ROWS = 250;

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
 * about one chunk, never by the whole job, and the job gets at most about half of the time.
 */
export async function inChunks(
  chunk: (size: number) => Promise<number>,
  options: { startRows?: number; shouldStop?: () => Promise<boolean>; onChunk?: (total: number) => Promise<void> } = {},
): Promise<ChunkedRun> {
  const maxRows = options.startRows ?? CHUNK_ROWS;
  let total = 0;
  let size = maxRows;
  for (;;) {
    const started = performance.now();
    const changed = await chunk(size);
    if (changed === 0) return { total, stopped: false };
    total += changed;
    const took = performance.now() - started;
    if (took > CHUNK_BUDGET_MS) size = Math.max(Math.min(MIN_CHUNK_ROWS, maxRows), Math.floor(size / 2));
    else if (took < CHUNK_BUDGET_MS / 2) size = Math.min(maxRows, size * 2);
    await options.onChunk?.(total);
    if (await options.shouldStop?.()) return { total, stopped: true };
    await yieldToEventLoop();
    // Then rest as long as the chunk took: requests that need several event-loop turns (accept,
    // read, query, write) finish between two chunks instead of waiting behind each of them.
    await new Promise((resolve) => setTimeout(resolve, Math.min(took, CHUNK_BUDGET_MS)));
  }
}
