import type { Kysely } from "kysely";

/**
 * The outbox keeps no usable invitation token (docs/product.md §14.6, issue 18: the whole accept
 * link stayed in `mail_outbox.text_body` forever, and reading it was enough to accept as admin):
 * - `mail_outbox.redacted_text_body` / `redacted_html_body`: the body with its secrets cut, written
 *   when the mail is queued; once the mail is sent or has finally failed it replaces the body and
 *   is cleared (mail/mail.queries.ts). Null when the body holds no secret.
 * - Mails already sent or failed lose the token of their accept link now; pending ones get their
 *   cut copy, so they lose it when they are sent.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("mail_outbox").addColumn("redacted_text_body", "text").execute();
  await db.schema.alterTable("mail_outbox").addColumn("redacted_html_body", "text").execute();
  await cutStoredInvitationTokens(db);
}

/** What stands where a token was. The same words as mail/mail-outbox.ts writes (a copy: migrations never change). */
const CUT = "[removed once sent]";
/** The token of an accept link, as invitation mails wrote it: `/accept-invite?token=<base64url>`. */
const ACCEPT_TOKEN = /(\/accept-invite\?token=)[A-Za-z0-9_%-]+/g;
const PAGE_ROWS = 500;

const cut = (text: string | null): string | null => (text === null ? null : text.replace(ACCEPT_TOKEN, `$1${CUT}`));

/**
 * Cuts the accept-link tokens out of the invitation mails already in the outbox, page by page (the
 * outbox holds a row per invitation sent: a handful). Exported for its test.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as up
export async function cutStoredInvitationTokens(db: Kysely<any>): Promise<void> {
  let after = "";
  for (;;) {
    const rows = (await db
      .selectFrom("mail_outbox")
      .select(["id", "status", "text_body", "html_body"])
      .where("id", ">", after)
      .where("reference", "like", "invitation:%")
      .orderBy("id")
      .limit(PAGE_ROWS)
      .execute()) as Array<{ id: string; status: string; text_body: string; html_body: string | null }>;
    for (const row of rows) {
      const text = cut(row.text_body)!;
      const html = cut(row.html_body);
      if (text === row.text_body && html === row.html_body) continue;
      const finished = row.status === "sent" || row.status === "failed";
      await db
        .updateTable("mail_outbox")
        .set(finished ? { text_body: text, html_body: html } : { redacted_text_body: text, redacted_html_body: html })
        .where("id", "=", row.id)
        .execute();
    }
    if (rows.length < PAGE_ROWS) return;
    after = rows[rows.length - 1]!.id;
  }
}
