/**
 * `npx tsx bench/compare-builds.ts DIR DIR ... [--turns N] [--seconds S]`
 *
 * Server CPU per answer of the cached dashboard for several builds of the panel, measured in turns
 * (A, B, C, A, B, C, …) so each build sees the machine as the others do (docs/performance.md
 * "Throughput"). DIR is a checkout with its server built (`npx tsx scripts/build-server.ts`), e.g.
 * a `git worktree` of an older commit beside this one. Each turn starts DIR's
 * `dist/server/main.js` on an empty SQLite database, signs the bench admin in, warms up for 3 s,
 * then runs 100 connections for S seconds with the server pinned to the first CPU and this process
 * (the load) to the others, and reads the server's CPU (every thread) from /proc.
 */
import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { pinServerApart } from "./lib/cpu.ts";
import { runLoad } from "./lib/load.ts";
import { BENCH_ADMIN, freePort, signIn } from "./lib/server-process.ts";

const { values, positionals } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  options: { turns: { type: "string", default: "3" }, seconds: { type: "string", default: "8" } },
});
if (positionals.length === 0) throw new Error("name at least one checkout with a built server");
const dirs = positionals.map((d) => resolve(d));
const PATH = "/api/admin/dashboard/stats";

async function measure(dir: string): Promise<{ requestsPerSecond: number; cpuUs: number | null }> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "hki-compare-"));
  // The log goes to a file, as in `npm run bench` (lib/server-process.ts): writing it is part of an answer's cost.
  const logFd = openSync(join(dataDir, "server.log"), "a");
  const server = spawn(process.execPath, ["--max-old-space-size=1024", "dist/server/main.js"], {
    cwd: dir,
    stdio: ["ignore", logFd, logFd],
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: `sqlite://${join(dataDir, "admin.sqlite")}`,
      SEED_DEMO: "false",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      BETA_PASSWORD: "bench-beta-password",
      ADMIN_EMAIL: BENCH_ADMIN.email,
      ADMIN_PASSWORD: BENCH_ADMIN.password,
      WEBHOOK_SECRETS_KEY: "YmVuY2gtd2ViaG9vay1zZWNyZXRzLWtleS0zMmJ5dGU=",
    },
  });
  closeSync(logFd);
  const exited = new Promise((r) => server.once("exit", r));
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    for (let tries = 0; ; tries++) {
      const up = await fetch(`${baseUrl}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (tries > 300) throw new Error(`${dir}: the server did not start`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const token = await signIn(baseUrl);
    await runLoad(baseUrl, [PATH], { connections: 100, seconds: 3, token });
    const pinned = pinServerApart(server.pid!);
    try {
      const figures = await runLoad(baseUrl, [PATH], { connections: 100, seconds: Number(values.seconds), token, serverPid: server.pid! });
      return { requestsPerSecond: figures.requestsPerSecond, cpuUs: figures.serverCpuUsPerRequest };
    } finally {
      if ("undo" in pinned) pinned.undo();
    }
  } finally {
    server.kill("SIGTERM");
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const byDir = new Map<string, number[]>(dirs.map((d) => [d, []]));
for (let turn = 1; turn <= Number(values.turns); turn++) {
  for (const dir of dirs) {
    const { requestsPerSecond, cpuUs } = await measure(dir);
    if (cpuUs !== null) byDir.get(dir)!.push(cpuUs);
    console.log(`turn ${turn} ${dir}: ${requestsPerSecond.toFixed(0)} req/s, server CPU ${cpuUs?.toFixed(1) ?? "?"} µs per answer`);
  }
}
for (const [dir, us] of byDir) {
  const sorted = [...us].sort((a, b) => a - b);
  console.log(`${dir}: median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(1)} µs, range ${sorted[0]?.toFixed(1)}–${sorted.at(-1)?.toFixed(1)}`);
}
