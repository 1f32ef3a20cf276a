import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/server/platform/db/connect.ts";
import { compareRollups } from "../../src/server/domain/ledger/recompute.ts";
import { type ServerProcess, signInAdmin, startServer } from "../../src/server/testing/server-process.ts";
import { errorLogEndState, insertOldArchivedLogs } from "./archived-logs.ts";
import { type CannonResult, cannon, summary } from "./autocannon-run.ts";
import { ensureBuild } from "../ensure-build.ts";

/**
 * `npm run test:load`: loopback load on the real server process over the demo data (SQLite file).
 *   0. before the server starts for the run: LOAD_CLEANUP_ROWS (200k) error_logs archived > 30 days
 *      ago are written into its file; a 1-connection pass per read route gives each route's
 *      service time (diagnostics, no target)
 *   1. read mix, LOAD_READ_CONNECTIONS (200) x LOAD_READ_SECONDS (30): 0 errors, 0 non-2xx, p99 <= 50 ms
 *   2. 100 readers + 20 writers x LOAD_MIXED_SECONDS (60) while DELETE /api/admin/errors/cleanup-archived
 *      removes the 200k rows: 0 5xx, read p99 <= 80 ms; end state: all 200k gone, no expired archive
 *      left, error_log_counts = count(*), rollups/counters = recomputation
 *   3. soak, 50 connections x LOAD_SOAK_SECONDS (600): RSS growth < 10 % (RSS of all the server's processes)
 * Each phase also reports the server's CPU use (share of one core) and the load generator's, which
 * shares the same machine. Prints one line per phase and exits non-zero when a target is missed.
 */
const setting = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const READ_CONNECTIONS = setting("LOAD_READ_CONNECTIONS", 200);
const READ_SECONDS = setting("LOAD_READ_SECONDS", 30);
const MIXED_SECONDS = setting("LOAD_MIXED_SECONDS", 60);
const SOAK_SECONDS = setting("LOAD_SOAK_SECONDS", 600);
const CLEANUP_ROWS = setting("LOAD_CLEANUP_ROWS", 200_000);
/**
 * Server processes (WEB_CONCURRENCY) of the run: one per core of this 2-core machine, as the panel
 * is meant to be deployed there (docs/decisions/0006). LOAD_WORKERS=1 measures a single process.
 */
const WORKERS = setting("LOAD_WORKERS", 2);

const READS = ["/api/admin/dashboard/stats", "/api/admin/analytics?days=30", "/api/admin/vendors?limit=20", "/api/admin/errors?limit=20", "/api/admin/settings", "/api/auth/me"].map((path) => ({
  method: "GET",
  path,
}));

/** The server's processes: the one started, plus its workers when it supervises a cluster. */
function serverPids(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    // No such file on kernels without CONFIG_PROC_CHILDREN: the process alone.
  }
  return [pid, ...children];
}

/** RSS of all the server's processes together, kB. */
function rssKb(pid: number): number {
  return serverPids(pid).reduce((sum, p) => sum + Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0), 0);
}

