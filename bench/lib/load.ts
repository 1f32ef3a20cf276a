import autocannon from "autocannon";
import { spawn } from "node:child_process";
import http from "node:http";
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

/** Headers node:http writes by itself, or per answer: the bare server sets its own. */
const CONNECTION_HEADERS = new Set(["date", "connection", "keep-alive", "content-length", "transfer-encoding"]);

/**
 * One answer of `path` as the server sent it: its body and its headers (names as sent, without
 * those node:http writes by itself), for the bare server to send the same bytes.
 */
export function recordAnswer(baseUrl: string, path: string, token: string): Promise<{ body: string; headers: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    const req = http.get(new URL(path, baseUrl), { agent: false, headers: { authorization: `Bearer ${token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        if (res.statusCode !== 200) return reject(new Error(`GET ${path} answered ${res.statusCode}`));
        const headers: Record<string, string> = {};
        for (let i = 0; i < res.rawHeaders.length; i += 2) if (!CONNECTION_HEADERS.has(res.rawHeaders[i]!.toLowerCase())) headers[res.rawHeaders[i]!] = res.rawHeaders[i + 1]!;
        resolve({ body: Buffer.concat(chunks).toString("utf8"), headers });
      });
    });
    req.on("error", reject);
  });
}

/** Starts the bare node:http reference server as a child process, sending `answer` to every request; returns its URL and a stop function. */
export async function startBareServer(answer: { body: string; headers: Record<string, string> }): Promise<{ baseUrl: string; pid: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "bench/lib/bare-server.ts"], {
    env: { ...process.env, BARE_BODY: answer.body, BARE_HEADERS: JSON.stringify(answer.headers), BARE_PORT: String(port) },
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
