import type { AppDeps } from "../request/app-env.ts";
import type { Clock } from "../clock.ts";
import { newId } from "../db/ids.ts";
import type { JobQueue } from "../jobs/job-queue.ts";
import type { JobWorker } from "../jobs/job-worker.ts";
import type { Executor } from "../db/executor.ts";
import { claimOutboxMail, findOutboxMail, finishOutboxMail, insertOutboxMail } from "./mail.queries.ts";
import { type Mailer, createMailer } from "./mailer.ts";
import { mailFailed } from "../metrics/metrics.ts";

export const MAIL_DELIVERY_JOB = "mail.deliver";
/** Tries per mail (the job's attempts, with its growing delay between them). */
export const MAIL_MAX_ATTEMPTS = 5;

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** What it is about, e.g. "invitation:<id>". */
  reference?: string;
  /**
   * Secrets the body carries (an accept link's token). The outbox keeps them only until the mail
   * is sent or has finally failed: then the body is replaced by a copy with each one cut.
   */
  secrets?: readonly string[];
}

/** What stands in a delivered mail's stored body where a secret was. */
export const CUT_SECRET = "[removed once sent]";

/** `text` with every occurrence of each secret replaced by CUT_SECRET. */
export function cutSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length > 0) out = out.split(secret).join(CUT_SECRET);
  return out;
}

/**
 * Queues an e-mail: an outbox row and the job that delivers it, both on the caller's executor (its
 * transaction), so the mail exists exactly when the change that sends it does. Returns the row's id.
 */
export async function queueMail(executor: Executor, jobs: JobQueue, clock: Clock, mail: OutgoingMail): Promise<string> {
  const id = newId();
  const secrets = mail.secrets ?? [];
  await insertOutboxMail(executor, {
    id,
    to_address: mail.to,
    subject: mail.subject,
    text_body: mail.text,
    html_body: mail.html ?? null,
    redacted_text_body: secrets.length > 0 ? cutSecrets(mail.text, secrets) : null,
    redacted_html_body: secrets.length > 0 && mail.html !== undefined ? cutSecrets(mail.html, secrets) : null,
    status: "pending",
    reference: mail.reference ?? null,
    created_at: clock.now().toISOString(),
    sending_at: null,
    sent_at: null,
    last_error: null,
  });
  await jobs.enqueue(MAIL_DELIVERY_JOB, { outboxId: id }, { executor, dedupeKey: `mail:${id}`, maxAttempts: MAIL_MAX_ATTEMPTS });
  return id;
}

export type DeliveryOutcome = "sent" | "already-sent" | "interrupted" | "gave-up" | "missing";

/**
 * Sends one outbox mail at most once: the row is claimed (pending -> sending) in its own statement
 * before the mailer is called. A failure puts it back to pending and throws, so the job retries it
 * later; after MAIL_MAX_ATTEMPTS it is marked failed. A row found still "sending" means a delivery
 * was interrupted (a crash between claiming and finishing): the mail may or may not have left, so
 * it is marked failed rather than sent again — a crash never sends a mail twice. Once sent or
 * failed for good, the stored body loses its secrets (OutgoingMail.secrets; mail.queries.ts).
 */
export async function deliverOutboxMail(db: Executor, mailer: Mailer, clock: Clock, outboxId: string, from: string): Promise<DeliveryOutcome> {
  const now = clock.now().toISOString();
  if (!(await claimOutboxMail(db, outboxId, now))) {
    const row = await findOutboxMail(db, outboxId);
    if (!row) return "missing";
    if (row.status === "sending") {
      await finishOutboxMail(db, outboxId, { status: "failed", error: "Interrupted while sending; not sent again so it cannot arrive twice" });
      mailFailed.inc({ reason: "interrupted" });
      return "interrupted";
    }
    return row.status === "sent" ? "already-sent" : "gave-up";
  }
  const row = (await findOutboxMail(db, outboxId))!;
  try {
    await mailer.send({ id: row.id, from, to: row.to_address, subject: row.subject, text: row.text_body, html: row.html_body, date: new Date(row.created_at) });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const last = row.attempts >= MAIL_MAX_ATTEMPTS;
    await finishOutboxMail(db, outboxId, { status: last ? "failed" : "pending", error: message });
    if (last) {
      mailFailed.inc({ reason: "attempts" });
      return "gave-up";
    }
    throw new Error(`Mail ${outboxId} to ${row.to_address} not sent (attempt ${row.attempts} of ${MAIL_MAX_ATTEMPTS}): ${message}`);
  }
  await finishOutboxMail(db, outboxId, { status: "sent", at: clock.now().toISOString() });
  return "sent";
}

/** The outbox's deliverer on the job worker of every server process (the job lease makes one of them send). */
export function mailJobs(worker: JobWorker, deps: AppDeps): void {
  const mailer = createMailer(deps.config);
  worker.register<{ outboxId: string }>(MAIL_DELIVERY_JOB, async ({ payload }) => ({
    outcome: await deliverOutboxMail(deps.database.db, mailer, deps.clock, payload.outboxId, deps.config.mailFrom),
  }));
}
