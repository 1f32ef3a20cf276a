import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { runCrashRounds } from "../../src/server/testing/crash-rounds.ts";
import { runPayoutCrashRounds } from "../../src/server/testing/payout-crash-rounds.ts";
import { runAnnouncementCrashRounds } from "../../src/server/testing/announcement-crash-rounds.ts";
import { runStorefrontCrashRounds } from "../../src/server/testing/storefront-crash-rounds.ts";
import { runWebhookCrashRounds } from "../../src/server/testing/webhook-crash-rounds.ts";
import { runRefundCrashRounds } from "../../src/server/testing/refund-crash-rounds.ts";
import { runServerToExit, signInAdmin, startServer } from "../../src/server/testing/server-process.ts";
import { pgRestart } from "./pg-restart.ts";
import { createTempPgDatabase } from "./pg-temp-database.ts";
import { ensureBuild } from "../ensure-build.ts";

/**
 * `npm run test:faults`: faults against the real server process, loopback only.
 *   1. FAULT_KILL_ROUNDS (20) kill -9 rounds during acknowledged writes
 *   2. disk full: the database on a small tmpfs (needs mount privileges), filled up mid-traffic
 *   3. database unreadable at start: a clear error and a non-zero exit
 *   4. PostgreSQL stopped for ~5 s and started again mid-traffic (scripts/reliability/pg-restart.ts),
 *      only when FAULTS_PG_URL (or DATABASE_URL) is a superuser URL of a LOCAL PostgreSQL server:
 *      it creates and drops its own database and stops the whole server, so never point it at a
 *      server others depend on. Stop/start commands: FAULTS_PG_STOP / FAULTS_PG_START
 *      (default `pg_ctlcluster 15 main stop|start`).
 *   5. FAULT_PAYOUT_ROUNDS (20) kill -9 rounds in the middle of a payout run over FAULT_PAYOUT_VENDORS
 *      (3000) vendors against the fake Stripe (src/server/testing/payout-crash-rounds.ts), mixed with
 *      unknown outcomes (Stripe answers 500 after making the transfer and keeps that answer under
 *      the key, answers 500 without making it, times out on every call after making it, never
 *      answers; FAULT_PAYOUT_SEED replays a mix): every eligible vendor paid exactly once, Stripe's
 *      transfers equal the ledger's paid out per account, no payout left in processing or unknown
 *      after reconciliation, balances zero, rollups exact.
 *   6. FAULT_ANNOUNCEMENT_ROUNDS (10) kill -9 rounds while an announcement is sent to
 *      FAULT_ANNOUNCEMENT_VENDORS (5000) artists over SMTP to a sink in this process
 *      (src/server/testing/announcement-crash-rounds.ts): none lost, nobody else mailed, the
 *      announcement sent with its counts right; repeats counted, at most one batch per kill
 *   7. FAULT_EVENTS_ROUNDS (20) kill -9 rounds while a storefront sends its events
 *      (src/server/testing/storefront-crash-rounds.ts), re-sending every batch it got no answer
 *      for: every event applied once (none lost, none twice), rollups equal to a recompute; on
 *      SQLite, and again on PostgreSQL (a throw-away database) when FAULTS_PG_URL is set as for 4
 *   8. FAULT_WEBHOOK_ROUNDS (20) kill -9 rounds while decisions go out as webhooks to a receiver that
 *      fails, answers too late and drops connections at random (src/server/testing/webhook-crash-rounds.ts;
 *      FAULT_WEBHOOK_SEED replays a mix): every event delivered at least once and verified, 0 lost,
 *      copies of an event already answered 2xx only after a crash (counted)
 *   9. FAULT_REFUND_ROUNDS (20) kill -9 rounds while operators refund FAULT_REFUND_ORDERS (250) storefront
 *      orders from the panel (whole orders and parts of lines) against the fake Stripe, which answers
 *      500 with or without making the refund, makes it and never answers, never answers at all, and
 *      fails some of its lists (src/server/testing/refund-crash-rounds.ts; FAULT_REFUND_SEED replays a
 *      mix); the scheduled settle then lists each payment's refunds: for every payment intent Stripe's
 *      refunds equal the ledger's, 0 refunded twice, 0 lost, none left pending or unknown, rollups
 *      exact; on SQLite, and again on PostgreSQL (a throw-away database) when FAULTS_PG_URL is set as for 4
 * FAULTS_ONLY=kill,disk,start,pg,payouts,announcements,events,webhooks,refunds runs a subset.
 */
