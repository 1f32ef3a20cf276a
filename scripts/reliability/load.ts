import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/server/db/connect.ts";
import { compareRollups } from "../../src/server/ledger/recompute.ts";
import { signInAdmin, startServer } from "../../src/server/reliability/server-process.ts";
import { type CannonResult, cannon, summary } from "./autocannon-run.ts";

/**
 * `npm run test:load`: loopback load on the real server over the demo data (SQLite file).
 *   1. read mix, LOAD_READ_CONNECTIONS (200) x LOAD_READ_SECONDS (30): 0 errors, 0 non-2xx, p99 <= 50 ms
 *   2. 100 readers + 20 writers x LOAD_MIXED_SECONDS (60): 0 5xx, read p99 <= 80 ms, rollups exact
 *   3. soak, 50 connections x LOAD_SOAK_SECONDS (600): RSS growth < 10 %
 * Prints one line per phase and exits non-zero when a target is missed.
 */
const seconds = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const READ_CONNECTIONS = seconds("LOAD_READ_CONNECTIONS", 200);
const READ_SECONDS = seconds("LOAD_READ_SECONDS", 30);
const MIXED_SECONDS = seconds("LOAD_MIXED_SECONDS", 60);
const SOAK_SECONDS = seconds("LOAD_SOAK_SECONDS", 600);

const READS = ["/api/admin/dashboard/stats", "/api/admin/analytics?days=30", "/api/admin/vendors?limit=20", "/api/admin/errors?limit=20", "/api/admin/settings", "/api/auth/me"].map((path) => ({ method: "GET", path }));

/** RSS of the server: `tsx` is a launcher, so its child processes are counted too. */
function rssKb(pid: number): number {
  const own = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  return own + children.reduce((sum, child) => sum + rssKb(child), 0);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "hki-load-"));
  const dbPath = join(dir, "admin.sqlite");
  const server = await startServer(`sqlite:${dbPath}`, { env: { SEED_DEMO: "true" } });
  const failures: string[] = [];
  try {
    const token = await signInAdmin(server.url);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    await cannon(server.url, 10, 3, READS, headers); // warm-up

    const read = await cannon(server.url, READ_CONNECTIONS, READ_SECONDS, READS, headers);
    console.log(`[load] read mix ${READ_CONNECTIONS} x ${READ_SECONDS}s: ${summary(read)}`);
    if (read.errors || read.timeouts || read.non2xx || read.latency.p99 > 50) failures.push("read mix");

    const vendorsRes = await fetch(`${server.url}/api/admin/vendors?limit=20`, { headers });
    const vendorIds = ((await vendorsRes.json()) as { vendors: Array<{ id: string }> }).vendors.map((v) => v.id);
    const writes = vendorIds.flatMap((id, i) => [
      { method: "PATCH", path: `/api/vendors/${id}/status`, body: JSON.stringify({ isActive: i % 2 === 0 }) },
      { method: "PUT", path: "/api/admin/settings", body: JSON.stringify({ announcement_message: `load ${i}` }) },
    ]);
    const [readers, writers] = await Promise.all([cannon(server.url, 100, MIXED_SECONDS, READS, headers), cannon(server.url, 20, MIXED_SECONDS, writes, headers)]);
    const fiveXx = (r: CannonResult) => Object.entries(r.statusCodeStats).filter(([code]) => code.startsWith("5")).reduce((n, [, s]) => n + s.count, 0);
    console.log(`[load] mixed readers 100 x ${MIXED_SECONDS}s: ${summary(readers)}, 5xx ${fiveXx(readers)}`);
    console.log(`[load] mixed writers 20 x ${MIXED_SECONDS}s: ${summary(writers)}, 5xx ${fiveXx(writers)}`);
    if (fiveXx(readers) || fiveXx(writers) || readers.latency.p99 > 80) failures.push("mixed");

    const soakStart = rssKb(server.child.pid!);
    const soak = await cannon(server.url, 50, SOAK_SECONDS, READS, headers);
    const soakEnd = rssKb(server.child.pid!);
    const growth = (soakEnd - soakStart) / soakStart;
    console.log(`[load] soak 50 x ${SOAK_SECONDS}s: ${summary(soak)}; RSS ${Math.round(soakStart / 1024)} -> ${Math.round(soakEnd / 1024)} MB (${(growth * 100).toFixed(1)} %)`);
    if (growth >= 0.1 || soak.errors || soak.non2xx) failures.push("soak");
  } finally {
    await server.stop();
  }
  // End state: every rollup and counter equals a recomputation from the raw rows.
  const database = openDatabase({ kind: "sqlite", path: dbPath });
  const differences = await compareRollups(database.db);
  await database.close();
  console.log(`[load] end state: ${differences.length} rollup/counter differences`);
  if (differences.length) failures.push("end state");
  rmSync(dir, { recursive: true, force: true });
  console.log(failures.length ? `[load] FAILED: ${failures.join(", ")}` : "[load] all targets held");
  process.exit(failures.length ? 1 : 0);
}

void main();
