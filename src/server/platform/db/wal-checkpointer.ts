import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/**
 * Copies the SQLite write-ahead log back into the database file from a worker thread, so the
 * serving connection never does it inside a request (docs/decisions/0020-wal-checkpoints-off-the-request-path.md).
 *
 * By default SQLite checkpoints on the commit that takes the log past 1,000 pages: that commit
 * writes the pages back and syncs the file while the event loop waits. Under storefront events that
 * was a fifth of the server's time. The serving connection is opened with `wal_autocheckpoint = 0`
 * and this worker, on its own connection, runs a PASSIVE checkpoint (which never blocks a reader or
 * a writer) every `intervalMs`. Readers and writers see the same data either way: a checkpoint only
 * moves committed pages from the log to the file.
 */
export interface WalCheckpointer {
  /** Frames the worker has copied back so far, for tests and System Debug. */
  checkpointedFrames(): number;
  stop(): Promise<void>;
}

/** How often the worker checkpoints: the log grows by at most what the server commits in this time. */
export const WAL_CHECKPOINT_INTERVAL_MS = 200;

// Plain CommonJS run by the worker (`eval`), so it needs no file of its own next to the bundle.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const SQLite = require(workerData.driverPath);
const db = new SQLite(workerData.path);
db.pragma("busy_timeout = 0");
const checkpoint = db.prepare("pragma wal_checkpoint(PASSIVE)");
// Frames of the current log already copied back; it starts again from 0 when SQLite restarts the log.
let copied = 0;
const timer = setInterval(() => {
  try {
    const { checkpointed } = checkpoint.get();
    const fresh = checkpointed >= copied ? checkpointed - copied : checkpointed;
    if (fresh > 0) parentPort.postMessage({ frames: fresh });
    copied = checkpointed;
  } catch {
    // Busy (another process checkpoints, or a backup holds the file): the next tick tries again.
  }
}, workerData.intervalMs);
parentPort.on("message", (message) => {
  if (message !== "stop") return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export function startWalCheckpointer(path: string, intervalMs = WAL_CHECKPOINT_INTERVAL_MS): WalCheckpointer {
  const driverPath = createRequire(import.meta.url).resolve("better-sqlite3");
  // No flags of the parent's (`--input-type=module` would read the source as a module, without `require`).
  const worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData: { path, driverPath, intervalMs } });
  // The worker never keeps the process alive: a server that stops closes its database first.
  worker.unref();
  let frames = 0;
  worker.on("message", (message: { frames: number }) => {
    frames += message.frames;
  });
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  return {
    checkpointedFrames: () => frames,
    stop: async () => {
      // Held again while it stops: otherwise a process with nothing else to do would end here,
      // before the caller's next step (closing the database, the rest of a shutdown).
      worker.ref();
      worker.postMessage("stop");
      await exited;
    },
  };
}
