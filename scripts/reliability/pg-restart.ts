import { execFileSync } from "node:child_process";
import pg from "pg";
import { signInAdmin, startServer } from "../../src/server/testing/server-process.ts";
import { createTempPgDatabase } from "./pg-temp-database.ts";

/**
 * PostgreSQL stopped for ~5 s and started again under a read/write stream against the real server
 * process (its own throw-away database on the local PostgreSQL server).
 *
 * Passes when: the server process never exits; every answer is 200 or 503 (never 500, never a
 * dropped connection); non-200 answers only for requests that overlap the outage (from the stop
 * command to 5 s after the database accepts connections again); the first request started after the
 * database is back succeeds within 5 s, and every request started later than that succeeds; every
 * acknowledged write is in the database afterwards.
 */
export interface PgRestartOptions {
  /** A superuser URL of the PostgreSQL server (used to create and drop the test database). */
  adminUrl: string;
  /** argv that stops / starts that server, e.g. ["pg_ctlcluster", "15", "main", "stop"]. */
  stopCommand: string[];
  startCommand: string[];
  outageMs?: number;
  workers?: number;
  log: (line: string) => void;
}

interface Sample {
  start: number;
  end: number;
  kind: "read" | "write";
  status: number | string;
  retryAfter: string | null;
}