const failures: string[] = [];
const log = (line: string) => console.log(`[faults] ${line}`);
const envNumber = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

/** Runs `rounds` on a database file in a new temporary folder, removed once they have finished. */
async function inTempDatabase<T>(prefix: string, rounds: (file: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const result = await rounds(join(dir, "admin.sqlite"));
  rmSync(dir, { recursive: true, force: true });
  return result;
}

async function killRounds(): Promise<void> {
  const rounds = envNumber("FAULT_KILL_ROUNDS", 20);
  const results = await inTempDatabase("hki-faults-", (file) => runCrashRounds(file, { rounds, log, from: "build" }));
  const acked = results.reduce((n, r) => n + r.acknowledged, 0);
  const lost = results.reduce((n, r) => n + r.missing.length, 0);
  const bad = results.filter((r) => r.integrity !== "ok" || r.rollupDifferences > 0).length;
  log(`kill -9: ${rounds} rounds, ${acked} acknowledged writes, ${lost} lost, ${bad} rounds with integrity/rollup problems`);
  if (lost || bad) failures.push("kill -9");
}

async function diskFull(): Promise<void> {
  const mountPoint = mkdtempSync(join(tmpdir(), "hki-tmpfs-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=8m", "tmpfs", mountPoint], { stdio: "pipe" });
  } catch (err) {
    log(`disk full: SKIPPED, cannot mount a tmpfs here (${String((err as { stderr?: Buffer }).stderr ?? err).trim()})`);
    rmSync(mountPoint, { recursive: true, force: true });
    return;
  }
  const dbPath = join(mountPoint, "admin.sqlite");
  const server = await startServer(`sqlite:${dbPath}`, { env: { SEED_DEMO: "false" }, from: "build" });
  try {
    const token = await signInAdmin(server.url);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    // Fill the disk, leaving a few kB.
    const filler = join(mountPoint, "filler");
    try {
      writeFileSync(filler, Buffer.alloc(8 * 1024 * 1024));
    } catch {
      /* ENOSPC: full, as intended */
    }
    const statuses: Record<number, number> = {};
    let readsOk = 0;
    for (let i = 0; i < 150; i++) {
      const w = await fetch(`${server.url}/api/admin/settings`, { method: "PUT", headers, body: JSON.stringify({ announcement_message: `full ${i} ${"x".repeat(150)}` }) });
      await w.text();
      statuses[w.status] = (statuses[w.status] ?? 0) + 1;
      const r = await fetch(`${server.url}/api/admin/settings`, { headers });
      await r.text();
      if (r.status === 200) readsOk += 1;
    }
    const logLine = /disk full|SQLITE_FULL|database or disk is full/i.test(server.output());
    log(`disk full: write statuses ${JSON.stringify(statuses)}, reads ok ${readsOk}/150, clear log line ${logLine}, process alive ${!server.exited()}`);
    const wrong = Object.keys(statuses).filter((s) => !["200", "503", "507"].includes(s));
    if (wrong.length || !statuses[507] || readsOk < 150 || !logLine || server.exited()) failures.push("disk full");
    rmSync(filler, { force: true });
    const after = await fetch(`${server.url}/api/admin/settings`, { method: "PUT", headers, body: JSON.stringify({ announcement_message: "space is back" }) });
    log(`disk full: after freeing space, write answers ${after.status}`);
    if (after.status !== 200) failures.push("disk full recovery");
  } finally {
    await server.stop();
  }
  const raw = new SQLite(dbPath);
  const integrity = raw.pragma("integrity_check", { simple: true });
  raw.close();
  log(`disk full: integrity after space returned: ${String(integrity)}`);
  if (integrity !== "ok") failures.push("disk full integrity");
  execFileSync("umount", [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
}

async function unreadableAtStart(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "hki-bad-db-"));
  const corrupt = join(dir, "corrupt.sqlite");
  writeFileSync(corrupt, Buffer.alloc(64 * 1024, 0x5a));
  const directory = join(dir, "is-a-directory.sqlite");
  mkdirSync(directory);
  for (const [label, path] of [
    ["corrupt file", corrupt],
    ["a directory instead of a file", directory],
  ] as const) {
    const { code, output } = await runServerToExit(`sqlite:${path}`, {}, { from: "build" });
    const line = output.trim().split("\n").filter(Boolean).pop() ?? "";
    log(`start with ${label}: exit ${code}, "${line.slice(0, 160)}"`);
    if (code === 0 || code === null || !/Failed to start/.test(output)) failures.push(`start with ${label}`);
  }
  rmSync(dir, { recursive: true, force: true });
}

