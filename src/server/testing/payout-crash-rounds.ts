import SQLite from "better-sqlite3";
import { openDatabase } from "../platform/db/connect.ts";
import { migrateToLatest } from "../platform/db/migrate.ts";
import { generateLargeDataset } from "../demo-data/generate.ts";
import { compareRollups } from "../domain/ledger/recompute.ts";
import { type FakeStripeServer, type FakeTransferFault, startFakeStripe } from "./fake-stripe-server.ts";
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
  /** Payouts still `unknown` once reconciliation has had its window (must be 0). */
  stuckUnknown: number;
  /** Accounts whose transfers at the fake Stripe do not sum to the ledger's paid out. */
  ledgerMismatch: number;
  /** Faults the fake Stripe injected into the first run: 500 after making the transfer, 500 without, timeouts after making it, no answer without making it. */
  faults: { fail500AfterCreate: number; fail500: number; timeoutAfterCreate: number; hang: number };
  /** Unknown outcomes settled by listing Stripe's transfers: found (paid) and confirmed absent (owed again, paid by the second run). */
  settledPaid: number;
  settledAbsent: number;
  /** Payouts the second run paid (the ones confirmed absent). */
  secondRunPaid: number;
  /** Open differences the daily reconciliation recorded. */
  differences: number;
  /** Eligible vendors whose balance is not zero after the run. */
  balancesLeft: number;
  runStatus: string;
  secondRunStatus: string;
  integrity: string;
  rollupDifferences: number;
  seconds: number;
}

