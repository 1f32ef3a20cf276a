import { type ServerType, serve } from "@hono/node-server";
import type { Hono } from "hono";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { createApp, serverResponseClass } from "./app.ts";
import type { AppConfig } from "./platform/config/config.ts";
import { webAppIsBuilt } from "./platform/http/static-files.ts";
import { jobRegistrations } from "./job-handlers.ts";
import { JobWorker } from "./platform/jobs/job-worker.ts";
import cluster from "node:cluster";
import { countActiveJobs } from "./platform/jobs/jobs.queries.ts";
import { metricsText, setJobDepthSource } from "./platform/metrics/metrics.ts";
import { startMetricsServer } from "./platform/metrics/metrics-server.ts";
import { createRuntime } from "./runtime.ts";
import type { AppEnv } from "./platform/request/app-env.ts";
import { capConnections, requestTimeouts } from "./platform/http/server-limits.ts";
import { logEvent, logLifecycle } from "./platform/logging/logger.ts";

const WEB_ROOT = fileURLToPath(new URL("../../dist/web", import.meta.url));

/**
 * The app on node:http as every server process serves it: the response class writing the security
 * headers (platform/http/security-headers.ts), the request timeouts and the cap on open connections
 * (platform/http/server-limits.ts).
 */
export function serveApp(app: Hono<AppEnv>, config: AppConfig, onListening?: (info: AddressInfo) => void): ServerType {
  const serverOptions = { ServerResponse: serverResponseClass(config), ...requestTimeouts(config) };
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host, serverOptions }, onListening);
  capConnections(server as Server, config);
  return server;
}

/** One server process: open and prepare the database, serve the API and the web app, stop cleanly. */
export async function runServer(config: AppConfig): Promise<void> {
  const deps = await createRuntime(config, { staticRoot: WEB_ROOT });
  const { logger } = deps;
  if (!webAppIsBuilt(WEB_ROOT)) logEvent(logger, "warn", "The web app is not built (dist/web missing): only the API is served. Run `npm run build`.");
  const app = createApp(deps);
  // Background work (payout runs, retention sweeps, …) runs in every process; the lease in the
  // jobs table makes sure each job is worked on by exactly one of them.
  const worker = new JobWorker(deps.database, deps.clock);
  for (const register of jobRegistrations) register(worker, deps);
  setJobDepthSource(() => countActiveJobs(deps.database.db));
  // METRICS_PORT: a second listener for /metrics. Under a supervisor (WEB_CONCURRENCY > 1) the
  // supervisor serves it with every worker's figures summed (cluster-primary.ts).
  const metricsServer = config.metricsPort && cluster.isPrimary ? await startMetricsServer(config.metricsPort, config.host, metricsText) : undefined;
  if (metricsServer) logLifecycle(logger, `Metrics on http://${config.host}:${config.metricsPort}/metrics`);

  const server = serveApp(app, config, (info) => {
    logLifecycle(logger, `HKI Global Admin listening on http://${config.host}:${info.port} (database: ${deps.database.kind})`);
    worker.start();
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logLifecycle(logger, `${signal} received, shutting down`);
    metricsServer?.close();
    server.close(() => {
      void worker
        .stop()
        .then(() => deps.database.close())
        .finally(() => process.exit(0));
    });
    // Keep-alive connections may hold close() open; do not hang forever.
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}