async function pgRestartFault(): Promise<void> {
  const url = faultsPgUrl();
  if (!url) {
    log("pg restart: SKIPPED, set FAULTS_PG_URL to a superuser URL of a local PostgreSQL server");
    return;
  }
  const command = (name: string, fallback: string) => (process.env[name] ?? fallback).split(/\s+/).filter(Boolean);
  const found = await pgRestart({
    adminUrl: url,
    stopCommand: command("FAULTS_PG_STOP", "pg_ctlcluster 15 main stop"),
    startCommand: command("FAULTS_PG_START", "pg_ctlcluster 15 main start"),
    log,
  });
  failures.push(...found);
}

async function payoutRounds(): Promise<void> {
  const seed = process.env.FAULT_PAYOUT_SEED ? { seed: Number(process.env.FAULT_PAYOUT_SEED) } : {};
  const options = { rounds: envNumber("FAULT_PAYOUT_ROUNDS", 20), vendors: envNumber("FAULT_PAYOUT_VENDORS", 3000), rps: envNumber("FAULT_PAYOUT_RPS", 50), ...seed, log, from: "build" as const };
  const r = await inTempDatabase("hki-faults-payouts-", (file) => runPayoutCrashRounds(file, options));
  log(
    `payouts: ${r.rounds} kill -9 rounds, ${r.eligible} eligible vendors, ${r.transfers} transfers (${r.transferCalls} calls), ` +
      `paid twice ${r.paidTwice.length}, not paid ${r.notPaid.length}, wrong amount ${r.wrongAmount.length}, unexpected ${r.paidUnexpectedly.length}, ` +
      `stuck in processing ${r.stuckProcessing}, stuck unknown ${r.stuckUnknown}, ledger ≠ Stripe ${r.ledgerMismatch}, balances left ${r.balancesLeft}, ` +
      `faults injected ${JSON.stringify(r.faults)}, unknown settled: ${r.settledPaid} found paid, ${r.settledAbsent} confirmed absent (second run paid ${r.secondRunPaid}), ` +
      `reconciliation differences ${r.differences}, runs ${r.runStatus}/${r.secondRunStatus}, integrity ${r.integrity}, rollup differences ${r.rollupDifferences} (${r.seconds.toFixed(0)} s)`,
  );
  const bad =
    r.paidTwice.length +
      r.notPaid.length +
      r.wrongAmount.length +
      r.paidUnexpectedly.length +
      r.stuckProcessing +
      r.stuckUnknown +
      r.ledgerMismatch +
      r.balancesLeft +
      r.rollupDifferences +
      r.differences >
      0 ||
    r.secondRunPaid !== r.settledAbsent ||
    r.runStatus !== "completed" ||
    r.secondRunStatus !== "completed" ||
    r.integrity !== "ok";
  if (bad) failures.push("payout kill -9");
}