/** CPU seconds (user + system) the server's processes have used so far. */
function cpuSeconds(pid: number): number {
  return serverPids(pid).reduce((sum, p) => {
    const stat = readFileSync(`/proc/${p}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 of /proc/<pid>/stat (utime, stime) are at 11 and 12 after the command name; clock ticks of 1/100 s.
    return sum + (Number(fields[11]) + Number(fields[12])) / 100;
  }, 0);
}

/** Runs `phase` and reports the server's and this process's CPU use over it, as % of one core. */
async function measured<T>(server: ServerProcess, phase: () => Promise<T>): Promise<{ result: T; cpu: string }> {
  const pid = server.child.pid!;
  const serverBefore = cpuSeconds(pid);
  const selfBefore = process.cpuUsage();
  const started = Date.now();
  const result = await phase();
  const wall = (Date.now() - started) / 1000;
  const self = process.cpuUsage(selfBefore);
  const serverPct = ((cpuSeconds(pid) - serverBefore) / wall) * 100;
  const selfPct = ((self.user + self.system) / 1e6 / wall) * 100;
  return {
    result,
    cpu: `server CPU ${serverPct.toFixed(0)} % of one core (${WORKERS} process${WORKERS > 1 ? "es" : ""}), load generator ${selfPct.toFixed(0)} %, load average ${loadavg()[0]!.toFixed(1)}`,
  };
}

const fiveXx = (r: CannonResult) =>
  Object.entries(r.statusCodeStats)
    .filter(([code]) => code.startsWith("5"))
    .reduce((n, [, s]) => n + s.count, 0);

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "hki-load-"));
  const dbPath = join(dir, "admin.sqlite");
  const failures: string[] = [];
  // Load is measured on the production bundle (`npm start` runs it), built here when missing or stale.
  await ensureBuild();

  // A first start creates and seeds the file; with the server stopped, the old archives go in.
  const seeding = await startServer(`sqlite:${dbPath}`, { env: { SEED_DEMO: "true" }, from: "build" });
  await seeding.stop();
  const insertStart = Date.now();
  insertOldArchivedLogs(dbPath, CLEANUP_ROWS);
  const before = errorLogEndState(dbPath);
  console.log(`[load] wrote ${CLEANUP_ROWS} error_logs archived 40 days ago in ${Date.now() - insertStart} ms; error_logs ${before.total}, expired archives ${before.expiredLeft}`);

  const server = await startServer(`sqlite:${dbPath}`, { env: { SEED_DEMO: "true", WEB_CONCURRENCY: String(WORKERS) }, from: "build" });
  console.log(`[load] server: ${WORKERS} process${WORKERS > 1 ? "es" : ""} (WEB_CONCURRENCY=${WORKERS}) on ${server.url}`);
  let cleanupDeleted = -1;
  let cleanupAt = Date.now();
  try {
    const token = await signInAdmin(server.url);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    await cannon(server.url, 10, 3, READS, headers); // warm-up
    for (const route of READS) {
      const one = await cannon(server.url, 1, 2, [route], headers);
      console.log(
        `[load] service time ${route.path}: mean ${(2000 / Math.max(1, one.requests.total)).toFixed(2)} ms (${one.requests.total} requests in 2 s on 1 connection), p99 ${one.latency.p99} ms`,
      );
    }

    const read = await measured(server, () => cannon(server.url, READ_CONNECTIONS, READ_SECONDS, READS, headers));
    console.log(`[load] read mix ${READ_CONNECTIONS} x ${READ_SECONDS}s: ${summary(read.result)}; ${read.cpu}`);
    if (read.result.errors || read.result.timeouts || read.result.non2xx || read.result.latency.p99 > 50) failures.push("read mix");

    const vendorsRes = await fetch(`${server.url}/api/admin/vendors?limit=20`, { headers });
    const vendorIds = ((await vendorsRes.json()) as { vendors: Array<{ id: string }> }).vendors.map((v) => v.id);
    const writes = vendorIds.flatMap((id, i) => [
      { method: "PATCH", path: `/api/vendors/${id}/status`, body: JSON.stringify({ isActive: i % 2 === 0 }) },
      { method: "PUT", path: "/api/admin/settings", body: JSON.stringify({ announcement_message: `load ${i}` }) },
    ]);
    // The cleanup starts 5 s into the mixed phase, so it runs under the full load.
    const cleanup = async () => {
      await new Promise((resolve) => setTimeout(resolve, 5000));
      const started = Date.now();
      cleanupAt = started;
      const res = await fetch(`${server.url}/api/admin/errors/cleanup-archived`, { method: "DELETE", headers, signal: AbortSignal.timeout(300_000) });
      const body = (await res.json()) as { count?: number };
      return { status: res.status, count: body.count ?? -1, ms: Date.now() - started };
    };
    const mixed = await measured(server, () => Promise.all([cannon(server.url, 100, MIXED_SECONDS, READS, headers), cannon(server.url, 20, MIXED_SECONDS, writes, headers), cleanup()]));
    const [readers, writers, cleaned] = mixed.result;
    cleanupDeleted = cleaned.count;
    console.log(`[load] mixed readers 100 x ${MIXED_SECONDS}s: ${summary(readers)}, 5xx ${fiveXx(readers)}`);
    console.log(`[load] mixed writers 20 x ${MIXED_SECONDS}s: ${summary(writers)}, 5xx ${fiveXx(writers)}`);
    console.log(`[load] mixed cleanup: DELETE cleanup-archived answered ${cleaned.status} after ${cleaned.ms} ms, deleted ${cleaned.count}; ${mixed.cpu}`);
    if (fiveXx(readers) || fiveXx(writers) || readers.latency.p99 > 80) failures.push("mixed");
    if (cleaned.status !== 200 || cleaned.count < CLEANUP_ROWS) failures.push("mixed cleanup");

    const pid = server.child.pid!;
    const soakStart = rssKb(pid);
    const samples: number[] = [soakStart];
    const sampler = setInterval(() => samples.push(rssKb(pid)), 60_000);
    const soak = await measured(server, () => cannon(server.url, 50, SOAK_SECONDS, READS, headers));
    clearInterval(sampler);
    const soakEnd = rssKb(pid);
    samples.push(soakEnd);
    const growth = (soakEnd - soakStart) / soakStart;
    console.log(`[load] soak 50 x ${SOAK_SECONDS}s: ${summary(soak.result)}; ${soak.cpu}`);
    console.log(
      `[load] soak RSS ${Math.round(soakStart / 1024)} -> ${Math.round(soakEnd / 1024)} MB (${(growth * 100).toFixed(1)} %); per minute: ${samples.map((kb) => Math.round(kb / 1024)).join(", ")} MB`,
    );
    if (growth >= 0.1 || soak.result.errors || soak.result.non2xx) failures.push("soak");
  } finally {
    await server.stop();
  }
  // End state: every rollup and counter equals a recomputation from the raw rows; the cleanup took
  // every expired archive (the 200k included) and the per-level counts still equal count(*).
  const database = openDatabase({ kind: "sqlite", path: dbPath });
  const differences = await compareRollups(database.db);
  await database.close();
  // Expired as of the cleanup: demo archives may have crossed the 30-day line since.
  const after = errorLogEndState(dbPath, cleanupAt);
  console.log(
    `[load] end state: ${differences.length} rollup/counter differences; error_logs ${before.total} -> ${after.total} (cleanup reported ${cleanupDeleted} deleted), inserted old archives left ${after.oldArchivedLeft}, expired archives left ${after.expiredLeft}, error_log_counts mismatches ${after.countMismatches.length ? after.countMismatches.join("; ") : "none"}`,
  );
  if (differences.length || after.oldArchivedLeft || after.expiredLeft || after.countMismatches.length) failures.push("end state");
  rmSync(dir, { recursive: true, force: true });
  console.log(failures.length ? `[load] FAILED: ${failures.join(", ")}` : "[load] all targets held");
  process.exit(failures.length ? 1 : 0);
}

void main();
