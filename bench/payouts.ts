/**
 * `npx tsx bench/payouts.ts [--vendors 50000] [--rps 100] [--export-rows 1000000] [--from build|source]`:
 * the payout figures of docs/performance.md (issue 13).
 *   1. A payout run over `--vendors` vendors (generated: most accounts active) against the fake
 *      Stripe in this process, paced at `--rps` (STRIPE_MAX_RPS): the rate kept, as a share of the
 *      configured one, from the first transfer to the last.
 *   2. A CSV export of `--export-rows` payouts (rows added in bulk): rows per second and the
 *      server's peak RSS before and after (constant memory: it must not grow with the file).
 * Writes bench/results/<date>-<commit>-payouts.json. `--from source` runs the server from source (no build).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import SQLite from "better-sqlite3";
import { openDatabase } from "../src/server/platform/db/connect.ts";
import { migrateToLatest } from "../src/server/platform/db/migrate.ts";
import { generateLargeDataset } from "../src/server/demo-data/generate.ts";
import { startFakeStripe } from "../src/server/testing/fake-stripe-server.ts";
import { startServer as startSourceServer, signInAdmin } from "../src/server/testing/server-process.ts";
import { describeMachine } from "./lib/machine.ts";
import { RESULTS_DIR, measuredCommit, resultFile } from "./lib/result-file.ts";
import { BENCH_ADMIN, peakRssMb, startServer as startBuiltServer } from "./lib/server-process.ts";

const { values } = parseArgs({
  options: {
    vendors: { type: "string", default: "50000" },
    rps: { type: "string", default: "100" },
    "export-rows": { type: "string", default: "1000000" },
    from: { type: "string", default: "build" },
    out: { type: "string" },
  },
});
const vendors = Number(values.vendors);
const rps = Number(values.rps);
const exportRows = Number(values["export-rows"]);
const started = Date.now();
/** The code this run measures (HEAD may move while it runs). */
const commitAtStart = measuredCommit();
const log = (m: string) => console.log(`[bench payouts ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${m}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "hki-bench-payouts-"));
  const dbPath = join(dir, "payouts.sqlite");
  const database = openDatabase({ kind: "sqlite", path: dbPath });
  await migrateToLatest(database.db);
  await generateLargeDataset(database, { vendors, products: vendors * 2, orders: vendors * 4, errorLogs: 0, days: 120, seed: 21, onProgress: (m) => log(m) });
  const eligible = Number(
    (
      await database.db
        .selectFrom("payout_accounts")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("status", "=", "active")
        .where("balance_cents", ">=", 2500)
        .executeTakeFirstOrThrow()
    ).n,
  );
  await database.close();

  // Payout history for the export: rows of one finished run, written straight to the file.
  const raw = new SQLite(dbPath);
  raw.pragma("journal_mode = WAL");
  const insert = raw.prepare(
    "insert into payouts (id, run_id, vendor_id, vendor_name, destination, amount_cents, currency, status, attempt, reuse_key, stripe_transfer_id, failure_reason, created_at, updated_at, paid_at) values (?, 'bench-history', ?, ?, ?, ?, 'usd', 'paid', 1, 0, ?, null, ?, ?, ?)",
  );
  const fill = raw.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const at = new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString();
      insert.run(`00000000-0000-7000-8000-${String(i).padStart(12, "0")}`, `bench-vendor-${i}`, `Artist ${i}`, `acct_bench${i}`, 1000 + (i % 50_000), `tr_bench${i}`, at, at, at);
    }
  });
  for (let i = 0; i < exportRows; i += 50_000) fill(i, Math.min(exportRows, i + 50_000));
  raw.pragma("wal_checkpoint(TRUNCATE)");
  raw.close();
  log(`${vendors} vendors (${eligible} eligible), ${exportRows} payout rows for the export`);

  const stripe = await startFakeStripe();
  const env = { STRIPE_SECRET_KEY: "sk_test_benchPayouts0123456789", STRIPE_API_BASE: stripe.url, STRIPE_MAX_RPS: String(rps) };
  let baseUrl: string;
  let pid: number;
  let stop: () => Promise<unknown>;
  let token: string;
  // What the server printed (from source only): shown when the run fails, to say why.
  let serverOutput: () => string = () => "";
  if (values.from === "source") {
    const s = await startSourceServer(`sqlite:${dbPath}`, { env });
    ({ url: baseUrl } = s);
    pid = s.child.pid!;
    stop = () => s.stop();
    serverOutput = () => s.output();
    token = await signInAdmin(baseUrl);
  } else {
    const s = await startBuiltServer(`sqlite:${dbPath}`, { readyTimeoutMs: 10 * 60_000, env });
    baseUrl = s.baseUrl;
    pid = s.pid;
    stop = () => s.stop();
    const res = await fetch(`${baseUrl}/api/auth/sign-in`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(BENCH_ADMIN) });
    token = ((await res.json()) as { token: string }).token;
  }
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };

  try {
    // 1. The run.
    const res = await fetch(`${baseUrl}/api/admin/financial/payouts/runs`, { method: "POST", headers, body: "{}" });
    if (res.status !== 201) throw new Error(`run: ${res.status} ${await res.text()}`);
    const runId = ((await res.json()) as { run: { id: string } }).run.id;
    const times: number[] = [];
    let seen = 0;
    let status = "queued";
    while (status === "queued" || status === "running") {
      await sleep(200);
      while (seen < stripe.transfers.length) {
        times.push(Date.now());
        seen++;
      }
      const r = await fetch(`${baseUrl}/api/admin/financial/payouts/runs/${runId}`, { headers });
      status = ((await r.json()) as { run: { status: string } }).run.status;
      if (times.length > 0 && times.length % 5000 < rps / 5) log(`run: ${stripe.transfers.length}/${eligible} transfers`);
    }
    const seconds = times.length > 1 ? (times.at(-1)! - times[0]!) / 1000 : 0;
    const achieved = seconds > 0 ? (times.length - 1) / seconds : 0;
    const run = { status, transfers: stripe.transfers.length, calls: stripe.transferCalls, eligible, configuredRps: rps, achievedRps: achieved, share: achieved / rps, seconds };
    log(`run ${status}: ${run.transfers} transfers in ${seconds.toFixed(1)} s = ${achieved.toFixed(1)}/s (${(run.share * 100).toFixed(1)} % of ${rps})`);

    // 2. The export.
    const rssBefore = peakRssMb(pid);
    const link = (await (await fetch(`${baseUrl}/api/admin/exports`, { method: "POST", headers, body: JSON.stringify({ kind: "payouts", filters: {} }) })).json()) as { url: string };
    const t0 = Date.now();
    const download = await fetch(`${baseUrl}${link.url}`);
    let lines = 0;
    let bytes = 0;
    const reader = download.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      for (const b of value) if (b === 10) lines++;
    }
    const exportSeconds = (Date.now() - t0) / 1000;
    const rssAfter = peakRssMb(pid);
    const csv = { rows: lines - 1, bytes, seconds: exportSeconds, rowsPerSecond: (lines - 1) / exportSeconds, peakRssBeforeMb: rssBefore, peakRssAfterMb: rssAfter };
    log(
      `export: ${csv.rows} rows, ${(bytes / 1e6).toFixed(1)} MB in ${exportSeconds.toFixed(1)} s = ${Math.round(csv.rowsPerSecond)} rows/s; peak RSS ${rssBefore?.toFixed(0)} → ${rssAfter?.toFixed(0)} MB`,
    );

    mkdirSync(RESULTS_DIR, { recursive: true });
    const out = values.out ?? resultFile("payouts", commitAtStart);
    writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), machine: describeMachine(), vendors, run, csv }, null, 2));
    log(`wrote ${out}`);
  } catch (err) {
    console.error(serverOutput().slice(-4000));
    throw err;
  } finally {
    await stop();
    await stripe.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
