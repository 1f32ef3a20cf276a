import type { AppDeps } from "../../platform/request/app-env.ts";
import type { Clock } from "../../platform/clock.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { inChunks } from "../../platform/db/in-chunks.ts";
import { newId } from "../../platform/db/ids.ts";
import { insertJob } from "../../platform/jobs/jobs.queries.ts";
import type { JobContext, JobWorker } from "../../platform/jobs/job-worker.ts";
import { type Mailer, createMailer } from "../../platform/mail/mailer.ts";
import { Pacer } from "../../platform/stripe/stripe-payouts.ts";
import { readSettings } from "../../domain/settings/settings.queries.ts";
import {
  type AnnouncementRow,
  type DeliveryResult,
  type RecipientRow,
  claimBatch,
  completeIfDone,
  findAnnouncement,
  finishQueueing,
  isLiveSender,
  nextDueAt,
  queueRecipientsChunk,
  recordDelivery,
  releaseDeadClaims,
  sendingClaimers,
} from "./communications.queries.ts";

/**
 * Sends an announcement's mails (docs/product.md §17.3): a leased job (decision 0010) claims a
 * batch of recipients (pending → sending, one statement), hands each to the project's one mailer
 * at MAIL_MAX_PER_SECOND and records each outcome as soon as the mail server answers. A crash can
 * only leave the claimed batch in `sending`; whoever resumes (the same job taken over, or another
 * sender of the announcement once the claimer is no longer live) sends those again — the only
 * way a mail can repeat, at most the batch in flight per crash (`FAULTS_ONLY=announcements npm run test:faults`). A recipient
 * is otherwise never sent twice: only an admin's "retry failed" sends to a recipient again.
 */
export const ANNOUNCEMENT_SEND_JOB = "announcements.send";
/** A job's own failures (a database outage) are retried for a long while; crashes count too. */
export const ANNOUNCEMENT_JOB_ATTEMPTS = 100;
/** Tries per recipient for temporary refusals (4xx, no answer) before it is failed. */
export const RECIPIENT_MAX_ATTEMPTS = 5;
/** A queueing request silent this long has died: the job finishes its queueing. */
export const QUEUE_STALE_MS = 30_000;

export interface AnnouncementJobOptions {
  /** Replaces the mailer made from the configuration (tests). */
  mailer?: Mailer;
  /** Mails per second; default MAIL_MAX_PER_SECOND. */
  maxPerSecond?: number;
  /** Recipients claimed at once; default about a second of sending (10–200). */
  batchSize?: number;
  /** First wait after a temporary refusal (doubled each attempt). */
  retryBaseMs?: number;
  /** How long one run of the job sends before it hands over to a continuation (other jobs go in between). */
  sliceMs?: number;
}

/** A run of the sender lasts about this long; a continuation picks up (the worker runs one job at a time). */
const SLICE_MS = 10_000;

const RETRY_BASE_MS = 60_000;

/** Mails in the air at once: enough to keep the pace with answers of a few ms to a second. */
export function concurrencyFor(perSecond: number): number {
  return Math.min(16, Math.max(1, Math.ceil(perSecond / 25)));
}

export function batchSizeFor(perSecond: number): number {
  return Math.min(200, Math.max(10, Math.ceil(perSecond)));
}

/** Enqueues the announcement's sender, due at `at` (deduplicated per announcement and time). */
export async function enqueueSender(db: Executor, announcementId: string, at: string, now: string, reason: string): Promise<void> {
  await insertJob(db, {
    id: newId(),
    kind: ANNOUNCEMENT_SEND_JOB,
    payload: { announcementId },
    dedupeKey: `announcement:${announcementId}:${reason}:${at}`,
    maxAttempts: ANNOUNCEMENT_JOB_ATTEMPTS,
    runAfter: at,
    now,
  });
}

/** Writes the announcement's remaining delivery records in chunks (inChunks), then lets sending start. */
export async function queueAllRecipients(db: Executor, clock: Clock, announcementId: string, startRows = 2_000): Promise<void> {
  let done = false;
  await inChunks(
    async (size) => {
      if (done) return 0;
      const chunk = await queueRecipientsChunk(db, announcementId, size, clock.now().toISOString());
      done = chunk.done;
      // A chunk that wrote nobody (all its vendors queued already) still moved the cursor.
      return chunk.done ? 0 : Math.max(1, chunk.written);
    },
    { startRows },
  );
  await finishQueueing(db, announcementId, clock.now().toISOString());
}

/** How a mailer's failure counts: the SMTP answer's class decides (no answer: temporary). */
export function classifyFailure(err: unknown): { permanent: boolean; message: string } {
  const e = err as { responseCode?: number; response?: string; message?: string };
  const code = typeof e?.responseCode === "number" ? e.responseCode : null;
  const message = (typeof e?.response === "string" && e.response) || (err instanceof Error ? err.message : String(err));
  return { permanent: code !== null && code >= 500 && code < 600, message };
}

interface SenderDeps {
  db: Executor;
  clock: Clock;
  mailer: Mailer;
  pacer: Pacer;
  from: string;
  perSecond: number;
  options: AnnouncementJobOptions;
}

/** The mail of one recipient: a stable id (Message-ID, .eml name) per announcement and artist. */
function mailOf(ann: AnnouncementRow, r: RecipientRow, from: string, replyTo: string | null) {
  return { id: `${ann.id}.${r.vendor_id}`, from, to: r.email, subject: ann.title, text: ann.text_body, html: ann.html_body, date: new Date(ann.created_at), replyTo };
}