async function announcementRounds(): Promise<void> {
  const options = {
    rounds: envNumber("FAULT_ANNOUNCEMENT_ROUNDS", 10),
    vendors: envNumber("FAULT_ANNOUNCEMENT_VENDORS", 5000),
    perSecond: envNumber("FAULT_ANNOUNCEMENT_RATE", 200),
    log,
    from: "build" as const,
  };
  const r = await inTempDatabase("hki-faults-announcements-", (file) => runAnnouncementCrashRounds(file, options));
  log(
    `announcements: ${r.kills} kill -9 rounds while sending to ${r.recipients} artists, ${r.accepted} mails accepted (${r.distinct} distinct), ` +
      `lost ${r.lost}, unexpected ${r.unexpected}, duplicates ${r.duplicates} (at most ${r.maxDuplicatesPerKill} after one kill; batch ${r.batchSize}), ` +
      `sent again after a kill ${r.interrupted}, status ${r.status} ${JSON.stringify(r.counts)}, integrity ${r.integrity} (${r.seconds.toFixed(0)} s)`,
  );
  const bad =
    r.lost + r.unexpected > 0 ||
    r.maxDuplicatesPerKill > r.batchSize ||
    r.duplicates > r.interrupted ||
    r.status !== "sent" ||
    r.counts.sent !== r.recipients ||
    r.counts.pending + r.counts.failed > 0 ||
    r.integrity !== "ok";
  if (bad) failures.push("announcement kill -9");
}

/** A superuser URL of a LOCAL PostgreSQL server for the faults that need one (FAULTS_PG_URL, or DATABASE_URL when it is PostgreSQL). */
function faultsPgUrl(): string | undefined {
  return process.env.FAULTS_PG_URL ?? (process.env.DATABASE_URL?.startsWith("postgres") ? process.env.DATABASE_URL : undefined);
}

/** The storefront events' kill -9 rounds on SQLite, then on PostgreSQL when a server is given (its own throw-away database). */
async function eventRounds(): Promise<void> {
  await inTempDatabase("hki-faults-events-", (file) => eventRoundsOn("SQLite", `sqlite:${file}`));
  const pgUrl = faultsPgUrl();
  if (!pgUrl) {
    log("storefront events on PostgreSQL: SKIPPED, set FAULTS_PG_URL to a superuser URL of a local PostgreSQL server");
    return;
  }
  const temp = await createTempPgDatabase(pgUrl, "hki_faults_events");
  try {
    await eventRoundsOn("PostgreSQL", temp.url);
  } finally {
    await temp.drop();
  }
}

async function eventRoundsOn(label: string, databaseUrl: string): Promise<void> {
  const options = { rounds: envNumber("FAULT_EVENTS_ROUNDS", 20), events: envNumber("FAULT_EVENTS", 8000), batch: envNumber("FAULT_EVENTS_BATCH", 50), log, from: "build" as const };
  const r = await runStorefrontCrashRounds(databaseUrl, options);
  log(
    `storefront events (${label}): ${r.kills} kill -9 rounds while sending ${r.events} events in ${r.batches} batches (${r.resent} sends again), ` +
      `lost ${r.lost}, applied twice ${r.appliedTwice}, rejected ${r.rejected}, answered duplicate after a lost answer ${r.duplicates}, ` +
      `order rows ${r.orderRows.actual}/${r.orderRows.expected}, refunds ${r.refundRows.actual}/${r.refundRows.expected}, rollup differences ${r.rollupDifferences}, ` +
      `integrity ${r.integrity ?? "(PostgreSQL: not checked)"} (${r.seconds.toFixed(0)} s)`,
  );
  const bad =
    r.lost + r.appliedTwice + r.rejected + r.rollupDifferences > 0 ||
    r.orderRows.actual !== r.orderRows.expected ||
    r.refundRows.actual !== r.refundRows.expected ||
    (r.integrity !== null && r.integrity !== "ok") ||
    r.kills < options.rounds;
  if (bad) failures.push(`storefront events kill -9 (${label})`);
}

