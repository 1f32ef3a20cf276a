import SQLite from "better-sqlite3";
import { parseDatabaseUrl } from "../platform/config/config.ts";
import { systemClock } from "../platform/clock.ts";
import { openDatabase } from "../platform/db/connect.ts";
import { migrateToLatest } from "../platform/db/migrate.ts";
import { compareRollups } from "../domain/ledger/recompute.ts";
import { type FakeRefundFault, type FakeStripeServer, startFakeStripe } from "./fake-stripe-server.ts";
import { type FixtureArtist, makeArtist, makePaidOrder } from "./refund-fixtures.ts";
import { type ServerProcess, signInAdmin, startServer } from "./server-process.ts";

export interface RefundCrashResult {
  rounds: number;
  /** Kills that hit the server while refunds were being asked. */
  kills: number;
  orders: number;
  /** Refund requests sent (asks sent again after no answer included), and how they were answered. */
  requests: number;
  answers: { succeeded: number; unknown: number; pending: number; failed: number; refused409: number; noAnswer: number; other: number };
  /** Whole-order asks sent again because the server died under them (an operator clicking again). */
  resent: number;
  /** Faults the fake Stripe injected into refund requests, and list requests it failed. */
  faults: { fail500: number; fail500AfterCreate: number; timeoutAfterCreate: number; hang: number; listFailures: number };
  /** Refunds Stripe made, and the money they gave back (cents). */
  stripeRefunds: number;
  refundedCents: number;
  /** Payment intents whose refunds at Stripe do not add up to the ledger's (must be 0). */
  ledgerMismatch: number;
  /** Panel refunds Stripe made more than once, lines given back more than was paid, payments refunded beyond the charge (must be 0). */
  refundedTwice: number;
  /** Refunds Stripe made that the ledger does not record as succeeded with that id, or the reverse (must be 0). */
  lost: number;
  /** Panel refunds left pending or unknown, and cents still held on lines, once the settle has had its time (must be 0). */
  unsettled: number;
  heldCents: number;
  /** Refunds the scheduled settle decided after the kills: found at Stripe, failed (none there past the window). */
  settledSucceeded: number;
  settledFailed: number;
  rollupDifferences: number;
  /** SQLite's integrity_check ("ok"); null on PostgreSQL. */
  integrity: string | null;
  seconds: number;
}

const KEY = "sk_test_51FaultSuiteRefundRoundsKey000000";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A small deterministic generator (mulberry32), so a round's asks and faults can be replayed from its seed. */
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

interface Ask {
  /** Any line of the storefront order (the endpoint's `{id}`). */
  lineId: string;
  /** The lines and cents asked; absent: the whole order (all it has left). */
  lines?: Array<{ orderId: string; amountCents: number }>;
}

/**
 * The refund fault round (docs/reliability.md "Refunds and disputes"): storefront orders paid
 * through Stripe payment intents, refunded from the panel (whole orders and parts of lines, by
 * several operators at once) against the fake Stripe, which answers some requests with a 500
 * (with or without making the refund), makes the refund and never answers, or never answers at
 * all, and fails some list requests; the server is killed with SIGKILL `rounds` times meanwhile
 * and restarted. A whole-order ask the server died under is sent again (a new request: the line's
 * reservation decides what is left). Nothing asks Stripe to refund again: once the asks are done
 * the last server's scheduled settle (`refunds.settle`) lists each payment's refunds past the
 * window. At the end, for every payment intent the fake Stripe's refunds must equal the ledger's,
 * no panel refund made twice at Stripe and no line given back more than was paid, no refund lost
 * (made at Stripe and not recorded, or recorded and not made), none left pending or unknown, no
 * cents held, and every rollup equal to a recompute. `databaseUrl` is a DATABASE_URL of an empty
 * database (`sqlite:<file>` or PostgreSQL).
 */
