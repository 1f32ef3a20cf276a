import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { inviteResponseSchema } from "../../../contract/admin-users.ts";
import { JobWorker } from "../jobs/job-worker.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { CUT_SECRET, MAIL_MAX_ATTEMPTS, cutSecrets, deliverOutboxMail, mailJobs, queueMail } from "./mail-outbox.ts";
import { FolderMailer, createMailer } from "./mailer.ts";

/** A real SMTP server on 127.0.0.1 (smtp-server), keeping what it receives; it can refuse the next messages. */
function startSmtpServer(): Promise<{ port: number; received: ParsedMail[]; refuseNext: (n: number) => void; close: () => Promise<void> }> {
  const received: ParsedMail[] = [];
  let refusals = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          if (refusals > 0) {
            refusals--;
            const err = Object.assign(new Error("Mailbox busy, try again later"), { responseCode: 451 });
            callback(err);
            return;
          }
          received.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      resolve({ port, received, refuseNext: (n) => (refusals = n), close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

describe.each(testDatabaseKinds)("the mailer and its outbox on %s (docs/product.md §14.6)", (kind) => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: TestContext;
  let worker: JobWorker;
  let admin: Awaited<ReturnType<TestContext["createUser"]>>;

  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await smtp.close();
  });
  beforeEach(async () => {
    smtp.received.length = 0;
    smtp.refuseNext(0);
    t = await createTestContext(kind, { env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: "HKI Global Admin <no-reply@hki.global>" } });
    admin = await t.createUser({ email: "ops@hki.global" });
    worker = new JobWorker(t.database, t.clock, { retryBaseMs: 1000 });
    mailJobs(worker, t.deps);
  });
  afterEach(async () => {
    await worker.stop();
    await t.close();
  });

  const outbox = () => t.database.db.selectFrom("mail_outbox").selectAll().execute();
  const inviteSomeone = async () => {
    const res = await t.request("/api/admin/users/invite", { method: "POST", token: admin.token, json: { email: "invitee@example.com", role: "viewer" } });
    expect(res.status).toBe(201);
    return inviteResponseSchema.parse(await res.json()).invitation;
  };

  it("delivers the invitation e-mail over SMTP once, with the link, from MAIL_FROM", async () => {
    const invitation = await inviteSomeone();
    expect(smtp.received).toHaveLength(0);
    expect(await worker.runOnce()).toBe(true);
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.subject).toBe("You are invited to HKI Global Admin");
    expect(mail.from?.text).toBe('"HKI Global Admin" <no-reply@hki.global>');
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : "").toBe("invitee@example.com");
    expect(mail.text).toContain(invitation.link!);
    expect(mail.text).toContain("ops@hki.global invited you to HKI Global Admin as a viewer (every screen, read-only).");
    const [row] = await outbox();
    expect(row).toMatchObject({ status: "sent", attempts: 1, sent_at: "2026-11-22T12:00:00.000Z", redacted_text_body: null });
    // Sent: the stored body keeps the mail but not the token (issue 18 finding 2).
    const token = new URL(invitation.link!).searchParams.get("token")!;
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row!.text_body).toBe(mail.text!.trimEnd().replace(token, CUT_SECRET));
    expect(mail.messageId).toBe(`<${row!.id}@hki-global-admin>`);
    // Nothing left to do: no second delivery.
    expect(await worker.runOnce()).toBe(false);
    expect(await deliverOutboxMail(t.database.db, createMailer(t.config), t.clock, row!.id, t.config.mailFrom)).toBe("already-sent");
    expect(smtp.received).toHaveLength(1);
  });

  it("retries a refused delivery later, and sends it exactly once when the server accepts", async () => {
    await inviteSomeone();
    smtp.refuseNext(2);
    expect(await worker.runOnce()).toBe(true);
    let [row] = await outbox();
    expect(row).toMatchObject({ status: "pending", attempts: 1 });
    expect(row!.last_error).toContain("Mailbox busy");
    // Not before its retry time.
    expect(await worker.runOnce()).toBe(false);
    t.clock.advance(1_000);
    expect(await worker.runOnce()).toBe(true);
    t.clock.advance(2_000);
    expect(await worker.runOnce()).toBe(true);
    [row] = await outbox();
    expect(row).toMatchObject({ status: "sent", attempts: 3 });
    expect(smtp.received).toHaveLength(1);
    const job = await t.database.db.selectFrom("jobs").select(["status", "attempts"]).where("kind", "=", "mail.deliver").executeTakeFirstOrThrow();
    expect(job).toEqual({ status: "completed", attempts: 3 });
  });

  it(`gives up after ${MAIL_MAX_ATTEMPTS} refusals and marks the mail failed, its token cut from the stored body`, async () => {
    const invitation = await inviteSomeone();
    const token = new URL(invitation.link!).searchParams.get("token")!;
    smtp.refuseNext(100);
    for (let i = 0; i < MAIL_MAX_ATTEMPTS; i++) {
      expect(await worker.runOnce(), `attempt ${i + 1}`).toBe(true);
      // Between attempts the body stays whole: the next attempt sends it.
      if (i < MAIL_MAX_ATTEMPTS - 1) expect((await outbox())[0]!.text_body).toContain(token);
      t.clock.advance(60_000);
    }
    const [row] = await outbox();
    expect(row).toMatchObject({ status: "failed", attempts: MAIL_MAX_ATTEMPTS, redacted_text_body: null });
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row!.text_body).toContain(`/accept-invite?token=${CUT_SECRET}`);
    expect(await worker.runOnce()).toBe(false);
    expect(smtp.received).toHaveLength(0);
  });

  it("never sends twice after a crash between claiming and finishing a delivery (and cuts the token then too)", async () => {
    const invitation = await inviteSomeone();
    const [row] = await outbox();
    // A worker claimed the mail and died before recording the outcome (its job lease then expires).
    await t.database.db.updateTable("mail_outbox").set({ status: "sending", attempts: 1, sending_at: t.clock.now().toISOString() }).where("id", "=", row!.id).execute();
    expect(await worker.runOnce()).toBe(true);
    const [after] = await outbox();
    expect(after).toMatchObject({ status: "failed", last_error: "Interrupted while sending; not sent again so it cannot arrive twice" });
    expect(JSON.stringify(after)).not.toContain(new URL(invitation.link!).searchParams.get("token")!);
    expect(smtp.received).toHaveLength(0);
  });

  it("keeps a mail without secrets as it was, and cuts every occurrence of each secret of one that has them", async () => {
    await queueMail(t.database.db, t.deps.jobs, t.clock, { to: "plain@example.com", subject: "Plain", text: "Nothing secret" });
    await queueMail(t.database.db, t.deps.jobs, t.clock, { to: "two@example.com", subject: "Two", text: "a=S1 b=S2 again S1", html: "<p>S1</p>", secrets: ["S1", "S2", ""] });
    expect(await worker.runOnce()).toBe(true);
    expect(await worker.runOnce()).toBe(true);
    const rows = await outbox();
    const plain = rows.find((r) => r.to_address === "plain@example.com")!;
    const two = rows.find((r) => r.to_address === "two@example.com")!;
    expect(plain).toMatchObject({ status: "sent", text_body: "Nothing secret", html_body: null, redacted_text_body: null });
    expect(two).toMatchObject({
      status: "sent",
      text_body: `a=${CUT_SECRET} b=${CUT_SECRET} again ${CUT_SECRET}`,
      html_body: `<p>${CUT_SECRET}</p>`,
      redacted_text_body: null,
      redacted_html_body: null,
    });
    expect(smtp.received.map((m) => m.text?.trim())).toEqual(expect.arrayContaining(["Nothing secret", "a=S1 b=S2 again S1"]));
    expect(cutSecrets("xx", [])).toBe("xx");
  });

  it("queues nothing when the change that asked for the mail rolls back", async () => {
    await expect(
      t.database.db.transaction().execute(async (trx) => {
        await queueMail(trx, t.deps.jobs, t.clock, { to: "x@example.com", subject: "s", text: "t" });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await outbox()).toEqual([]);
    expect(await worker.runOnce()).toBe(false);
  });
});

