import SQLite from "better-sqlite3";
import { openDatabase } from "../platform/db/connect.ts";
import { migrateToLatest } from "../platform/db/migrate.ts";
import { generateLargeDataset } from "../demo-data/generate.ts";
import { batchSizeFor } from "../features/communications/communications.job.ts";
import { type ServerProcess, signInAdmin, startServer } from "./server-process.ts";
import { startSmtpSink } from "./smtp-sink.ts";

export interface AnnouncementCrashResult {
  rounds: number;
  /** Kills that hit the server while it was sending. */
  kills: number;
  recipients: number;
  /** Messages the SMTP sink accepted, and distinct Message-IDs among them. */
  accepted: number;
  distinct: number;
  /** Recipients who never got their mail (must be 0). */
  lost: number;
  /** Extra copies (a Message-ID accepted more than once), in all and the most after one kill. */
  duplicates: number;
  maxDuplicatesPerKill: number;
  /** The sender's batch: the most a crash may repeat. */
  batchSize: number;
  /** Recipients found still "sending" after a kill and sent again (an upper bound of the duplicates). */
  interrupted: number;
  /** Messages for nobody in the audience (must be 0). */
  unexpected: number;
  status: string;
  counts: { sent: number; failed: number; pending: number };
  integrity: string;
  seconds: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The announcement fault round (docs/reliability.md): an announcement to `vendors` artists sent
 * over SMTP to a sink in this process, the server killed with SIGKILL `rounds` times while it
 * sends, restarted each time (the new process takes the job over once the dead one's lease has
 * expired and sends again what the dead one had claimed). At the end every artist must have
 * received the mail (none lost), no mail may have gone to anyone else, the announcement must be
 * `sent` with its counts right, and the repeats are counted: each kill may repeat at most the
 * batch the dead process had claimed.
 */
export async function runAnnouncementCrashRounds(
  dbPath: string,
  options: { rounds: number; vendors?: number; perSecond?: number; log?: (line: string) => void; from?: "source" | "build"; finishTimeoutMs?: number },
): Promise<AnnouncementCrashResult> {
  const started = Date.now();
  const log = options.log ?? (() => undefined);
  const vendors = options.vendors ?? 5000;
  const perSecond = options.perSecond ?? 200;

  const setup = openDatabase({ kind: "sqlite", path: dbPath });
  let audience: string[];
  try {
    await migrateToLatest(setup.db);
    await generateLargeDataset(setup, { vendors, products: vendors, orders: vendors, errorLogs: 0, days: 30, seed: 17 });
    audience = (await setup.db.selectFrom("vendors").select("id").execute()).map((r) => r.id);
    if (setup.sqlite) setup.sqlite.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    await setup.close();
  }

  const sink = await startSmtpSink();
  const env = { SEED_DEMO: "false", SMTP_URL: sink.url, MAIL_MAX_PER_SECOND: String(perSecond), MAIL_FROM: "HKI Global Admin <no-reply@hki.global>" };
  const from = options.from ?? "source";
  let server: ServerProcess | null = null;
  let announcementId = "";
  let kills = 0;
  /** How many messages had been accepted at each kill (to tell the repeats of each crash apart). */
  const acceptedAtKill: number[] = [];
  let status = "not started";
  let counts = { sent: 0, failed: 0, pending: 0 };
  try {
    server = await startServer(`sqlite:${dbPath}`, { env, from });
    const token = await signInAdmin(server.url);
    const res = await fetch(`${server.url}/api/admin/communications/announcement`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "Fault round", message: "Hello **artists**", audience: "all", includeInternal: true, channels: ["email"] }),
    });
    if (res.status !== 201) throw new Error(`sending answered ${res.status}: ${await res.text()}`);
    const created = ((await res.json()) as { announcement: { id: string; recipients: number } }).announcement;
    announcementId = created.id;
    log(`announcements: ${created.recipients} recipients queued, ${perSecond} mails/s`);

    for (let round = 1; round <= options.rounds; round++) {
      // Wait until this process really sends (after a restart: once the dead one's lease expired), then a little more.
      const before = sink.received.length;
      const deadline = Date.now() + 90_000;
      while (sink.received.length === before && Date.now() < deadline) await sleep(100);
      if (sink.received.length === before || sink.countsByMessageId().size >= audience.length) {
        log(`announcements round ${round}: sending already over, no kill`);
        break;
      }
      await sleep(300 + Math.floor(Math.random() * 1200));
      await server.kill9();
      kills++;
      acceptedAtKill.push(sink.received.length);
      log(`announcements round ${round}: killed with ${sink.countsByMessageId().size}/${audience.length} delivered (${sink.received.length} accepted)`);
      server = await startServer(`sqlite:${dbPath}`, { env, from });
    }

    const token2 = await signInAdmin(server.url);
    const deadline = Date.now() + (options.finishTimeoutMs ?? 10 * 60_000);
    for (;;) {
      const r = await fetch(`${server.url}/api/admin/communications/announcements/${announcementId}`, { headers: { authorization: `Bearer ${token2}` } });
      const a = ((await r.json()) as { announcement?: { status: string; sent: number; failed: number; pending: number } }).announcement;
      status = a?.status ?? "missing";
      counts = { sent: a?.sent ?? 0, failed: a?.failed ?? 0, pending: a?.pending ?? 0 };
      if (!["queueing", "sending"].includes(status) || Date.now() > deadline) break;
      await sleep(500);
    }
    await server.stop();
    server = null;
  } finally {
    if (server) await server.kill9();
    await sink.close();
  }

  const expected = new Set(audience.map((id) => `<${announcementId}.${id}@hki-global-admin>`));
  const byId = sink.countsByMessageId();
  const lost = [...expected].filter((id) => !byId.has(id)).length;
  const unexpected = [...byId.keys()].filter((id) => !expected.has(id)).length;
  const duplicates = [...byId.values()].reduce((sum, n) => sum + n - 1, 0);
  // A repeat belongs to the kill before its second copy: count, per kill, the copies of IDs seen before it.
  const firstAt = new Map<string, number>();
  const repeatsAfterKill = new Array<number>(acceptedAtKill.length).fill(0);
  sink.received.forEach((m, index) => {
    if (!firstAt.has(m.messageId)) {
      firstAt.set(m.messageId, index);
      return;
    }
    const kill = acceptedAtKill.findLastIndex((at) => at <= index);
    if (kill >= 0) repeatsAfterKill[kill]! += 1;
  });

  const raw = new SQLite(dbPath);
  const integrity = String(raw.pragma("integrity_check", { simple: true }));
  const interrupted = (raw.prepare("select coalesce(sum(interrupted), 0) as n from announcement_recipients where announcement_id = ?").get(announcementId) as { n: number }).n;
  raw.close();
  return {
    rounds: options.rounds,
    kills,
    recipients: audience.length,
    accepted: sink.received.length,
    distinct: byId.size,
    lost,
    duplicates,
    maxDuplicatesPerKill: Math.max(0, ...repeatsAfterKill),
    batchSize: batchSizeFor(perSecond),
    interrupted,
    unexpected,
    status,
    counts,
    integrity,
    seconds: (Date.now() - started) / 1000,
  };
}
