import cluster from "node:cluster";
import { timingSafeEqual } from "node:crypto";
import { AggregatorRegistry, Counter, Gauge, Histogram, collectDefaultMetrics, register } from "prom-client";

/**
 * Prometheus metrics of this process (prom-client, its global registry). Served at `/metrics` on
 * METRICS_PORT, or on the main port behind METRICS_TOKEN (serve.ts, app.ts) — never under /api.
 * With several processes (WEB_CONCURRENCY > 1) the supervisor serves METRICS_PORT and sums the
 * workers' figures (cluster-primary.ts); each worker answers it over IPC.
 */
let initialised = false;
function init(): void {
  if (initialised) return;
  initialised = true;
  collectDefaultMetrics({ prefix: "hki_" });
  // In a worker of the supervisor: answer its requests for our figures.
  if (cluster.isWorker) new AggregatorRegistry();
}
init();

export const httpRequestDuration = new Histogram({
  name: "hki_http_request_duration_seconds",
  help: "Time to answer a request, by method, route (the endpoint's path pattern) and status",
  labelNames: ["method", "route", "status"] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

export const cacheLookups = new Counter({
  name: "hki_cache_lookups_total",
  help: "Lookups in the in-process caches (read: dashboard/analytics answers; session: resolved sessions), by result",
  labelNames: ["cache", "result"] as const,
});

export const sqliteBusyRetries = new Counter({
  name: "hki_sqlite_busy_retries_total",
  help: "Times a statement found the SQLite database busy (locked by another connection) and waited to retry",
});

export const rateLimitRejections = new Counter({
  name: "hki_rate_limit_rejections_total",
  help: "Requests or entries refused by a limit, by rule (signin-ip, signin-fail, signin-busy, beta-fail, errorlog-…)",
  labelNames: ["rule"] as const,
});

export const errorLogDrops = new Counter({
  name: "hki_error_log_dropped_total",
  help: "Error-log entries not written because a budget was spent, by level",
  labelNames: ["level"] as const,
});

/** Filled on each scrape by the server process that owns a database (serve.ts). */
let jobDepthSource: (() => Promise<Array<{ kind: string; status: string; count: number }>>) | undefined;
export function setJobDepthSource(source: typeof jobDepthSource): void {
  jobDepthSource = source;
}

export const jobQueueDepth = new Gauge({
  name: "hki_job_queue_depth",
  help: "Background jobs waiting or running, by kind and status (from the jobs table)",
  labelNames: ["kind", "status"] as const,
  // Summed over workers by the supervisor: every worker reads the same table, so only one reports it.
  aggregator: "max",
  async collect() {
    this.reset();
    if (!jobDepthSource) return;
    try {
      for (const row of await jobDepthSource()) this.set({ kind: row.kind, status: row.status }, row.count);
    } catch {
      // A scrape must not fail because the database is busy: the gauge is empty this time.
    }
  },
});

/** Label for the label-less requests (SPA files, unknown paths): keeps the route label's set small. */
export const OTHER_ROUTE = "other";

/** The metrics text of this process and its content type. */
export async function metricsText(): Promise<{ body: string; contentType: string }> {
  return { body: await register.metrics(), contentType: register.contentType };
}

/** The summed metrics of every worker, read by the supervisor. */
export async function clusterMetricsText(): Promise<{ body: string; contentType: string }> {
  const aggregator = new AggregatorRegistry();
  return { body: await aggregator.clusterMetrics(), contentType: aggregator.contentType };
}

/** `Authorization: Bearer <METRICS_TOKEN>`, compared in constant time. */
export function metricsTokenMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "")?.[1];
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