describe("the .eml folder mailer (no SMTP_URL)", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "hki-mail-"));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("is the default, writes one readable .eml per mail, and a retry replaces the same file", async () => {
    const mailer = createMailer({ smtpUrl: undefined, mailDir: dir });
    expect(mailer).toBeInstanceOf(FolderMailer);
    expect(mailer.destination).toBe(dir);
    const message = {
      id: "0190aaaa-0000-7000-8000-000000000001",
      from: "HKI Global Admin <no-reply@hki.global>",
      to: "a@example.com",
      subject: "Hello",
      text: "Open http://x.test/accept-invite?token=abc",
      date: new Date("2026-11-22T12:00:00.000Z"),
    };
    await mailer.send(message);
    await mailer.send(message);
    const files = readdirSync(dir);
    expect(files).toEqual(["2026-11-22T12-00-00-000Z-0190aaaa-0000-7000-8000-000000000001.eml"]);
    const parsed = await simpleParser(readFileSync(join(dir, files[0]!)));
    expect(parsed.subject).toBe("Hello");
    expect(parsed.text?.trim()).toBe("Open http://x.test/accept-invite?token=abc");
    expect(parsed.messageId).toBe("<0190aaaa-0000-7000-8000-000000000001@hki-global-admin>");
  });

  it("delivers queued mail into the folder through the same job", async () => {
    const t = await createTestContext("sqlite", { env: { MAIL_DIR: dir } });
    try {
      const worker = new JobWorker(t.database, t.clock);
      mailJobs(worker, t.deps);
      await queueMail(t.database.db, t.deps.jobs, t.clock, { to: "b@example.com", subject: "Folder", text: "Body" });
      expect(await worker.runOnce()).toBe(true);
      expect(readdirSync(dir)).toHaveLength(1);
      await worker.stop();
    } finally {
      await t.close();
    }
  });
});