const RECOVERY_MS = 5000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Returns the failures found (empty: the fault was survived). */
export async function pgRestart(options: PgRestartOptions): Promise<string[]> {
  const { log } = options;
  const failures: string[] = [];
  const host = new URL(options.adminUrl).hostname;
  if (!["127.0.0.1", "localhost", "::1"].includes(host)) return [`pg restart: refusing to stop a non-local PostgreSQL server (${host})`];

  const temp = await createTempPgDatabase(options.adminUrl, "hki_faults");
  const dbUrl = temp.url;

  const server = await startServer(dbUrl, { env: { SEED_DEMO: "true" }, timeoutMs: 180_000, from: "build" });
  const samples: Sample[] = [];
  const acked: string[] = [];
  let stopIssued = 0;
  let back = 0;
  try {
    const token = await signInAdmin(server.url);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    let running = true;
    let n = 0;
    const worker = async (slot: number) => {
      while (running) {
        const write = (n++ + slot) % 3 === 0;
        const value = `pg-restart-${slot}-${n}`;
        const start = Date.now();
        let status: number | string;
        let retryAfter: string | null = null;
        try {
          const res = write
            ? await fetch(`${server.url}/api/admin/settings`, { method: "PUT", headers, body: JSON.stringify({ announcement_message: value }), signal: AbortSignal.timeout(20_000) })
            : await fetch(`${server.url}/api/admin/${slot % 2 ? "settings" : "vendors?limit=20"}`, { headers, signal: AbortSignal.timeout(20_000) });
          await res.arrayBuffer();
          status = res.status;
          retryAfter = res.headers.get("retry-after");
          if (write && status === 200) acked.push(value);
        } catch (err) {
          status = `fetch failed: ${(err as Error).message}`;
        }
        samples.push({ start, end: Date.now(), kind: write ? "write" : "read", status, retryAfter });
        await sleep(20);
      }
    };
    const workers = Array.from({ length: options.workers ?? 8 }, (_, slot) => worker(slot));
    await sleep(3000);

    stopIssued = Date.now();
    execFileSync(options.stopCommand[0]!, options.stopCommand.slice(1), { stdio: "pipe" });
    const stopped = Date.now();
    log(`pg restart: PostgreSQL stopped (${options.stopCommand.join(" ")} took ${stopped - stopIssued} ms)`);
    await sleep(Math.max(0, (options.outageMs ?? 5000) - (Date.now() - stopped)));
    const startIssued = Date.now();
    execFileSync(options.startCommand[0]!, options.startCommand.slice(1), { stdio: "pipe" });
    back = await waitUntilAccepting(dbUrl);
    log(`pg restart: down ${back - stopped} ms (start command issued after ${startIssued - stopped} ms, accepting connections ${back - startIssued} ms later)`);
    await sleep(10_000);
    running = false;
    await Promise.all(workers);

    const alive = !server.exited();
    const statuses: Record<string, number> = {};
    for (const s of samples) statuses[String(s.status)] = (statuses[String(s.status)] ?? 0) + 1;
    const failed = samples.filter((s) => s.status !== 200);
    const outsideOutage = failed.filter((s) => s.end < stopIssued || s.start > back + RECOVERY_MS);
    const wrongKind = failed.filter((s) => s.status !== 503);
    const without503RetryAfter = failed.filter((s) => s.status === 503 && !s.retryAfter);
    const firstOkAfterBack = samples.filter((s) => s.start >= back && s.status === 200).sort((a, b) => a.end - b.end)[0];
    const recoveryMs = firstOkAfterBack ? firstOkAfterBack.end - back : Number.POSITIVE_INFINITY;
    const lateFailures = samples.filter((s) => s.start > back + RECOVERY_MS && s.status !== 200);
    const during = samples.filter((s) => s.end >= stopIssued && s.start <= back);
    const slowest503 = Math.max(0, ...failed.filter((s) => s.status === 503).map((s) => s.end - s.start));

    log(`pg restart: ${samples.length} requests (${samples.filter((s) => s.kind === "write").length} writes); statuses ${JSON.stringify(statuses)}`);
    log(
      `pg restart: ${during.length} requests overlapped the outage, ${failed.length} failed (all 503: ${wrongKind.length === 0}, with Retry-After: ${without503RetryAfter.length === 0}, slowest 503 answered in ${slowest503} ms); failures outside the outage window: ${outsideOutage.length}`,
    );
    log(`pg restart: first success ${recoveryMs} ms after the database was back; failures > ${RECOVERY_MS} ms after: ${lateFailures.length}; process alive: ${alive}`);
    if (!alive) failures.push("pg restart: the server process exited");
    if (wrongKind.length) failures.push(`pg restart: ${wrongKind.length} answers were not 503 (${[...new Set(wrongKind.map((s) => String(s.status)))].join(", ")})`);
    if (without503RetryAfter.length) failures.push(`pg restart: ${without503RetryAfter.length} 503s without Retry-After`);
    if (outsideOutage.length) failures.push(`pg restart: ${outsideOutage.length} failures outside the outage`);
    if (recoveryMs > RECOVERY_MS) failures.push(`pg restart: no success within ${RECOVERY_MS} ms of the database being back`);
    if (lateFailures.length) failures.push(`pg restart: ${lateFailures.length} failures after recovery`);
    if (!failed.length) failures.push("pg restart: no request saw the outage (the fault did not happen?)");
    const errorLines = server
      .output()
      .split("\n")
      .filter((l) => /PostgreSQL|\[db\]/.test(l));
    log(`pg restart: server log lines about the database: ${errorLines.length}, e.g. "${(errorLines[0] ?? "").slice(0, 140)}"`);
  } finally {
    await server.stop();
    // Never leave the shared PostgreSQL server stopped, whatever failed above.
    if (stopIssued && !back) execFileSync(options.startCommand[0]!, options.startCommand.slice(1), { stdio: "pipe" });
  }

  // Every acknowledged write is there; then drop the throw-away database.
  const check = new pg.Client({ connectionString: dbUrl });
  await check.connect();
  const present = await check.query<{ n: string }>("select count(*) as n from platform_setting_changes where new_value = any($1)", [acked]);
  await check.end();
  const lost = acked.length - Number(present.rows[0]!.n);
  log(`pg restart: ${acked.length} acknowledged writes, ${lost} lost`);
  if (lost) failures.push(`pg restart: ${lost} acknowledged writes lost`);
  await temp.drop();
  return failures;
}

/** Polls until a fresh connection to `url` runs `select 1`; returns that moment. */
async function waitUntilAccepting(url: string): Promise<number> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    client.on("error", () => undefined);
    try {
      await client.connect();
      await client.query("select 1");
      await client.end();
      return Date.now();
    } catch {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw new Error("PostgreSQL did not come back within 60 s");
      await sleep(50);
    }
  }
}
