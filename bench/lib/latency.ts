import http from "node:http";

export interface LatencyFigures {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Response body size of the last request, bytes. */
  bytes: number;
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

/**
 * One keep-alive socket and node:http (lighter than fetch), so the figure is the server's time plus
 * a loopback round trip, not client overhead.
 */
export function createClient(baseUrl: string, token: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const { hostname, port } = new URL(baseUrl);
  const get = (path: string) =>
    new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
      const req = http.request({ agent, hostname, port, path, method: "GET", headers: { authorization: `Bearer ${token}` } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end();
    });
  return { get, close: () => agent.destroy() };
}

export type Client = ReturnType<typeof createClient>;

/**
 * Sequential requests after a warm-up, alternating between the given servers request by request
 * (the full and the tenth data set), so a noisy neighbour on a shared machine hits both figures
 * alike and their ratio stays meaningful. Any non-200 answer aborts: a benchmark of errors is no
 * benchmark.
 */
/** `before`: run ahead of each request, outside its timed span. */
export async function measureLatency(targets: Array<{ client: Client; path: string; before?: () => Promise<void> }>, requests: number): Promise<LatencyFigures[]> {
  const warmup = Math.min(30, Math.ceil(requests / 10));
  const bytes = targets.map(() => 0);
  const times: number[][] = targets.map(() => []);
  for (let i = 0; i < warmup + requests; i++) {
    for (const [k, { client, path, before }] of targets.entries()) {
      if (before) await before();
      const start = process.hrtime.bigint();
      const res = await client.get(path);
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${res.body.toString("utf8").slice(0, 300)}`);
      bytes[k] = res.body.length;
      if (i >= warmup) times[k]!.push(ms);
    }
  }
  return times.map((t, k) => {
    t.sort((a, b) => a - b);
    return { n: t.length, p50: percentile(t, 50), p95: percentile(t, 95), p99: percentile(t, 99), max: t[t.length - 1] ?? 0, bytes: bytes[k] ?? 0 };
  });
}

/**
 * Sequential requests over every path, alternating between the servers, for `seconds`: V8 compiles
 * a request path's hot functions in the background during the first few thousand requests, and on
 * 2 shared cores which server's compiler gets the CPU first decided the first rows' p95 (sub-ms
 * p95s 1.5–2.4 times apart on two servers answering from the same kept answer). Untimed; any non-200 answer aborts.
 */
export async function warmUp(targets: Array<{ client: Client; paths: string[] }>, seconds: number): Promise<number> {
  const until = Date.now() + seconds * 1000;
  let requests = 0;
  for (let i = 0; Date.now() < until; i++) {
    for (const { client, paths } of targets) {
      const path = paths[i % paths.length]!;
      const res = await client.get(path);
      if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${res.body.toString("utf8").slice(0, 300)}`);
      requests++;
    }
  }
  return requests;
}
