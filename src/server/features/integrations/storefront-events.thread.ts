import { Worker } from "node:worker_threads";
import type { Clock } from "../../platform/clock.ts";
import { markAsDatabaseClientError } from "../../platform/db/client-errors.ts";
import { retryLockWaitsNow } from "../../platform/db/sqlite-driver.ts";
import { errorLogDrops, sqliteBusyRetries } from "../../platform/metrics/metrics.ts";
import type { AppliedBatch, ReceivedEvent } from "./storefront-events.applier.ts";

/**
 * On a SQLite file the storefront's events are applied in a thread of their own, on a second
 * connection to the file (docs/decisions/0028-storefront-events-writer-thread.md). better-sqlite3 is
 * synchronous: applied on the main thread, every statement of an event held up the screens' answers,
 * so while screens were read each paid order had its own transaction (decision 0022), three times
 * the work of one in a run of a hundred. In this thread a batch's paid orders share a transaction
 * whoever is reading, the screens are answered meanwhile from the main thread's connection (WAL: a
 * reader never waits for a writer), and the events use the machine's second core.
 */

/** Most paid orders applied in one transaction in the writer thread: a batch of 100 is one run. */
export const SQLITE_THREAD_ORDERS_TOGETHER = 100;

/** The writer thread's nice value on Linux (0 is the main thread's; 19 the lowest priority). */
export const WRITER_THREAD_NICE = 5;

/**
 * The writer thread's young generation (V8's nursery): a batch's garbage is short-lived, and a small
 * nursery kept the server's peak RSS under a stream of events at 260 MB against 278–287 MB with
 * V8's default, at the same rate (bench/ingest.ts, 0.1 set, 2026-11-28).
 */
export const WRITER_THREAD_YOUNG_GENERATION_MB = 8;

export interface ThreadData {
  path: string;
  storefrontOrigin: string;
}

export interface ApplyRequest {
  id: number;
  received: readonly ReceivedEvent[];
  apiKeyId: string | null;
  /** The main thread's clock when the batch came in (ISO 8601). */
  now: string;
}

/** What the thread's own counters (prom-client's registry is per thread) grew by since its last answer, for the main thread's /metrics. */
export interface CounterGrowth {
  sqliteBusyRetries: number;
  errorLogDrops: Record<string, number>;
}

export type ApplyAnswer = { id: number; counters: CounterGrowth } & ({ batch: AppliedBatch } | { error: { message: string; stack: string | null; code: string | null; fromDatabase: boolean } });

/** The thread runs the bundle's own file beside main.js, or from the TypeScript source (tests, `npm run dev`) the entry through tsx. */
function startWorker(data: ThreadData): Worker {
  const options = { execArgv: [], workerData: data, resourceLimits: { maxYoungGenerationSizeMb: WRITER_THREAD_YOUNG_GENERATION_MB } };
  if (import.meta.url.endsWith(".js")) return new Worker(new URL("./storefront-events-thread.js", import.meta.url), options);
  const entry = new URL("./storefront-events.thread-entry.ts", import.meta.url).href;
  return new Worker(new URL("../../platform/typescript-thread.mjs", import.meta.url), { ...options, workerData: { ...data, entry } });
}

/**
 * The main thread's side: hands batches to the writer thread, one at a time, and waits for their
 * answers. The thread applies each batch in one transaction (decision 0029), holding SQLite's write
 * lock meanwhile; the main thread's own writes (a key's rate-limit count, an operator's action) wait
 * for it on a timer. So that the thread, with the next batch at hand, cannot take the lock again
 * before them, the next batch is handed over only after those writes have had their try
 * (retryLockWaitsNow, then a turn of the event loop). The thread starts with the first batch;
 * should it die, the batch it held fails (the sender re-sends it, and what was committed answers
 * `duplicate`) and the next batch starts another.
 */
export class StorefrontEventsThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly queue: ApplyRequest[] = [];
  private inThread: { id: number; worker: Worker } | null = null;
  private readonly waiting = new Map<number, { resolve: (batch: AppliedBatch) => void; reject: (err: Error) => void }>();
  private drained: (() => void) | null = null;

  constructor(private readonly data: ThreadData) {}

  apply(received: readonly ReceivedEvent[], apiKeyId: string | null, clock: Clock): Promise<AppliedBatch> {
    const id = this.nextId++;
    return new Promise<AppliedBatch>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.queue.push({ id, received, apiKeyId, now: clock.now().toISOString() });
      this.handOver();
    });
  }

  /** Hands the next batch to the thread when it holds none. */
  private handOver(): void {
    if (this.inThread) return;
    const next = this.queue.shift();
    if (!next) {
      this.drained?.();
      return;
    }
    const worker = this.started();
    this.inThread = { id: next.id, worker };
    worker.postMessage(next satisfies ApplyRequest);
  }

  /** Lets the batches received finish, then stops the thread (before the main connection closes). */
  async stop(): Promise<void> {
    if (this.inThread || this.queue.length > 0) await new Promise<void>((resolve) => (this.drained = resolve));
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    // Held while it stops: a process with nothing else to do would otherwise end here.
    worker.ref();
    worker.postMessage("stop");
    await exited;
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker(this.data);
    // Never what keeps the process alive: a request waiting for an answer does that.
    worker.unref();
    worker.on("message", (answer: ApplyAnswer) => this.settle(answer));
    worker.on("error", (err) => this.failAll(worker, err));
    worker.on("exit", (code) => this.failAll(worker, new Error(`the storefront events' writer thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private settle(answer: ApplyAnswer): void {
    if (answer.counters.sqliteBusyRetries > 0) sqliteBusyRetries.inc(answer.counters.sqliteBusyRetries);
    for (const [level, drops] of Object.entries(answer.counters.errorLogDrops)) errorLogDrops.inc({ level }, drops);
    const waiter = this.waiting.get(answer.id);
    if (this.inThread?.id === answer.id) {
      this.inThread = null;
      // The thread has committed and holds no lock: the writes waiting for it go first.
      retryLockWaitsNow();
      setImmediate(() => this.handOver());
    }
    if (!waiter) return;
    this.waiting.delete(answer.id);
    if ("batch" in answer) return waiter.resolve(answer.batch);
    const err = Object.assign(new Error(answer.error.message), answer.error.code ? { code: answer.error.code } : {});
    if (answer.error.stack) err.stack = answer.error.stack;
    waiter.reject(answer.error.fromDatabase ? markAsDatabaseClientError(err) : err);
  }

  /** The thread died: the batch it held fails, and the next one starts another thread. */
  private failAll(worker: Worker, err: Error): void {
    if (this.worker === worker) this.worker = null;
    if (this.inThread?.worker !== worker) return;
    const { id } = this.inThread;
    this.inThread = null;
    this.waiting.get(id)?.reject(err);
    this.waiting.delete(id);
    setImmediate(() => this.handOver());
  }
}
