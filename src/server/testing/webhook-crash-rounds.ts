import SQLite from "better-sqlite3";
import { type ServerProcess, signInAdmin, startServer } from "./server-process.ts";
import { startWebhookReceiver } from "./webhook-receiver.ts";

export interface WebhookCrashResult {
  rounds: number;
  kills: number;
  /** Decisions the panel acknowledged (each a setting changed, so each has its event). */
  acknowledged: number;
  /** Events the panel recorded for the endpoint, and those the receiver got (verified), distinct. */
  events: number;
  received: number;
  /** Events never received (must be 0), and acknowledged decisions whose event never came (must be 0). */
  lost: number;
  lostDecisions: number;
  /** Requests that did not verify with the endpoint's secret (must be 0). */
  unverified: number;
  /** Extra copies in all, and those of an event the receiver had already answered 2xx in time (only a crash can cause these). */
  duplicates: number;
  duplicatesAfterSuccess: number;
  /** What the receiver did: answered 2xx, 500, too late (after the 10 s timeout), dropped the connection. */
  answers: Record<string, number>;
  /** Deliveries not `delivered` at the end (must be 0). */
  notDelivered: number;
  integrity: string;
  seconds: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A small seeded generator, so a failing mix can be replayed (FAULT_WEBHOOK_SEED). */
function seeded(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4_294_967_296;
  };
}

/**
 * The webhook fault rounds (docs/reliability.md): an endpoint whose receiver, in this process,
 * fails (500), answers too late (after the sender's 10 s timeout) and drops connections at random,
 * while decisions are taken (a public setting changed, each with its event) and the panel is
 * killed with SIGKILL `rounds` times and restarted. Then the receiver is healthy again and the
 * retries' waits are let pass (their times moved to now: a day of schedule in a minute). Every
 * event must have been received at least once, verified; an event the receiver had answered 2xx in
 * time may come again only after a crash (the dead process had not recorded it), and those copies
 * are counted.
 */
export async function runWebhookCrashRounds(
  dbPath: string,
  options: { rounds: number; seed?: number; log?: (line: string) => void; from?: "source" | "build"; finishTimeoutMs?: number },
): Promise<WebhookCrashResult> {
  const started = Date.now();
  const log = options.log ?? (() => undefined);
  const random = seeded(options.seed ?? 34);
  const receiver = await startWebhookReceiver();
  const answers: Record<string, number> = { ok: 0, error: 0, late: 0, dropped: 0 };
  /** Per event id, whether each receipt was answered 2xx in time. */
  const promptSuccess = new Map<string, boolean[]>();
  let healthy = false;
  receiver.answer = (request) => {
    const roll = random();
    const outcome = healthy || roll < 0.6 ? "ok" : roll < 0.75 ? "error" : roll < 0.85 ? "late" : "dropped";
    answers[outcome]! += 1;
    const id = request.headers["webhook-id"] ?? "";
    promptSuccess.set(id, [...(promptSuccess.get(id) ?? []), outcome === "ok"]);
    if (outcome === "ok") return { status: 200, delayMs: Math.floor(random() * 50) };
    if (outcome === "error") return { status: 500, body: "receiver failing" };
    if (outcome === "late") return { status: 200, delayMs: 11_000 };
    return "drop";
  };

  const env = { SEED_DEMO: "false" };
  const from = options.from ?? "source";
  let server: ServerProcess | null = null;
  const acked = new Set<string>();
  let kills = 0;
  try {
    server = await startServer(`sqlite:${dbPath}`, { env, from });
    const token = await signInAdmin(server.url);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const made = await fetch(`${server.url}/api/admin/integrations/webhooks`, { method: "POST", headers, body: JSON.stringify({ url: receiver.url, events: ["settings.changed"] }) });
    if (made.status !== 201) throw new Error(`adding the endpoint failed: ${made.status} ${await made.text()}`);
    receiver.setSecrets([((await made.json()) as { secret: string }).secret]);

    for (let round = 1; round <= options.rounds; round++) {
      const until = Date.now() + 500 + Math.floor(random() * 2000);
      let i = 0;
      while (Date.now() < until) {
        const value = `fault ${round}.${++i}`;
        try {
          const res = await fetch(`${server.url}/api/admin/settings`, { method: "PUT", headers, body: JSON.stringify({ announcement_message: value }) });
          await res.text();
          if (res.status === 200) acked.add(value);
        } catch {
          /* the server died under it: not acknowledged */
        }
      }
      await server.kill9();
      kills += 1;
      log(`webhooks round ${round}: killed after ${acked.size} acknowledged decisions, ${receiver.received.length} requests received`);
      server = await startServer(`sqlite:${dbPath}`, { env, from });
    }

    // The receiver recovers; the retries' waits (up to 12 h) are let pass, and deliveries held by a dead process come back after their lease.
    healthy = true;
    const deadline = Date.now() + (options.finishTimeoutMs ?? 300_000);
    for (;;) {
      const raw = new SQLite(dbPath);
      raw.pragma("busy_timeout = 5000");
      const now = new Date().toISOString();
      raw.prepare("update webhook_deliveries set next_attempt_at = ? where status = 'pending' and next_attempt_at > ?").run(now, now);
      const pending = (raw.prepare("select count(*) as n from webhook_deliveries where status = 'pending'").get() as { n: number }).n;
      raw.close();
      if (pending === 0 || Date.now() > deadline) break;
      await sleep(2_000);
    }
    await server.stop();
    server = null;
  } finally {
    if (server) await server.kill9();
    await receiver.close();
  }

  const raw = new SQLite(dbPath, { readonly: true });
  const events = (raw.prepare("select event_id from webhook_deliveries").all() as Array<{ event_id: string }>).map((r) => r.event_id);
  const notDelivered = (raw.prepare("select count(*) as n from webhook_deliveries where status != 'delivered'").get() as { n: number }).n;
  const integrity = String(raw.pragma("integrity_check", { simple: true }));
  raw.close();

  const verified = receiver.received.filter((r) => r.verified !== null);
  const receivedIds = new Set(verified.map((r) => r.verified!.id));
  const receivedValues = new Set(verified.map((r) => (r.verified!.data as { changes: { announcement_message?: string } }).changes.announcement_message));
  let duplicatesAfterSuccess = 0;
  for (const outcomes of promptSuccess.values()) {
    const first = outcomes.indexOf(true);
    if (first >= 0) duplicatesAfterSuccess += outcomes.length - first - 1;
  }
  return {
    rounds: options.rounds,
    kills,
    acknowledged: acked.size,
    events: new Set(events).size,
    received: receivedIds.size,
    lost: [...new Set(events)].filter((id) => !receivedIds.has(id)).length,
    lostDecisions: [...acked].filter((value) => !receivedValues.has(value)).length,
    unverified: receiver.received.length - verified.length,
    duplicates: verified.length - receivedIds.size,
    duplicatesAfterSuccess,
    answers,
    notDelivered,
    integrity,
    seconds: (Date.now() - started) / 1000,
  };
}
