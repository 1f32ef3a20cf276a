import type { Executor } from "../../platform/db/executor.ts";
import { type PeriodWindowDays, periodRollIsSmall, periodWindowEnds, periodWindowsCurrent, rollPeriodWindows, shiftDay } from "./period-totals.ts";

/**
 * How long a top-list read waits for windows still being built before it says so (a 503 from
 * analytics.service.ts) instead of answering. A small shop's windows are built in two chunks each
 * (period-totals.ts rollChunk: started, then one jump), well within it; a large one's build goes
 * on between reads and in the `top-lists.roll` job, each read moving it forward while it waits.
 * Bounded so that no request waits on a whole build at the target data set (docs/product.md §12.3).
 */
export const BUILD_WAIT_MS = 5_000;

export interface ReadWindowOptions {
  /** The most product days a read may move the windows by itself when they hold part of the period (analytics.service.ts READ_ROLL_MAX_ROWS). */
  readRollMaxRows: number;
  /** How long to wait for windows still being built; default BUILD_WAIT_MS. */
  buildWaitMs?: number;
}

/**
 * The last day a top list of `period` is answered for, as of `today`, or null while the window is
 * still being built. Never the empty totals of a window that holds none of the period asked:
 * - windows current: today;
 * - behind by at most `readRollMaxRows` product days: rolled here (request pace), then today;
 * - holding part of the period (behind by fewer than `period` days: between midnight and the job's
 *   roll, or a short outage): its last day, which the answer names (`to`) while the job catches up;
 * - holding none of it (no window yet, as in a database just filled or migrated, or behind by a
 *   whole window): the build is moved forward here for up to `buildWaitMs` (one build per process,
 *   shared by the reads waiting at the same time), then today if it is done, else what it holds by
 *   then by the rules above, else null.
 */
export async function periodTotalsEndForRead(db: Executor, period: PeriodWindowDays, today: string, options: ReadWindowOptions): Promise<string | null> {
  if (await periodWindowsCurrent(db, today)) return today;
  if (await periodRollIsSmall(db, today, options.readRollMaxRows)) {
    await rollPeriodWindows(db, today, { pace: "request" });
    return today;
  }
  const holdsPart = (end: string | undefined): end is string => end !== undefined && end > shiftDay(today, -period);
  const end = (await periodWindowEnds(db)).get(period);
  if (holdsPart(end)) return end;
  await buildWithin(db, today, options.buildWaitMs ?? BUILD_WAIT_MS);
  if (await periodWindowsCurrent(db, today)) return today;
  const built = (await periodWindowEnds(db)).get(period);
  return holdsPart(built) ? built : null;
}

/** The build under way in this process, per database handle: reads arriving while it runs wait for it rather than start another. */
const builds = new WeakMap<Executor, Promise<unknown>>();

/** Settles when the build a read started on `db` (if any) has stopped: it goes on after a read that stopped waiting for it. */
export function buildSettled(db: Executor): Promise<void> {
  return (builds.get(db) ?? Promise.resolve()).then(
    () => undefined,
    () => undefined,
  );
}

/**
 * Moves the windows towards `today` for at most `waitMs` (request pace: someone is waiting), or
 * waits that long for the build another read started. Whatever it commits stays: the next read,
 * or the job, goes on from there.
 */
async function buildWithin(db: Executor, today: string, waitMs: number): Promise<void> {
  const deadline = performance.now() + waitMs;
  let build = builds.get(db);
  if (build === undefined) {
    build = rollPeriodWindows(db, today, { pace: "request", shouldStop: async () => performance.now() >= deadline }).finally(() => builds.delete(db));
    builds.set(db, build);
  }
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, deadline - performance.now()));
  });
  try {
    await Promise.race([build, waited]);
  } finally {
    clearTimeout(timer);
  }
}
