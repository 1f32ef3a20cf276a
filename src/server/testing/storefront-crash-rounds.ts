import SQLite from "better-sqlite3";
import fc from "fast-check";
import { parseDatabaseUrl } from "../platform/config/config.ts";
import { openDatabase } from "../platform/db/connect.ts";
import { migrateToLatest } from "../platform/db/migrate.ts";
import { newId } from "../platform/db/ids.ts";
import { newApiKeySecret } from "../platform/identity/api-keys.ts";
import { compareRollups } from "../domain/ledger/recompute.ts";
import { type ServerProcess, startServer } from "./server-process.ts";
import type { StorefrontEvent } from "./storefront-events.ts";
import { history, storefrontStep } from "./storefront-history.ts";

export interface StorefrontCrashResult {
  rounds: number;
  /** Kills that hit the server while the stream was being sent. */
  kills: number;
  events: number;
  batches: number;
  /** Batches sent again because their answer never came (the server died under them). */
  resent: number;
  /** Events answered `applied` more than once (must be 0), and events never recorded as applied (must be 0). */
  appliedTwice: number;
  lost: number;
  /** Events refused (a stream valid in order must have none). */
  rejected: number;
  /** Events answered `duplicate` because an earlier, unanswered send had applied them. */
  duplicates: number;
  /** Rows the stream's orders and refunds must have made, against what the database holds. */
  orderRows: { expected: number; actual: number };
  refundRows: { expected: number; actual: number };
  rollupDifferences: number;
  /** SQLite's integrity_check ("ok"); null on PostgreSQL, whose own write-ahead log keeps its files whole. */
  integrity: string | null;
  seconds: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The storefront-events fault round (docs/reliability.md): a storefront history of `events`
 * events sent in order, in batches, to the real server while it is killed with SIGKILL `rounds`
 * times and restarted. The sender re-sends any batch it got no answer for, with the same event
 * ids, as docs/integration.md tells senders to. At the end every event must have been applied
 * exactly once (answered `applied` once, recorded once, none lost), the orders and refunds must
 * have made exactly their rows, and every rollup must equal a recompute from the raw rows.
 * `databaseUrl` is a DATABASE_URL (`sqlite:<file>` or a PostgreSQL URL) of an empty database.
 */
export async function runStorefrontCrashRounds(
  databaseUrl: string,
  options: { rounds: number; events?: number; batch?: number; pauseMs?: number; seed?: number; log?: (line: string) => void; from?: "source" | "build" },
): Promise<StorefrontCrashResult> {
  const started = Date.now();
  const log = options.log ?? (() => undefined);
  const batchSize = options.batch ?? 50;
  const steps = fc.sample(fc.array(storefrontStep, { minLength: options.events ?? 8000, maxLength: options.events ?? 8000 }), { numRuns: 1, seed: options.seed ?? 33 })[0]!;
  // Ids unique to this round set, so nothing in the stream collides with another run's.
  // Without deletions (an artist's takes its orders with it; a deleted product is never listed
  // again, which would end the orders), so the stream keeps selling and its rows can be counted exactly.
  const stream: StorefrontEvent[] = history(steps.filter((s) => s.kind !== "deleteArtist" && s.kind !== "deleteProduct")).map((e) => ({ ...e, id: `crash-${e.id}` }));

  const secret = newApiKeySecret();
  const database = parseDatabaseUrl(databaseUrl);
  const setup = openDatabase(database);
  try {
    await migrateToLatest(setup.db);
    const now = new Date().toISOString();
    await setup.db
      .insertInto("api_keys")
      .values({
        id: newId(),
        name: "Fault rounds",
        scopes: JSON.stringify(["events:write"]),
        key_hash: secret.hash,
        prefix: secret.prefix,
        last_four: secret.lastFour,
        created_by_id: null,
        created_by_email: "faults@hki.global",
        created_at: now,
        last_used_at: null,
        revoked_at: null,
        revoked_by_email: null,
      })
      .execute();
  } finally {
    await setup.close();
  }

  const env = { SEED_DEMO: "false" };
  const from = options.from ?? "source";
  let server: ServerProcess = await startServer(databaseUrl, { env, from });
  const answers = new Map<string, string[]>();
  let batches = 0;
  let resent = 0;
  let sending = true;
  let kills = 0;

  // The killer: kill -9 at random moments while the stream is being sent, then start again.
  const killer = (async () => {
    for (let round = 1; round <= options.rounds && sending; round++) {
      await sleep(300 + Math.floor(Math.random() * 1500));
      if (!sending) break;
      const dead = server;
      await dead.kill9();
      kills++;
      log(`storefront events round ${round}: killed after ${batches} batches`);
      server = await startServer(databaseUrl, { env, from });
    }
  })();

  try {
    for (let i = 0; i < stream.length; i += batchSize) {
      const batch = stream.slice(i, i + batchSize);
      batches++;
      for (let attempt = 1; ; attempt++) {
        try {
          const res = await fetch(`${server.url}/api/events`, {
            method: "POST",
            headers: { authorization: `Bearer ${secret.key}`, "content-type": "application/json" },
            body: JSON.stringify({ events: batch }),
            signal: AbortSignal.timeout(20_000),
          });
          if (res.status === 200) {
            const { results } = (await res.json()) as { results: Array<{ id: string; status: string; error?: { code: string } }> };
            for (const r of results) answers.set(r.id, [...(answers.get(r.id) ?? []), r.error ? `${r.status}:${r.error.code}` : r.status]);
            break;
          }
          if (res.status < 500 && res.status !== 429) throw new Error(`batch ${batches} answered ${res.status}: ${await res.text()}`);
        } catch (err) {
          if (err instanceof Error && err.message.startsWith("batch ")) throw err;
          // No answer (the server died under the request, or is starting): the same batch again.
        }
        resent++;
        await sleep(Math.min(2000, 100 * attempt));
      }
      // A storefront's pace: the stream lasts through every kill round.
      await sleep(options.pauseMs ?? 150);
    }
  } finally {
    sending = false;
    await killer;
  }
  await server.stop();

  const appliedTwice = [...answers.values()].filter((a) => a.filter((s) => s === "applied").length > 1).length;
  const rejected = [...answers.values()].filter((a) => a.some((s) => s.startsWith("rejected"))).length;
  const duplicates = [...answers.values()].filter((a) => a.includes("duplicate")).length;
  const expectedOrderRows = stream.filter((e) => e.type === "order.paid").reduce((sum, e) => sum + (e.data as { lines: unknown[] }).lines.length, 0);
  const expectedRefunds = stream.filter((e) => e.type === "order.refunded").length;

  const check = openDatabase(database);
  let recorded: Set<string>;
  let orderRows: number;
  let refundRows: number;
  let rollupDifferences: number;
  try {
    recorded = new Set((await check.db.selectFrom("storefront_events").select("id").execute()).map((r) => r.id));
    orderRows = Number(
      (
        await check.db
          .selectFrom("orders")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    refundRows = Number(
      (
        await check.db
          .selectFrom("order_refunds")
          .select((eb) => eb.fn.count("external_refund_id").distinct().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    rollupDifferences = (await compareRollups(check.db)).length;
  } finally {
    await check.close();
  }
  const lost = stream.filter((e) => !recorded.has(e.id)).length;
  let integrity: string | null = null;
  if (database.kind === "sqlite") {
    const raw = new SQLite(database.path);
    integrity = String(raw.pragma("integrity_check", { simple: true }));
    raw.close();
  }
  return {
    rounds: options.rounds,
    kills,
    events: stream.length,
    batches,
    resent,
    appliedTwice,
    lost,
    rejected,
    duplicates,
    orderRows: { expected: expectedOrderRows, actual: orderRows },
    refundRows: { expected: expectedRefunds, actual: refundRows },
    rollupDifferences,
    integrity,
    seconds: (Date.now() - started) / 1000,
  };
}
