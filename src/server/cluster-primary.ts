import cluster, { type Worker } from "node:cluster";
import { freePort } from "./platform/free-port.ts";
import { logEvent, logLifecycle, processLog } from "./platform/logging/logger.ts";

/** A worker that dies is replaced after this pause, so a crash loop cannot burn the CPU. */
const RESPAWN_DELAY_MS = 1000;
/** How long workers get to finish their requests on SIGTERM/SIGINT before they are killed. */
const STOP_GRACE_MS = 8000;

/**
 * WEB_CONCURRENCY > 1: this process only supervises; `workers` copies of the server (this same
 * file, as cluster workers) share the port. Everything a replica shares lives in the database
 * (sessions, rate limits, caches' truth), so workers are interchangeable (docs/decisions/0006).
 * The first worker prepares the database alone (migrations, settings, first admin, demo data, beta
 * secret) and the others start once it listens, so they only find what it made. If the first one
 * cannot start (bad or missing database), the primary exits with its code: never a half-started
 * cluster. A worker that dies later is replaced.
 */
export async function runClusterPrimary(workers: number, port: number, host: string, metricsPort?: number): Promise<void> {
  // The supervisor's own JSON lines (at "info": it writes only a handful, and its workers log at LOG_LEVEL).
  const log = processLog();
  let stopping = false;
  const exited = (worker: Worker) => new Promise<void>((resolve) => (worker.isDead() ? resolve() : worker.once("exit", () => resolve())));
  // Workers share a listening socket only for the same port: PORT=0 ("any free port") would give
  // each worker a port of its own, so the primary picks one for all of them.
  const workerEnv = { PORT: String(port === 0 ? await freePort(host) : port) };
  const fork = () => cluster.fork(workerEnv);

  const first = fork();
  const firstCode = await new Promise<number | null>((resolve) => {
    first.once("listening", () => resolve(null));
    first.once("exit", (code) => resolve(code ?? 1));
  });
  if (firstCode !== null) {
    logEvent(log, "fatal", "The server did not start; see the lines above", { exitCode: firstCode });
    process.exit(firstCode === 0 ? 1 : firstCode);
  }
  for (let i = 1; i < workers; i++) fork();
  logLifecycle(log, `Running ${workers} server processes (WEB_CONCURRENCY=${workers}), supervised by process ${process.pid}`);
  if (metricsPort) {
    // Loaded only when asked for: a supervisor otherwise stays small.
    const [{ startMetricsServer }, { clusterMetricsText }] = await Promise.all([import("./platform/metrics/metrics-server.ts"), import("./platform/metrics/metrics.ts")]);
    await startMetricsServer(metricsPort, host, clusterMetricsText);
    logLifecycle(log, `Metrics of all ${workers} processes on http://${host}:${metricsPort}/metrics`);
  }

  cluster.on("exit", (worker, code, signal) => {
    if (stopping) return;
    logEvent(log, "error", "worker exited; starting a new one", { workerPid: worker.process.pid, ...(signal ? { signal } : { exitCode: code }), respawnInMs: RESPAWN_DELAY_MS });
    setTimeout(() => {
      if (!stopping) fork();
    }, RESPAWN_DELAY_MS);
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logLifecycle(log, `${signal} received, stopping ${Object.keys(cluster.workers ?? {}).length} server processes`);
    const running = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    for (const worker of running) worker.process.kill("SIGTERM");
    const deadline = setTimeout(() => {
      for (const worker of running) worker.process.kill("SIGKILL");
    }, STOP_GRACE_MS);
    deadline.unref();
    void Promise.all(running.map(exited)).then(() => process.exit(0));
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}