async function webhookRounds(): Promise<void> {
  const seed = process.env.FAULT_WEBHOOK_SEED ? { seed: Number(process.env.FAULT_WEBHOOK_SEED) } : {};
  const options = { rounds: envNumber("FAULT_WEBHOOK_ROUNDS", 20), ...seed, log, from: "build" as const };
  const r = await inTempDatabase("hki-faults-webhooks-", (file) => runWebhookCrashRounds(file, options));
  log(
    `webhooks: ${r.kills} kill -9 rounds, ${r.acknowledged} decisions acknowledged, ${r.events} events, ${r.received} received and verified, ` +
      `lost ${r.lost} (decisions without their event ${r.lostDecisions}), unverified ${r.unverified}, copies ${r.duplicates} (of an event already answered 2xx: ${r.duplicatesAfterSuccess}), ` +
      `receiver answers ${JSON.stringify(r.answers)}, not delivered at the end ${r.notDelivered}, integrity ${r.integrity} (${r.seconds.toFixed(0)} s)`,
  );
  // A copy of an event the receiver had answered 2xx in time can only come from a process killed before it recorded the answer.
  const bad = r.lost + r.lostDecisions + r.unverified + r.notDelivered > 0 || (r.duplicatesAfterSuccess > 0 && r.kills === 0) || r.integrity !== "ok" || r.kills < options.rounds;
  if (bad) failures.push("webhooks kill -9");
}

/** The refunds' kill -9 rounds on SQLite, then on PostgreSQL when a server is given (its own throw-away database). */
async function refundRounds(): Promise<void> {
  await inTempDatabase("hki-faults-refunds-", (file) => refundRoundsOn("SQLite", `sqlite:${file}`));
  const pgUrl = faultsPgUrl();
  if (!pgUrl) {
    log("refunds on PostgreSQL: SKIPPED, set FAULTS_PG_URL to a superuser URL of a local PostgreSQL server");
    return;
  }
  const temp = await createTempPgDatabase(pgUrl, "hki_faults_refunds");
  try {
    await refundRoundsOn("PostgreSQL", temp.url);
  } finally {
    await temp.drop();
  }
}

async function refundRoundsOn(label: string, databaseUrl: string): Promise<void> {
  const seed = process.env.FAULT_REFUND_SEED ? { seed: Number(process.env.FAULT_REFUND_SEED) } : {};
  const options = { rounds: envNumber("FAULT_REFUND_ROUNDS", 20), orders: envNumber("FAULT_REFUND_ORDERS", 250), ...seed, log, from: "build" as const };
  const r = await runRefundCrashRounds(databaseUrl, options);
  log(
    `refunds (${label}): ${r.kills} kill -9 rounds while refunding ${r.orders} orders, ${r.requests} refund requests (${r.resent} whole-order asks sent again), ` +
      `answers ${JSON.stringify(r.answers)}, faults injected ${JSON.stringify(r.faults)}, ${r.stripeRefunds} refunds at Stripe ($${(r.refundedCents / 100).toFixed(2)}), ` +
      `settled by the scheduled settle: ${r.settledSucceeded} found at Stripe, ${r.settledFailed} confirmed absent; ` +
      `payment intents with Stripe ≠ ledger ${r.ledgerMismatch}, refunded twice ${r.refundedTwice}, lost ${r.lost}, left pending or unknown ${r.unsettled}, cents held ${r.heldCents}, ` +
      `rollup differences ${r.rollupDifferences}, integrity ${r.integrity ?? "(PostgreSQL: not checked)"} (${r.seconds.toFixed(0)} s)`,
  );
  const bad =
    r.ledgerMismatch + r.refundedTwice + r.lost + r.unsettled + r.heldCents + r.rollupDifferences + r.answers.other > 0 || (r.integrity !== null && r.integrity !== "ok") || r.kills < options.rounds;
  if (bad) failures.push(`refunds kill -9 (${label})`);
}

async function main(): Promise<void> {
  const only = process.env.FAULTS_ONLY?.split(",").map((s) => s.trim());
  const run = (name: string) => !only || only.includes(name);
  // The faults hit the production bundle (`npm start` runs it), built here when missing or stale.
  await ensureBuild();
  if (run("start")) await unreadableAtStart();
  if (run("disk")) await diskFull();
  if (run("kill")) await killRounds();
  if (run("pg")) await pgRestartFault();
  if (run("payouts")) await payoutRounds();
  if (run("announcements")) await announcementRounds();
  if (run("events")) await eventRounds();
  if (run("webhooks")) await webhookRounds();
  if (run("refunds")) await refundRounds();
  log(failures.length ? `FAILED: ${failures.join(", ")}` : "all faults survived");
  process.exit(failures.length ? 1 : 0);
}

void main();