async function sendOne(deps: SenderDeps, ann: AnnouncementRow, r: RecipientRow, token: string, replyTo: string | null): Promise<DeliveryResult["status"]> {
  await deps.pacer.slot();
  let result: DeliveryResult;
  try {
    await deps.mailer.send(mailOf(ann, r, deps.from, replyTo));
    result = { status: "sent", at: deps.clock.now().toISOString() };
  } catch (err) {
    const { permanent, message } = classifyFailure(err);
    if (permanent || r.attempts >= RECIPIENT_MAX_ATTEMPTS) {
      result = { status: "failed", error: permanent ? message : `${message} (gave up after ${r.attempts} attempts)` };
    } else {
      const wait = (deps.options.retryBaseMs ?? RETRY_BASE_MS) * 2 ** (r.attempts - 1);
      result = { status: "retry", error: message, at: new Date(deps.clock.now().getTime() + wait).toISOString() };
    }
  }
  await recordDelivery(deps.db, ann.id, r.vendor_id, token, result);
  return result.status;
}

/** Puts back what dead senders left claimed (to pending, or canceled when the announcement was). */
async function releaseDead(deps: SenderDeps, ann: AnnouncementRow, myToken: string | null): Promise<number> {
  const now = deps.clock.now().toISOString();
  let released = 0;
  for (const claimer of await sendingClaimers(deps.db, ann.id)) {
    if (claimer === myToken) continue;
    if (claimer !== "" && (await isLiveSender(deps.db, claimer, now))) continue;
    released += await releaseDeadClaims(deps.db, ann.id, claimer, ann.status === "canceled" ? "canceled" : "pending", now);
  }
  return released;
}

export async function runAnnouncementJob(ctx: JobContext<{ announcementId: string }>, deps: SenderDeps): Promise<unknown> {
  const { db, clock } = deps;
  const id = ctx.payload.announcementId;
  const now = () => clock.now().toISOString();
  let ann = await findAnnouncement(db, id);
  if (!ann) return { announcementId: id, skipped: "no such announcement" };

  if (ann.status === "queueing") {
    const quietFor = clock.now().getTime() - new Date(ann.updated_at).getTime();
    if (quietFor < QUEUE_STALE_MS) {
      // The request that created it is still writing its recipients: look again when it would be stale.
      await enqueueSender(db, id, new Date(new Date(ann.updated_at).getTime() + QUEUE_STALE_MS).toISOString(), now(), "queue-check");
      return { announcementId: id, waiting: "queueing" };
    }
    await queueAllRecipients(db, clock, id);
    ann = (await findAnnouncement(db, id))!;
  }
  if (ann.status !== "sending") {
    await releaseDead(deps, ann, null);
    return { announcementId: id, status: ann.status };
  }

  const token = `${ctx.job.id}:${ctx.job.attempts}`;
  await releaseDead(deps, ann, token);
  const replyTo = (await readSettings(db)).support_email.value.trim() || null;
  const size = deps.options.batchSize ?? batchSizeFor(deps.perSecond);
  const concurrency = concurrencyFor(deps.perSecond);
  const tally = { sent: 0, failed: 0, retry: 0 };
  const sliceEnds = performance.now() + (deps.options.sliceMs ?? SLICE_MS);
  for (;;) {
    if (await ctx.shouldStop()) throw new Error("Announcement sending interrupted (server stopping or job taken over); it resumes where it left off");
    const batch = await claimBatch(db, id, token, now(), size);
    if (batch.length === 0) {
      if ((await releaseDead(deps, ann, token)) > 0) continue;
      if (await completeIfDone(db, id, now())) return { announcementId: id, status: "sent", ...tally };
      const current = await findAnnouncement(db, id);
      if (current?.status !== "sending") return { announcementId: id, status: current?.status, ...tally };
      // Recipients wait for a retry after a temporary refusal: a sender is due then.
      const due = await nextDueAt(db, id);
      if (due && due > now()) await enqueueSender(db, id, due, now(), "retry-at");
      return { announcementId: id, status: "sending", waitingUntil: due, ...tally };
    }
    let next = 0;
    const worker = async () => {
      while (next < batch.length) {
        const r = batch[next++]!;
        tally[await sendOne(deps, ann, r, token, replyTo)]++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, batch.length) }, worker));
    await ctx.reportProgress(tally);
    if (performance.now() > sliceEnds) {
      // Every outcome of this run is recorded: a continuation sends the rest, after jobs queued meanwhile.
      await enqueueSender(db, id, now(), now(), `next-${ctx.job.id}-${ctx.job.attempts}`);
      return { announcementId: id, status: "sending", continued: true, ...tally };
    }
  }
}

/**
 * The sender on the job worker of every server process (the job lease makes one of them send an
 * announcement). One pacer per process: MAIL_MAX_PER_SECOND holds across its announcements.
 */
export function announcementJobs(worker: JobWorker, deps: AppDeps, options: AnnouncementJobOptions = {}): void {
  const perSecond = options.maxPerSecond ?? deps.config.mailMaxPerSecond;
  let mailer = options.mailer;
  const pacer = new Pacer(perSecond);
  worker.register<{ announcementId: string }>(ANNOUNCEMENT_SEND_JOB, (ctx) => {
    mailer ??= createMailer(deps.config, { connections: concurrencyFor(perSecond) });
    return runAnnouncementJob(ctx, { db: deps.database.db, clock: deps.clock, mailer, pacer, from: deps.config.mailFrom, perSecond, options });
  });
}
