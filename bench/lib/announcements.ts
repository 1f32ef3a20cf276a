import { parseDatabaseUrl } from "../../src/server/platform/config/config.ts";
import { openDatabase } from "../../src/server/platform/db/connect.ts";
import type { SmtpSink } from "../../src/server/testing/smtp-sink.ts";
import { type Client, createClient, percentile } from "./latency.ts";

/** What the announcement part of the benchmark measured on one data set (docs/product.md §17.3). */
export interface AnnouncementFigures {
  announcementId: string;
  recipients: number;
  /** From the POST to its 201: every delivery record written. Target: well under 5 s for 50k. */
  queueSeconds: number;
  /** Other requests (dashboard stats, vendor list) made one after another while it queued. */
  otherRequests: { n: number; p50Ms: number; p95Ms: number; maxMs: number };
  /** Mails the local SMTP sink accepted per second (first to last of the window). Target: ≥ 200. */
  mailsPerSecond: number;
  mailsAccepted: number;
  sendWindowSeconds: number;
  /** A cursor half-way through the recipients (the deep page of the recipients list). */
  recipientsMidCursor: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The recipients cursor of a vendor id, as the server writes it (communications.service.ts). */
const recipientsCursor = (vendorId: string) => Buffer.from(JSON.stringify([vendorId]), "utf8").toString("base64url");

/**
 * Sends an announcement to every artist of the data set through the real server: times the
 * queueing of its delivery records while another client keeps reading (the p95 of those reads
 * is what queueing costs everyone else), then lets the sender run for `sendSeconds` against the
 * local SMTP sink and measures its pace, then cancels the rest (the history and recipients pages
 * are then measured with the announcement in place).
 */
export async function benchAnnouncements(
  server: { baseUrl: string; token: string; databaseUrl: string },
  sink: SmtpSink,
  options: { sendSeconds: number; log: (line: string) => void },
): Promise<AnnouncementFigures> {
  const headers = { authorization: `Bearer ${server.token}`, "content-type": "application/json" };
  const other: Client = createClient(server.baseUrl, server.token);
  const times: number[] = [];
  let queueing = true;
  const reader = (async () => {
    const paths = ["/api/admin/dashboard/stats", "/api/admin/vendors?page=1&limit=20"];
    for (let i = 0; queueing; i++) {
      const start = process.hrtime.bigint();
      const res = await other.get(paths[i % paths.length]!);
      if (res.status !== 200) throw new Error(`read during queueing answered ${res.status}`);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  })();
  const before = sink.received.length;
  const started = performance.now();
  const res = await fetch(`${server.baseUrl}/api/admin/communications/announcement`, {
    method: "POST",
    headers,
    body: JSON.stringify({ title: "Benchmark announcement", message: "Hello **artists**!\n\nSee https://hki.global/bench", audience: "all", includeInternal: true, channels: ["email"] }),
  });
  const queueSeconds = (performance.now() - started) / 1000;
  queueing = false;
  await reader;
  other.close();
  if (res.status !== 201) throw new Error(`sending the announcement answered ${res.status}: ${await res.text()}`);
  const announcement = ((await res.json()) as { announcement: { id: string; recipients: number } }).announcement;
  const sorted = [...times].sort((a, b) => a - b);
  options.log(`announcements: ${announcement.recipients} recipients queued in ${queueSeconds.toFixed(2)} s; ${times.length} other requests meanwhile, p95 ${percentile(sorted, 95).toFixed(1)} ms`);

  // Sending: from the first mail the sink accepts, for the window (or until everyone has it).
  const ownMail = (i: number) => sink.received[i]!.messageId.startsWith(`<${announcement.id}.`);
  const firstDeadline = Date.now() + 30_000;
  while (sink.received.length === before && Date.now() < firstDeadline) await sleep(20);
  const sendStart = performance.now();
  const until = Date.now() + options.sendSeconds * 1000;
  let accepted = 0;
  while (Date.now() < until) {
    accepted = 0;
    for (let i = before; i < sink.received.length; i++) if (ownMail(i)) accepted++;
    if (accepted >= announcement.recipients) break;
    await sleep(50);
  }
  const window = (performance.now() - sendStart) / 1000;
  const cancel = await fetch(`${server.baseUrl}/api/admin/communications/announcements/${announcement.id}/cancel`, { method: "POST", headers });
  if (cancel.status !== 200 && cancel.status !== 409) throw new Error(`canceling answered ${cancel.status}: ${await cancel.text()}`);
  options.log(`announcements: ${accepted} mails accepted by the local sink in ${window.toFixed(1)} s = ${(accepted / window).toFixed(0)} mails/s; the rest canceled`);

  const database = openDatabase(parseDatabaseUrl(server.databaseUrl));
  let mid: string;
  try {
    const row = await database.db
      .selectFrom("announcement_recipients")
      .select("vendor_id")
      .where("announcement_id", "=", announcement.id)
      .orderBy("vendor_id")
      .offset(Math.floor(announcement.recipients / 2))
      .limit(1)
      .executeTakeFirstOrThrow();
    mid = row.vendor_id;
  } finally {
    await database.close();
  }
  return {
    announcementId: announcement.id,
    recipients: announcement.recipients,
    queueSeconds,
    otherRequests: { n: times.length, p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95), maxMs: sorted.at(-1) ?? Number.NaN },
    mailsPerSecond: accepted / window,
    mailsAccepted: accepted,
    sendWindowSeconds: window,
    recipientsMidCursor: recipientsCursor(mid),
  };
}

/** Takes the benchmark's announcements out of a cached data set again (run after its server stopped). */
export async function removeBenchAnnouncements(databaseUrl: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const database = openDatabase(parseDatabaseUrl(databaseUrl));
  try {
    const { db } = database;
    await db.deleteFrom("announcement_recipients").where("announcement_id", "in", ids).execute();
    await db.deleteFrom("announcements").where("id", "in", ids).execute();
    await db.deleteFrom("audit_log").where("target_type", "=", "announcement").where("target_id", "in", ids).execute();
    await db.deleteFrom("jobs").where("kind", "=", "announcements.send").execute();
  } finally {
    await database.close();
  }
}
