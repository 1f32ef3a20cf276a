/**
 * The storefront events' writer thread (storefront-events.thread.ts starts it): applies the batches
 * the server's main thread hands it, on a connection of its own to the same SQLite file.
 */
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { isDatabaseClientError } from "../../platform/db/client-errors.ts";
import { openDatabase } from "../../platform/db/connect.ts";
import { type AppliedBatch, StorefrontEventsApplier } from "./storefront-events.applier.ts";
import { errorLogDrops, sqliteBusyRetries } from "../../platform/metrics/metrics.ts";
import { type ApplyAnswer, type ApplyRequest, type CounterGrowth, SQLITE_THREAD_ORDERS_TOGETHER, type ThreadData, WRITER_THREAD_NICE } from "./storefront-events.thread.ts";

const port = parentPort!;

/** Linux: this thread's own id, from /proc/thread-self ("<pid>/task/<tid>"); null elsewhere. */
function linuxThreadId(): number | null {
  try {
    return Number(readlinkSync("/proc/thread-self").split("/").pop());
  } catch {
    return null;
  }
}

// On Linux a nice value is the thread's own: the writer thread gives way to the main thread, which
// answers the screens, when both want a core (decision 0028).
const tid = linuxThreadId();
if (tid !== null) setPriority(tid, WRITER_THREAD_NICE);
const { path, storefrontOrigin } = workerData as ThreadData;
// The main thread's connection runs the WAL checkpointer; this one leaves the log to it.
const database = openDatabase({ kind: "sqlite", path }, { walCheckpointer: false });
// No screen is answered on this thread, so neither a run of paid orders nor a batch's one
// transaction keeps one waiting (decision 0029).
const applier = new StorefrontEventsApplier(database, storefrontOrigin, { ordersPerRun: () => SQLITE_THREAD_ORDERS_TOGETHER, oneCommitPerBatch: true });
const applying = new Set<Promise<void>>();

/** This thread's counters as last reported, so each answer carries what they grew by since. */
const reported: CounterGrowth = { sqliteBusyRetries: 0, errorLogDrops: {} };

async function counterGrowth(): Promise<CounterGrowth> {
  const busy = (await sqliteBusyRetries.get()).values[0]?.value ?? 0;
  const growth: CounterGrowth = { sqliteBusyRetries: busy - reported.sqliteBusyRetries, errorLogDrops: {} };
  reported.sqliteBusyRetries = busy;
  for (const { labels, value } of (await errorLogDrops.get()).values) {
    const level = String(labels.level);
    growth.errorLogDrops[level] = value - (reported.errorLogDrops[level] ?? 0);
    reported.errorLogDrops[level] = value;
  }
  return growth;
}

async function answer({ id, received, apiKeyId, now }: ApplyRequest): Promise<void> {
  let outcome: { batch: AppliedBatch } | { error: { message: string; stack: string | null; code: string | null; fromDatabase: boolean } };
  try {
    // The batch's events are stamped with the time the main thread received it.
    outcome = { batch: await applier.apply(received, apiKeyId, { now: () => new Date(now) }) };
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    const code = (err as { code?: unknown } | null)?.code;
    outcome = { error: { message: e.message, stack: e.stack ?? null, code: typeof code === "string" ? code : null, fromDatabase: isDatabaseClientError(err) } };
  }
  port.postMessage({ id, counters: await counterGrowth(), ...outcome } satisfies ApplyAnswer);
}

port.on("message", (message: ApplyRequest | "stop") => {
  if (message === "stop") {
    // Batches already handed over are finished (and answered) before the connection closes.
    void Promise.allSettled([...applying])
      .then(() => database.close())
      .finally(() => port.close());
    return;
  }
  const done: Promise<void> = answer(message).finally(() => applying.delete(done));
  applying.add(done);
});
