/**
 * The storefront events' writer thread (storefront-events.thread.ts starts it): applies the batches
 * the server's main thread hands it, on a connection of its own to the same SQLite file.
 */
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { isDatabaseClientError } from "../../platform/db/client-errors.ts";
import { openDatabase } from "../../platform/db/connect.ts";
import { StorefrontEventsApplier } from "./storefront-events.applier.ts";
import { type ApplyAnswer, type ApplyRequest, SQLITE_THREAD_ORDERS_TOGETHER, type ThreadData, WRITER_THREAD_NICE } from "./storefront-events.thread.ts";

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
// No screen is answered on this thread, so a run of paid orders never keeps one waiting.
const applier = new StorefrontEventsApplier(database, storefrontOrigin, () => SQLITE_THREAD_ORDERS_TOGETHER);
const applying = new Set<Promise<void>>();

async function answer({ id, received, apiKeyId, now }: ApplyRequest): Promise<void> {
  let reply: ApplyAnswer;
  try {
    // The batch's events are stamped with the time the main thread received it.
    const batch = await applier.apply(received, apiKeyId, { now: () => new Date(now) });
    reply = { id, batch };
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    const code = (err as { code?: unknown } | null)?.code;
    reply = { id, error: { message: e.message, stack: e.stack ?? null, code: typeof code === "string" ? code : null, fromDatabase: isDatabaseClientError(err) } };
  }
  port.postMessage(reply);
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
