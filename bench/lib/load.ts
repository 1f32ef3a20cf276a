import autocannon from "autocannon";
import { spawn } from "node:child_process";
import { freePort } from "./server-process.ts";

export interface LoadFigures {
  connections: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Connection errors + timeouts + non-2xx answers. */
  errors: number;
  requests: number;
}

export async function runLoad(baseUrl: string, paths: string[], options: { connections: number; seconds: number; token?: string }): Promise<LoadFigures> {
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const result = await autocannon({
    url: baseUrl,
    connections: options.connections,
    duration: options.seconds,
    headers,
    // autocannon cycles through `requests` on each connection: a mix of paths.
    requests: paths.map((path) => ({ method: "GET", path, headers })),
  });
  return {
    connections: options.connections,
    seconds: options.seconds,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    errors: result.errors + result.timeouts + result.non2xx,
    requests: result.requests.total,
  };
}

/** Starts the bare node:http reference server as a child process; returns its URL and a stop function. */
export async function startBareServer(body: string): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "bench/lib/bare-server.ts"], {
    env: { ...process.env, BARE_BODY: body, BARE_PORT: String(port) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`bare server exited with ${code}`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve();
    });
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
