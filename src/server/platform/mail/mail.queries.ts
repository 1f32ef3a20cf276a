import type { Insertable, Selectable } from "kysely";
import type { MailOutboxTable } from "../db/schema.ts";
import type { Executor } from "../db/executor.ts";

/** The only place SQL for the mail outbox lives. */

export type OutboxRow = Selectable<MailOutboxTable>;

export async function insertOutboxMail(db: Executor, row: Insertable<MailOutboxTable>): Promise<void> {
  await db.insertInto("mail_outbox").values(row).execute();
}

export async function findOutboxMail(db: Executor, id: string): Promise<OutboxRow | undefined> {
  return db.selectFrom("mail_outbox").selectAll().where("id", "=", id).executeTakeFirst();
}

/** pending -> sending, only from pending: exactly one deliverer gets to send it. */
export async function claimOutboxMail(db: Executor, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable("mail_outbox")
    .set((eb) => ({ status: "sending", sending_at: now, attempts: eb("attempts", "+", 1) }))
    .where("id", "=", id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Records a delivery's outcome (only from sending). Sent, or failed for good, the body is replaced
 * by its copy with the secrets cut, in the same statement: from then on the row holds no usable
 * token. Back to pending (a retry), the body stays whole, as the next attempt needs it.
 */
export async function finishOutboxMail(db: Executor, id: string, outcome: { status: "sent"; at: string } | { status: "pending" | "failed"; error: string }): Promise<void> {
  const changes = outcome.status === "sent" ? { status: "sent" as const, sent_at: outcome.at, last_error: null } : { status: outcome.status, last_error: outcome.error.slice(0, 2000) };
  await db
    .updateTable("mail_outbox")
    .set((eb) =>
      outcome.status === "pending"
        ? changes
        : {
            ...changes,
            text_body: eb.fn.coalesce("redacted_text_body", "text_body"),
            html_body: eb.case().when("redacted_text_body", "is not", null).then(eb.ref("redacted_html_body")).else(eb.ref("html_body")).end(),
            redacted_text_body: null,
            redacted_html_body: null,
          },
    )
    .where("id", "=", id)
    .where("status", "=", "sending")
    .execute();
}

/** The mails about one thing (e.g. "invitation:<id>"), newest first (tests, support). */
export async function selectOutboxByReference(db: Executor, reference: string): Promise<OutboxRow[]> {
  return db.selectFrom("mail_outbox").selectAll().where("reference", "=", reference).orderBy("created_at", "desc").orderBy("id", "desc").execute();
}
