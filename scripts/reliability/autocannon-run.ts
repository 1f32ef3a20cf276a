import autocannonUntyped from "autocannon";

export interface CannonResult {
  requests: { total: number; average: number };
  latency: { p50: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
}

export interface CannonRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

type Autocannon = (opts: Record<string, unknown>) => Promise<CannonResult>;
// Only the fields the runners read, in a simpler shape than autocannon's own declarations.
const autocannon = autocannonUntyped as unknown as Autocannon;

/** One loopback load run: `connections` clients cycling through `requests` for `seconds`. */
export function cannon(url: string, connections: number, seconds: number, requests: CannonRequest[], headers: Record<string, string>): Promise<CannonResult> {
  if (!url.startsWith("http://127.0.0.1")) throw new Error("load runs are loopback only");
  return autocannon({ url, connections, duration: seconds, requests, headers });
}

export function summary(r: CannonResult): string {
  return `${r.requests.total} requests (${Math.round(r.requests.average)}/s), errors ${r.errors}, timeouts ${r.timeouts}, non-2xx ${r.non2xx}, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms`;
}
