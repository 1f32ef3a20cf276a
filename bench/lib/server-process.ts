import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBuild } from "../../scripts/ensure-build.ts";
import { serverCommand } from "../../src/server/testing/server-command.ts";
import { freePort } from "../../src/server/platform/free-port.ts";

/** Fixed throwaway credentials of the benchmark server (never real secrets). */
export const BENCH_ADMIN = { email: "bench-admin@hki.global", password: "bench-admin-password" } as const;
const BENCH_BETA_PASSWORD = "bench-beta-password";

export { freePort };

/** Peak resident set size (VmHWM) of a Linux process, in MB; null where /proc is unavailable. */
export function peakRssMb(pid: number): number | null {
  return statusMb(pid, "VmHWM");
}

/** A process's memory now and its peak so far, for the log between phases (which phase set the peak). */
export function memoryLine(pid: number): string {
  const mb = (field: string) => statusMb(pid, field)?.toFixed(0) ?? "?";
  return `server RSS ${mb("VmRSS")} MB, peak ${mb("VmHWM")} MB`;
}

function statusMb(pid: number, field: string): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

/** The child processes of a process (a cluster supervisor's workers), from /proc; empty where unavailable. */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * Peak RSS of a running server: with one process its own VmHWM; under a supervisor (replicas > 1)
 * the largest worker's (`perProcess`) and the sum over the supervisor and its workers (`total`, an
 * upper bound: the peaks need not coincide).
 */
export function serverPeakRss(pid: number): { perProcess: number | null; total: number | null; processes: number } {
  const workers = childPids(pid);
  if (workers.length === 0) {
    const own = peakRssMb(pid);
    return { perProcess: own, total: own, processes: 1 };
  }
  const peaks = workers.map(peakRssMb).filter((v): v is number => v !== null);
  const primary = peakRssMb(pid) ?? 0;
  return { perProcess: peaks.length ? Math.max(...peaks) : null, total: peaks.reduce((a, b) => a + b, primary), processes: workers.length };
}

export interface RunningServer {
  baseUrl: string;
  pid: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts the real server as `npm start` runs it (the production bundle dist/server/main.js, built
 * when missing or stale) and waits until /api/health answers. One process by default, so the
 * child's pid IS the server and its /proc status is the server's memory; `replicas` > 1 runs the
 * cluster supervisor with that many workers on the one port (WEB_CONCURRENCY, decision 0006), and
 * waits until every worker listens. `nodeArgs` go to node before the bundle (e.g. --cpu-prof).
 */
export async function startServer(databaseUrl: string, options: { readyTimeoutMs: number; env?: Record<string, string>; replicas?: number; nodeArgs?: string[] }): Promise<RunningServer> {
  await ensureBuild();
  const port = await freePort();
  const [command, ...bundleArgs] = serverCommand("build");
  const args = [...(options.nodeArgs ?? []), ...bundleArgs];
  const replicas = options.replicas ?? 1;
  const logDir = mkdtempSync(join(tmpdir(), "hki-bench-server-"));
  const logPath = join(logDir, "server.log");
  const logFd = openSync(logPath, "a");
  const child = spawn(command, args, {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      SEED_DEMO: "false",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      BETA_PASSWORD: BENCH_BETA_PASSWORD,
      ADMIN_EMAIL: BENCH_ADMIN.email,
      ADMIN_PASSWORD: BENCH_ADMIN.password,
      // Production requires it (the webhook endpoints' secrets are sealed with it); any 32 bytes do here.
      WEBHOOK_SECRETS_KEY: "YmVuY2gtd2ViaG9vay1zZWNyZXRzLWtleS0zMmJ5dGU=",
      WEB_CONCURRENCY: String(replicas),
      ...options.env,
    },
    stdio: ["ignore", logFd, logFd],
  });
  closeSync(logFd);
  // The server's log goes to a file, as production's goes to its collector, not to a pipe read by
  // this process while it drives autocannon (a full pipe makes the server's asynchronous log writer
  // hold the lines in memory). Measured: no change to the peak RSS either way.
  const logText = () => {
    try {
      return readFileSync(logPath, "utf8");
    } catch {
      return "";
    }
  };
  const output = () => logText().slice(-4000);
  // Every worker writes one "listening" line (a JSON line of its log, the message inside it).
  const listening = () =>
    logText()
      .split("\n")
      .filter((l) => l.includes("HKI Global Admin listening")).length;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return rmSync(logDir, { recursive: true, force: true });
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 8000);
    await exited;
    clearTimeout(timer);
    rmSync(logDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + options.readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before it was ready:\n${output()}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      // Under a supervisor the first worker answers before the others have started.
      if (res.ok && listening() >= replicas) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server was not ready within ${options.readyTimeoutMs} ms:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  if (!child.pid) throw new Error("the server has no pid");
  return { baseUrl, pid: child.pid, child, stop };
}

/** Signs the benchmark admin in and returns its bearer token. */
export async function signIn(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(BENCH_ADMIN),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { token: string };
  return body.token;
}