const KEY = "sk_test_51FaultSuitePayoutRoundsKey00000000";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A small deterministic generator (mulberry32), so a round's faults can be replayed from its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The payout fault round (docs/reliability.md): a payout run over `vendors` vendors against the
 * fake Stripe, the server killed with SIGKILL `rounds` times while it sends transfers, restarted
 * each time (the new process takes the run over once the dead one's lease has expired). Mixed in
 * (`unknownOutcomes`, on by default), outcomes Stripe never settles by itself: for some new
 * transfer requests Stripe makes the transfer and answers 500 (kept under the key: every replay
 * answers 500 too), answers 500 without making it, and for a few payouts times out on every call
 * (after making the transfer) or never answers (without making it). Those payouts become unknown
 * and are settled by listing the run's transfers: found → paid, confirmed absent after the window
 * → owed again, paid by a second run. At the end every eligible vendor must have been paid exactly
 * once, for exactly its balance, Stripe's transfers must equal the ledger's paid out per account,
 * no payout may be left in processing or unknown, the balances paid must be zero and the rollups
 * equal a recomputation.
 */
export async function runPayoutCrashRounds(
  dbPath: string,
  options: {
    rounds: number;
    vendors?: number;
    rps?: number;
    log?: (line: string) => void;
    from?: "source" | "build";
    finishTimeoutMs?: number;
    /** Inject unknown outcomes into the first run (default true). */
    unknownOutcomes?: boolean;
    /** PAYOUT_UNKNOWN_WINDOW_SECONDS of the server (default 10). */
    unknownWindowSeconds?: number;
    seed?: number;
  },
): Promise<PayoutCrashResult> {
  const started = Date.now();
  const log = options.log ?? (() => undefined);
  const vendors = options.vendors ?? 3000;
  const rps = options.rps ?? 50;
  const windowSeconds = options.unknownWindowSeconds ?? 10;
  const seed = options.seed ?? Date.now() % 100_000;

  // A platform with sales and a payout history, written like the benchmark's data set.
  const setup = openDatabase({ kind: "sqlite", path: dbPath });
  let expected: Map<string, { destination: string; amount: number }>;
  /** What the ledger had paid out to each account before (the generated history, not at the fake Stripe). */
  let rows0: Array<{ stripe_account_id: string | null; paid_out_cents: number }>;
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
    rows0 = (await setup.db.selectFrom("payout_accounts").select(["stripe_account_id", "paid_out_cents"]).where("stripe_account_id", "is not", null).execute()).map((r) => ({
      stripe_account_id: r.stripe_account_id,
      paid_out_cents: Number(r.paid_out_cents),
    }));
    if (setup.sqlite) setup.sqlite.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    await setup.close();
  }
  log(`payouts: ${vendors} vendors generated, ${expected.size} eligible for the run, ${rps} transfers/s`);

  const fake: FakeStripeServer = await startFakeStripe();
  const env = { SEED_DEMO: "false", STRIPE_SECRET_KEY: KEY, STRIPE_API_BASE: fake.url, STRIPE_MAX_RPS: String(rps), PAYOUT_UNKNOWN_WINDOW_SECONDS: String(windowSeconds) };
  const from = options.from ?? "source";
  let server: ServerProcess | null = null;
  let runId = "";
  let runStatus = "not started";
  let secondRunStatus = "not started";
  let secondRunPaid = 0;
  const faults = { fail500AfterCreate: 0, fail500: 0, timeoutAfterCreate: 0, hang: 0 };
  if (options.unknownOutcomes ?? true) {
    // Faults only for the first run's requests. A payout picked for a persistent fault keeps it on
    // every call of its key (replays included), across kills: its outcome stays unknown.
    const rand = random(seed);
    const persistent = new Map<string, FakeTransferFault>();
    fake.transferFault = ({ transferGroup, idempotencyKey, replay }) => {
      if (!runId || transferGroup !== runId || !idempotencyKey) return null;
      const kept = persistent.get(idempotencyKey);
      if (kept) return kept;
      if (replay) return null;
      const r = rand();
      let fault: FakeTransferFault | null = null;
      if (r < 0.01) fault = "500-after-create";
      else if (r < 0.015) fault = "500";
      else if (r < 0.0165 && faults.timeoutAfterCreate < 3) fault = "timeout-after-create";
      else if (r < 0.018 && faults.hang < 2) fault = "hang";
      if (fault === "500-after-create") faults.fail500AfterCreate += 1;
      if (fault === "500") faults.fail500 += 1;
      if (fault === "timeout-after-create" || fault === "hang") {
        persistent.set(idempotencyKey, fault);
        if (fault === "hang") faults.hang += 1;
        else faults.timeoutAfterCreate += 1;
      }
      return fault;
    };
  }
  log(`payouts: unknown outcomes ${(options.unknownOutcomes ?? true) ? `on (seed ${seed}, window ${windowSeconds} s)` : "off"}`);
  const runState = async (url: string, token: string, id: string) => {
    const r = await fetch(`${url}/api/admin/financial/payouts/runs/${id}`, { headers: { authorization: `Bearer ${token}` } });
    return ((await r.json()) as { run?: { status: string; unknown: number; done: number } }).run ?? null;
  };
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
      // (Calls, not transfers: a payout whose calls time out makes no new transfer but is still being sent.)
      const before = fake.transferCalls;
      const deadline = Date.now() + 90_000;
      while (fake.transferCalls === before && Date.now() < deadline) await sleep(100);
      if (fake.transfers.length >= expected.size || fake.transferCalls === before) {
        log(`payouts round ${round}: the run already finished sending, no kill`);
        break;
      }
      await sleep(500 + Math.floor(Math.random() * 1500));
      await server.kill9();
      log(`payouts round ${round}: killed with ${fake.transfers.length}/${expected.size} transfers made (${fake.transferCalls} calls)`);
      server = await startServer(`sqlite:${dbPath}`, { env, from });
    }

    // Let the last process finish the run, and then settle its unknown outcomes (the run is
    // `unresolved` until the scheduled check has listed Stripe's transfers after the window).
    const token2 = await signInAdmin(server.url);
    const deadline = Date.now() + (options.finishTimeoutMs ?? 10 * 60_000);
    let unresolvedLogged = false;
    for (;;) {
      const run = await runState(server.url, token2, runId);
      runStatus = run?.status ?? "missing";
      if (runStatus === "unresolved" && !unresolvedLogged) {
        unresolvedLogged = true;
        log(`payouts: run ended unresolved with ${run?.unknown} unknown outcomes; waiting for the check with Stripe`);
      }
      if (!["queued", "running", "unresolved"].includes(runStatus) || Date.now() > deadline) break;
      await sleep(500);
    }
    log(`payouts: first run ${runStatus}`);

    // A second run pays what Stripe confirmed it never sent (owed again), and nobody else.
    const res2 = await fetch(`${server.url}/api/admin/financial/payouts/runs`, {
      method: "POST",
      headers: { authorization: `Bearer ${token2}`, "content-type": "application/json" },
      body: "{}",
    });
    if (res2.status !== 201) throw new Error(`starting the second run answered ${res2.status}: ${await res2.text()}`);
    const secondId = ((await res2.json()) as { run: { id: string } }).run.id;
    for (;;) {
      const run = await runState(server.url, token2, secondId);
      secondRunStatus = run?.status ?? "missing";
      secondRunPaid = run?.done ?? 0;
      if (!["queued", "running", "unresolved"].includes(secondRunStatus) || Date.now() > deadline) break;
      await sleep(500);
    }
    log(`payouts: second run ${secondRunStatus}, ${secondRunPaid} paid`);
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
    const stuck = await db.selectFrom("payouts").select("id").where("status", "=", "processing").execute();
    const stuckUnknown = await db.selectFrom("payouts").select("id").where("status", "=", "unknown").execute();
    const accounts = await db.selectFrom("payout_accounts").select(["stripe_account_id", "paid_out_cents"]).where("stripe_account_id", "is not", null).execute();
    const paidOutBefore = new Map(rows0.map((r) => [r.stripe_account_id, r.paid_out_cents]));
    const ledgerMismatch = accounts.filter((a) => fake.paidTo(a.stripe_account_id!) !== Number(a.paid_out_cents) - (paidOutBefore.get(a.stripe_account_id) ?? 0)).length;
    const settled = await db.selectFrom("audit_log").select("details").where("action", "in", ["payout.settle", "payout.check"]).execute();
    const outcomes = settled.map((s) => (JSON.parse(s.details) as { outcome?: string }).outcome);
    const open = await db.selectFrom("stripe_reconciliation_differences").select("id").where("open", "=", 1).execute();
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
      stuckUnknown: stuckUnknown.length,
      ledgerMismatch,
      faults,
      settledPaid: outcomes.filter((o) => o === "paid").length,
      settledAbsent: outcomes.filter((o) => o === "owed_again").length,
      secondRunPaid,
      differences: open.length,
      balancesLeft: left.length,
      runStatus,
      secondRunStatus,
      integrity,
      rollupDifferences: differences.length,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await database.close();
  }
}
