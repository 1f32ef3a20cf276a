import { msSinceLastRequest } from "../traffic.ts";
import { CHUNK_ROWS } from "./executor.ts";

/** Lets queued requests run between two chunks of a bulk write (better-sqlite3 is synchronous). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Two paces. A request that arrives during a chunk waits for it (better-sqlite3 is synchronous), so
 * a chunk's time is what a bulk write may add to someone else's request, and the rest between
 * chunks is what it leaves them.
 * - "request" (the default): someone is waiting for the bulk write itself (cleanup, archive-all):
 *   chunks near 20 ms, resting as long as each took: the job gets about half of the time
 *   (smaller chunks made test:load's 200k-row cleanup take 31 s at 10 ms and 60 s at 5 ms on a
 *   loaded machine).
 * - "background" (scheduled jobs: audit retention, sweeps, the top lists' daily roll): nobody waits
 *   for it, so it yields the most: chunks near 2 ms, resting 4 times as long (a fifth of the time)
 *   while the process is idle, and 49 times as long (a fiftieth) while requests are coming in (one
 *   began within BUSY_WINDOW_MS). At a fifth, the daily roll at the full data set (about 50 s) still
 *   raised every request's p95 2–4 times while it ran, by waits behind its chunks and by each
 *   chunk's commit refreshing the cached figures (`npm run bench`, full set). At the request pace,
 *   the audit retention due at start-up would hold every request of the first minute.
 * A chunk slower than its budget shrinks the next in proportion; a fast one lets it grow back.
 */
const PACES = {
  request: { budgetMs: 20, restFactor: 1, busyRestFactor: 1 },
  background: { budgetMs: 2, restFactor: 4, busyRestFactor: 49 },
} as const;
export type ChunkPace = keyof typeof PACES;
/** A request begun this recently makes the background pace rest its longest. */
export const BUSY_WINDOW_MS = 250;

/** How long to rest after a chunk that took `tookMs` (a chunk far over its budget counts as four budgets). */
export function restAfterChunk(pace: ChunkPace, tookMs: number, msSinceRequest: number): number {
  const { budgetMs, restFactor, busyRestFactor } = PACES[pace];
  return (msSinceRequest < BUSY_WINDOW_MS ? busyRestFactor : restFactor) * Math.min(tookMs, 4 * budgetMs);
}
const MIN_CHUNK_ROWS = 10;
/** Start small and let a fast table grow the chunk: a first chunk of 2,000 rows could take 100 ms. */
const FIRST_CHUNK_ROWS = 64;

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
 * stays near its pace's budget whatever the table and the machine: a waiting request is delayed by
 * about one chunk, never by the whole job, and the job gets at most its pace's share of the time.
 */
export async function inChunks(
  chunk: (size: number) => Promise<number>,
  options: { startRows?: number; shouldStop?: () => Promise<boolean>; onChunk?: (total: number) => Promise<void>; pace?: ChunkPace } = {},
): Promise<ChunkedRun> {
  const pace = options.pace ?? "request";
  const { budgetMs } = PACES[pace];
  const maxRows = options.startRows ?? CHUNK_ROWS;
  let total = 0;
  let size = Math.min(maxRows, FIRST_CHUNK_ROWS);
  for (;;) {
    const started = performance.now();
    const changed = await chunk(size);
    if (changed === 0) return { total, stopped: false };
    total += changed;
    const took = performance.now() - started;
    // Too slow: shrink in proportion at once (a first 2,000-row chunk may take 100 ms), not by halves.
    if (took > budgetMs) size = Math.max(Math.min(MIN_CHUNK_ROWS, maxRows), Math.floor((size * budgetMs) / took));
    else if (took < budgetMs / 2) size = Math.min(maxRows, size * 2);
    await options.onChunk?.(total);
    if (await options.shouldStop?.()) return { total, stopped: true };
    await yieldToEventLoop();
    // Then rest (a multiple of the chunk's time, the larger while requests are coming in): requests
    // that need several event-loop turns (accept, read, query, write) finish between two chunks
    // instead of waiting behind each.
    await new Promise((resolve) => setTimeout(resolve, restAfterChunk(pace, took, msSinceLastRequest())));
  }
}
