import SQLite from "better-sqlite3";
import { openDatabase } from "../db/connect.ts";
import { migrateToLatest } from "../db/migrate.ts";
import { generateLargeDataset } from "../db/seed/generate.ts";
import { compareRollups } from "../ledger/recompute.ts";
import { type FakeStripeServer, startFakeStripe } from "./fake-stripe-server.ts";
import { type ServerProcess, signInAdmin, startServer } from "./server-process.ts";

export interface PayoutCrashResult {
  rounds: number;
  /** Vendors the run had to pay (active account, owed at least the minimum) when it started. */
  eligible: number;
  /** Transfers the fake Stripe made, and the calls it received (replays and 429s included). */
  transfers: number;
  transferCalls: number;
  /** Eligible vendors paid more than once, or never, or a wrong amount; others paid at all. */
  paidTwice: string[];
  notPaid: string[];
  wrongAmount: string[];
  paidUnexpectedly: string[];
  stuckProcessing: number;
  /** Eligible vendors whose balance is not zero after the run. */
  balancesLeft: number;
  runStatus: string;
  integrity: string;
  rollupDifferences: number;
  seconds: number;
}

const KEY = "sk_test_51FaultSuitePayoutRoundsKey00000000";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The payout fault round (docs/reliability.md): a payout run over `vendors` vendors against the
 * fake Stripe, the server killed with SIGKILL `rounds` times while it sends transfers, restarted
 * each time (the new process takes the run over once the dead one's lease has expired). At the end
 * every eligible vendor must have been paid exactly once, for exactly its balance, no payout may be
 * left in processing, the balances paid must be zero and the rollups equal a recomputation.
 */
export async function runPayoutCrashRounds(
  dbPath: string,
  options: { rounds: number; vendors?: number; rps?: number; log?: (line: string) => void; from?: "source" | "build"; finishTimeoutMs?: number },
): Promise<PayoutCrashResult> {
  const started = Date.now();
  const log = options.log ?? (() => undefined);
  const vendors = options.vendors ?? 3000;
  const rps = options.rps ?? 50;

  // A platform with sales and a payout history, written like the benchmark's data set.
  const setup = openDatabase({ kind: "sqlite", path: dbPath });
  let expected: Map<string, { destination: string; amount: number }>;
  try {
    await migrateToLatest(setup.db);
    await generateLargeDataset(setup, { vendors, products: vendors * 3, orders: vendors * 6, errorLogs: 0, days: 60, seed: 13 });
    const rows = await setup.db
      .selectFrom("payout_accounts")
      .select(["vendor_id", "stripe_account_id", "balance_cents"])
      .where("status", "=", "active")
      .where("balance_cents", ">=", 2500)
      .where("stripe_account_id", "is not", null)
      .execute();
    expected = new Map(rows.map((r) => [r.vendor_id, { destination: r.stripe_account_id!, amount: Number(r.balance_cents) }]));
    if (setup.sqlite) setup.sqlite.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    await setup.close();
  }
  log(`payouts: ${vendors} vendors generated, ${expected.size} eligible for the run, ${rps} transfers/s`);

  const fake: FakeStripeServer = await startFakeStripe();
  const env = { SEED_DEMO: "false", STRIPE_SECRET_KEY: KEY, STRIPE_API_BASE: fake.url, STRIPE_MAX_RPS: String(rps) };
  const from = options.from ?? "source";
  let server: ServerProcess | null = null;
  let runId = "";
  let runStatus = "unknown";
  try {
    server = await startServer(`sqlite:${dbPath}`, { env, from });
    const token = await signInAdmin(server.url);
    const res = await fetch(`${server.url}/api/admin/financial/payouts/runs`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: "{}",
    });
    if (res.status !== 201) throw new Error(`starting the run answered ${res.status}: ${await res.text()}`);
    runId = ((await res.json()) as { run: { id: string } }).run.id;

    for (let round = 1; round <= options.rounds; round++) {
      // Wait until this process is really sending (after a restart: once the lease expired), then a little more.
      const before = fake.transfers.length;
      const deadline = Date.now() + 90_000;
      while (fake.transfers.length === before && Date.now() < deadline) await sleep(100);
      if (fake.transfers.length >= expected.size) {
        log(`payouts round ${round}: the run already finished, no kill`);
        break;
      }
      await sleep(500 + Math.floor(Math.random() * 1500));
      await server.kill9();
      log(`payouts round ${round}: killed with ${fake.transfers.length}/${expected.size} transfers made (${fake.transferCalls} calls)`);
      server = await startServer(`sqlite:${dbPath}`, { env, from });
    }

    // Let the last process finish the run.
    const token2 = await signInAdmin(server.url);
    const deadline = Date.now() + (options.finishTimeoutMs ?? 10 * 60_000);
    for (;;) {
      const r = await fetch(`${server.url}/api/admin/financial/payouts/runs/${runId}`, { headers: { authorization: `Bearer ${token2}` } });
      runStatus = ((await r.json()) as { run?: { status: string } }).run?.status ?? `HTTP ${r.status}`;
      if (!["queued", "running"].includes(runStatus) || Date.now() > deadline) break;
      await sleep(500);
    }
    await server.stop();
    server = null;
  } finally {
    if (server) await server.kill9();
    await fake.close();
  }

  // Verify at the fake Stripe and in the database.
  const byDestination = new Map<string, number[]>();
  for (const t of fake.transfers) byDestination.set(t.destination, [...(byDestination.get(t.destination) ?? []), t.amount]);
  const paidTwice: string[] = [];
  const notPaid: string[] = [];
  const wrongAmount: string[] = [];
  const destinations = new Set<string>();
  for (const [vendorId, e] of expected) {
    destinations.add(e.destination);
    const got = byDestination.get(e.destination) ?? [];
    if (got.length === 0) notPaid.push(vendorId);
    else if (got.length > 1) paidTwice.push(vendorId);
    else if (got[0] !== e.amount) wrongAmount.push(vendorId);
  }
  const paidUnexpectedly = [...byDestination.keys()].filter((d) => !destinations.has(d));

  const raw = new SQLite(dbPath);
  const integrity = String(raw.pragma("integrity_check", { simple: true }));
  raw.close();
  const database = openDatabase({ kind: "sqlite", path: dbPath });
  try {
    const { db } = database;
    const stuck = await db.selectFrom("payouts").select("id").where("run_id", "=", runId).where("status", "=", "processing").execute();
    const left = expected.size
      ? await db
          .selectFrom("payout_accounts")
          .select("vendor_id")
          .where("vendor_id", "in", [...expected.keys()])
          .where("balance_cents", "<>", 0)
          .execute()
      : [];
    const differences = await compareRollups(db);
    return {
      rounds: options.rounds,
      eligible: expected.size,
      transfers: fake.transfers.length,
      transferCalls: fake.transferCalls,
      paidTwice,
      notPaid,
      wrongAmount,
      paidUnexpectedly,
      stuckProcessing: stuck.length,
      balancesLeft: left.length,
      runStatus,
      integrity,
      rollupDifferences: differences.length,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await database.close();
  }
}