export async function runRefundCrashRounds(
  databaseUrl: string,
  options: {
    rounds: number;
    orders?: number;
    /** Operators asking at once (default 3). */
    senders?: number;
    /** PAYOUT_UNKNOWN_WINDOW_SECONDS of the server: the settle's window and period (default 10). */
    windowSeconds?: number;
    seed?: number;
    log?: (line: string) => void;
    from?: "source" | "build";
    settleTimeoutMs?: number;
  },
): Promise<RefundCrashResult> {
  const started = Date.now();
  const log = options.log ?? (() => undefined);
  const orderCount = options.orders ?? 250;
  const windowSeconds = options.windowSeconds ?? 10;
  const seed = options.seed ?? Date.now() % 100_000;
  const rand = random(seed);
  const database = parseDatabaseUrl(databaseUrl);

  // Artists and their storefront orders, each paid through its own payment intent (pi_<order>).
  const setup = openDatabase(database);
  const orders: Array<{ paymentIntent: string; charged: number; lines: Array<{ id: string; gross: number }> }> = [];
  try {
    await migrateToLatest(setup.db);
    const artists: FixtureArtist[] = [];
    for (let i = 0; i < 6; i++) artists.push(await makeArtist(setup.db, systemClock, `Fault Artist ${i + 1}`));
    for (let o = 0; o < orderCount; o++) {
      const lineCount = 1 + Math.floor(rand() * 3);
      const grosses = Array.from({ length: lineCount }, () => 500 + Math.floor(rand() * 19_500));
      const made = await makePaidOrder(
        setup.db,
        systemClock,
        `ord_fault_${o + 1}`,
        grosses.map((g, i) => ({ artist: artists[(o + i) % artists.length]!, grossCents: g })),
      );
      orders.push({ paymentIntent: made[0]!.payment_intent_id!, charged: grosses.reduce((s, g) => s + g, 0), lines: made.map((m) => ({ id: m.id, gross: m.gross_cents })) });
    }
    if (setup.sqlite) setup.sqlite.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    await setup.close();
  }

  // One to three asks per order, shuffled: whole orders, and parts of lines (sometimes more than is left: a 409).
  const asks: Ask[] = [];
  for (const o of orders) {
    const count = 1 + Math.floor(rand() * 3);
    for (let i = 0; i < count; i++) {
      const line = o.lines[Math.floor(rand() * o.lines.length)]!;
      if (rand() < 0.3) asks.push({ lineId: line.id });
      else asks.push({ lineId: line.id, lines: [{ orderId: line.id, amountCents: Math.max(1, Math.floor((line.gross * (1 + Math.floor(rand() * 6))) / 10)) }] });
    }
  }
  for (let i = asks.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [asks[i], asks[j]] = [asks[j]!, asks[i]!];
  }
  log(`refunds: ${orders.length} orders (${orders.reduce((n, o) => n + o.lines.length, 0)} lines), ${asks.length} refund asks, seed ${seed}, window ${windowSeconds} s`);

  const fake: FakeStripeServer = await startFakeStripe();
  for (const o of orders) fake.paymentIntents.set(o.paymentIntent, o.charged);
  const faults = { fail500: 0, fail500AfterCreate: 0, timeoutAfterCreate: 0, hang: 0, listFailures: 0 };
  let sending = true;
  fake.refundFault = ({ replay }) => {
    if (!sending || replay) return null;
    const r = rand();
    let fault: FakeRefundFault | null = null;
    if (r < 0.06) fault = "500";
    else if (r < 0.12) fault = "500-after-create";
    else if (r < 0.135 && faults.timeoutAfterCreate < 4) fault = "timeout-after-create";
    else if (r < 0.15 && faults.hang < 4) fault = "hang";
    if (fault === "500") faults.fail500 += 1;
    if (fault === "500-after-create") faults.fail500AfterCreate += 1;
    if (fault === "timeout-after-create") faults.timeoutAfterCreate += 1;
    if (fault === "hang") faults.hang += 1;
    // Now and then the settle at once finds Stripe's list down too: the refund stays unknown for the scheduled settle.
    if (fault !== null && rand() < 0.3) {
      fake.refundListFailNext += 1;
      faults.listFailures += 1;
    }
    return fault;
  };

  const env = { SEED_DEMO: "false", STRIPE_SECRET_KEY: KEY, STRIPE_API_BASE: fake.url, PAYOUT_UNKNOWN_WINDOW_SECONDS: String(windowSeconds) };
  const from = options.from ?? "source";
  let server: ServerProcess = await startServer(databaseUrl, { env, from });
  // Sessions live in the database: the token outlives every restart.
  const token = await signInAdmin(server.url);
  const answers = { succeeded: 0, unknown: 0, pending: 0, failed: 0, refused409: 0, noAnswer: 0, other: 0 };
  let requests = 0;
  let resent = 0;
  let kills = 0;
  let done = 0;

  const killer = (async () => {
    for (let round = 1; round <= options.rounds && sending; round++) {
      await sleep(400 + Math.floor(Math.random() * 1200));
      if (!sending) break;
      await server.kill9();
      kills++;
      log(`refunds round ${round}: killed after ${done}/${asks.length} asks, ${fake.refunds.length} refunds made at Stripe (${fake.refundCalls} calls)`);
      server = await startServer(databaseUrl, { env, from });
    }
  })();

  /** One refund request: answered, died under (no answer: the server may have acted), or never reached a server (down: nothing was done). */
  const send = async (ask: Ask): Promise<"answered" | "no-answer" | "not-reached"> => {
    try {
      const res = await fetch(`${server.url}/api/admin/orders/${ask.lineId}/refunds`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ ...(ask.lines ? { lines: ask.lines } : {}), reason: "Fault round" }),
        signal: AbortSignal.timeout(40_000),
      });
      requests++;
      const text = await res.text();
      if (res.status === 201) {
        const status = (JSON.parse(text) as { refund: { status: keyof typeof answers } }).refund.status;
        answers[status] += 1;
      } else if (res.status === 409) answers.refused409 += 1;
      else if (res.status >= 500) {
        // The server's own 5xx while it was dying: no answer about the refund.
        answers.noAnswer += 1;
        return "no-answer";
      } else {
        answers.other += 1;
        log(`refunds: an ask answered ${res.status}: ${text.slice(0, 200)}`);
      }
      return "answered";
    } catch (err) {
      if ((err as { cause?: { code?: string } }).cause?.code === "ECONNREFUSED") return "not-reached";
      requests++;
      answers.noAnswer += 1;
      return "no-answer";
    }
  };

  const queue = [...asks];
  const sender = async () => {
    for (let ask = queue.shift(); ask; ask = queue.shift()) {
      let outcome = await send(ask);
      // The server is restarting: the same ask once it is back (the request never reached it).
      while (outcome === "not-reached") {
        await sleep(200);
        outcome = await send(ask);
      }
      if (outcome === "no-answer" && !ask.lines) {
        // The operator asks for the whole order again once the panel is back.
        resent++;
        do {
          await sleep(500);
          outcome = await send(ask);
        } while (outcome === "not-reached");
      }
      done++;
      await sleep(150 + Math.floor(Math.random() * 150));
    }
  };
  try {
    await Promise.all(Array.from({ length: options.senders ?? 3 }, () => sender()));
  } finally {
    sending = false;
    await killer;
  }
  log(`refunds: asks done after ${kills} kills; ${fake.refunds.length} refunds at Stripe; waiting for the scheduled settle`);

  // The last server settles what is left (pending after a kill, unknown after a fault) by listing at Stripe.
  const watch = openDatabase(database);
  const deadline = Date.now() + (options.settleTimeoutMs ?? 180_000);
  try {
    for (;;) {
      const open = await watch.db.selectFrom("refunds").select("id").where("status", "in", ["pending", "unknown"]).execute();
      if (open.length === 0 || Date.now() > deadline) break;
      await sleep(1_000);
    }
  } finally {
    await watch.close();
  }
  await server.stop();
  await fake.close();

  // Verify: Stripe's refunds against the ledger, per payment intent and per refund.
  const check = openDatabase(database);
  try {
    const { db } = check;
    const panel = (await db.selectFrom("refunds").select(["id", "status", "stripe_refund_id", "payment_intent_id"]).execute()).map((r) => ({ ...r }));
    const ledger = (await db.selectFrom("order_refunds").select(["order_id", "external_refund_id", "amount_cents", "panel_refund_id"]).execute()).map((r) => ({
      ...r,
      amount_cents: Number(r.amount_cents),
    }));
    const lineRows = await db.selectFrom("orders").select(["id", "payment_intent_id", "gross_cents", "refunded_cents", "refund_reserved_cents"]).execute();
    const piOfLine = new Map(lineRows.map((l) => [l.id, l.payment_intent_id]));

    const ledgerByPi = new Map<string, number>();
    for (const r of ledger) {
      const pi = piOfLine.get(r.order_id) ?? "";
      ledgerByPi.set(pi, (ledgerByPi.get(pi) ?? 0) + r.amount_cents);
    }
    const ledgerMismatch = orders.filter((o) => fake.refundedOf(o.paymentIntent) !== (ledgerByPi.get(o.paymentIntent) ?? 0)).length;

    const byPanelId = new Map<string, number>();
    for (const r of fake.refunds) byPanelId.set(r.metadata.refund_id ?? "", (byPanelId.get(r.metadata.refund_id ?? "") ?? 0) + 1);
    const madeTwice = [...byPanelId.values()].filter((n) => n > 1).length;
    const recordedTwice = new Set(ledger.map((r) => `${r.order_id}/${r.external_refund_id}`)).size !== ledger.length ? 1 : 0;
    const beyondLine = lineRows.filter((l) => Number(l.gross_cents) < 0).length;
    const beyondCharge = orders.filter((o) => fake.refundedOf(o.paymentIntent) > o.charged).length;
    const refundedTwice = madeTwice + recordedTwice + beyondLine + beyondCharge;

    const succeeded = new Map(panel.filter((p) => p.status === "succeeded").map((p) => [p.id, p.stripe_refund_id]));
    const madeNotRecorded = fake.refunds.filter((r) => r.status === "succeeded" && succeeded.get(r.metadata.refund_id ?? "") !== r.id).length;
    const stripeIds = new Set(fake.refunds.filter((r) => r.status === "succeeded").map((r) => r.id));
    const recordedNotMade = [...succeeded.values()].filter((id) => id === null || !stripeIds.has(id)).length;

    const settles = await db.selectFrom("audit_log").select("details").where("action", "=", "refund.settle").execute();
    const outcomes = settles.map((s) => (JSON.parse(s.details) as { outcome?: string }).outcome);
    const rollupDifferences = (await compareRollups(db)).length;
    let integrity: string | null = null;
    if (database.kind === "sqlite") {
      const raw = new SQLite(database.path);
      integrity = String(raw.pragma("integrity_check", { simple: true }));
      raw.close();
    }
    return {
      rounds: options.rounds,
      kills,
      orders: orders.length,
      requests,
      answers,
      resent,
      faults,
      stripeRefunds: fake.refunds.length,
      refundedCents: fake.refunds.filter((r) => r.status !== "failed").reduce((s, r) => s + r.amount, 0),
      ledgerMismatch,
      refundedTwice,
      lost: madeNotRecorded + recordedNotMade,
      unsettled: panel.filter((p) => p.status === "pending" || p.status === "unknown").length,
      heldCents: lineRows.reduce((s, l) => s + Number(l.refund_reserved_cents), 0),
      settledSucceeded: outcomes.filter((o) => o === "succeeded").length,
      settledFailed: outcomes.filter((o) => o === "failed").length,
      rollupDifferences,
      integrity,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await check.close();
  }
}
