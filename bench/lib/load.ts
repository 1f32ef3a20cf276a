import autocannon from "autocannon";
import { spawn } from "node:child_process";
import { serverCpuMicros } from "./cpu.ts";
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
  /** CPU time of the server (every thread, every worker) per answered request, µs; null without the server's pid or /proc. */
  serverCpuUsPerRequest: number | null;
  /** CPU time of the load generator (autocannon, in this process) per answered request, µs. */
  generatorCpuUsPerRequest: number;
  /** Server and generator CPU as a share of one core over the run (1 = a whole core). */
  serverCores: number | null;
  generatorCores: number;
}

/** `serverPid`: the server process (or cluster supervisor) whose CPU the run is charged to. */
export async function runLoad(baseUrl: string, paths: string[], options: { connections: number; seconds: number; token?: string; serverPid?: number }): Promise<LoadFigures> {
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const serverCpuBefore = options.serverPid === undefined ? null : serverCpuMicros(options.serverPid);
  const generatorCpuBefore = process.cpuUsage();
  const startedAt = process.hrtime.bigint();
  const result = await autocannon({
    url: baseUrl,
    connections: options.connections,
    duration: options.seconds,
    headers,
    // autocannon cycles through `requests` on each connection: a mix of paths.
    requests: paths.map((path) => ({ method: "GET", path, headers })),
  });
  const elapsedUs = Number(process.hrtime.bigint() - startedAt) / 1000;
  const serverCpuAfter = options.serverPid === undefined ? null : serverCpuMicros(options.serverPid);
  const serverCpuUs = serverCpuBefore === null || serverCpuAfter === null ? null : serverCpuAfter - serverCpuBefore;
  const generatorCpu = process.cpuUsage(generatorCpuBefore);
  const generatorCpuUs = generatorCpu.user + generatorCpu.system;
  const answered = Math.max(1, result.requests.total);
  return {
    connections: options.connections,
    seconds: options.seconds,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    errors: result.errors + result.timeouts + result.non2xx,
    requests: result.requests.total,
    serverCpuUsPerRequest: serverCpuUs === null ? null : serverCpuUs / answered,
    generatorCpuUsPerRequest: generatorCpuUs / answered,
    serverCores: serverCpuUs === null ? null : serverCpuUs / elapsedUs,
    generatorCores: generatorCpuUs / elapsedUs,
  };
}

/** Starts the bare node:http reference server as a child process; returns its URL and a stop function. */
export async function startBareServer(body: string): Promise<{ baseUrl: string; pid: number; stop: () => Promise<void> }> {
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
  if (!child.pid) throw new Error("the bare server has no pid");
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
