import cluster from "node:cluster";
import { timingSafeEqual } from "node:crypto";
import { AggregatorRegistry, Counter, Gauge, type Metric, type MetricValueWithName, collectDefaultMetrics, register } from "prom-client";

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

const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface DurationSeries {
  labels: { method: string; route: string; status: string };
  /** Observations per bucket (not cumulative); the last slot is above the largest bound. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

/**
 * The request-duration histogram, observed once per request. prom-client's Histogram builds a
 * closure, validates and hashes the label object on every observation (~1.5 µs, a visible share of
 * a cached request in bench/profile.ts); this one finds its series by one
 * string key and bumps a number, and turns into prom-client's histogram shape only when scraped
 * (`get`, the interface prom-client's registry and the supervisor's aggregation read).
 */
class RequestDurationHistogram {
  readonly name = "hki_http_request_duration_seconds";
  readonly help = "Time to answer a request, by method, route (the endpoint's path pattern) and status";
  readonly type = "histogram";
  readonly aggregator = "sum";
  private readonly series = new Map<string, DurationSeries>();

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${status} ${method} ${route}`;
    let series = this.series.get(key);
    if (!series) {
      series = { labels: { method, route, status: String(status) }, buckets: new Float64Array(DURATION_BUCKETS.length + 1), sum: 0, count: 0 };
      this.series.set(key, series);
    }
    let i = 0;
    while (i < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[i]!) i++;
    series.buckets[i]! += 1;
    series.sum += seconds;
    series.count += 1;
  }

  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: Array<MetricValueWithName<string>> }> {
    const values: Array<MetricValueWithName<string>> = [];
    for (const { labels, buckets, sum, count } of this.series.values()) {
      let cumulative = 0;
      DURATION_BUCKETS.forEach((le, i) => {
        cumulative += buckets[i]!;
        values.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le }, value: cumulative });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le: "+Inf" }, value: count });
      values.push({ metricName: `${this.name}_sum`, labels, value: sum });
      values.push({ metricName: `${this.name}_count`, labels, value: count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.series.clear();
  }
}

export const httpRequestDuration = new RequestDurationHistogram();
register.registerMetric(httpRequestDuration as unknown as Metric);

/** Cache lookups counted in plain numbers (two per cached request) and handed to prom-client when scraped. */
const cacheLookupCounts = { read: { hit: 0, miss: 0 }, session: { hit: 0, miss: 0 }, "search-count": { hit: 0, miss: 0 }, "vendor-matches": { hit: 0, miss: 0 } };
export type CacheName = keyof typeof cacheLookupCounts;

export function countCacheLookup(cache: CacheName, hit: boolean): void {
  if (hit) cacheLookupCounts[cache].hit += 1;
  else cacheLookupCounts[cache].miss += 1;
}

export const cacheLookups = new Counter({
  name: "hki_cache_lookups_total",
  help: "Lookups in the in-process caches (read: dashboard/analytics answers; session: resolved sessions; search-count: product searches' counts), by result",
  labelNames: ["cache", "result"] as const,
  collect() {
    this.reset();
    for (const cache of Object.keys(cacheLookupCounts) as CacheName[]) {
      for (const result of ["hit", "miss"] as const) {
        const n = cacheLookupCounts[cache][result];
        if (n > 0) this.inc({ cache, result }, n);
      }
    }
  },
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

export const httpConnectionsRefused = new Counter({
  name: "hki_http_connections_refused_total",
  help: "Connections closed unread because the process had HTTP_MAX_CONNECTIONS open already (platform/http/server-limits.ts)",
});

export const errorLogDrops = new Counter({
  name: "hki_error_log_dropped_total",
  help: "Error-log entries not written because a budget was spent, by level",
  labelNames: ["level"] as const,
});

export const jobsFailed = new Counter({
  name: "hki_jobs_failed_total",
  help: "Failed attempts of background jobs, by kind: each attempt that threw, whether it is tried again or failed for good (the jobs table says which)",
  labelNames: ["kind"] as const,
});

export const mailFailed = new Counter({
  name: "hki_mail_failed_total",
  help: "Outbox mails marked failed for good, by reason (attempts: every attempt refused; interrupted: a delivery cut off mid-send, not sent again)",
  labelNames: ["reason"] as const,
});

export const webhookAttempts = new Counter({
  name: "hki_webhook_attempts_total",
  help: "Webhook delivery attempts recorded, by result (delivered; retrying: failed, another attempt scheduled; failed: failed for good)",
  labelNames: ["result"] as const,
});

export const storefrontOrdersTogether = new Counter({
  name: "hki_storefront_orders_together_total",
  help: "order.paid events applied in one transaction with others of their batch (docs/decisions/0022); the rest of the events are applied one by one",
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
