import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { inviteResponseSchema } from "../../../contract/admin-users.ts";
import { signInResponseSchema } from "../../../contract/auth.ts";
import { forbiddenIdentityCharacter, identityTextSchema, withoutForbiddenIdentityCharacters } from "../../../contract/common.ts";
import { cutStoredInvitationTokens } from "../../platform/db/migrations/012-mail-outbox-secrets.ts";
import { JobWorker } from "../../platform/jobs/job-worker.ts";
import { CUT_SECRET, mailJobs } from "../../platform/mail/mail-outbox.ts";
import { databaseChecksum } from "../../testing/db-checksum.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";

type TestUser = Awaited<ReturnType<TestContext["createUser"]>>;
type ErrorAnswer = { error: { code: string; message: string; fields?: Record<string, string> } };
const GOOD_PASSWORD = "a long enough passphrase";
const INVITER_REMOVED = "This invitation was revoked: the administrator who sent it no longer has access. Ask an administrator for a new one.";

/** Issue 18 findings 2, 3 and 8: invitation tokens at rest, a removed admin's invitations, names with control characters. */
describe.each(testDatabaseKinds)("invitation attacks on %s", (kind) => {
  let t: TestContext;
  let root: TestUser;
  let mailDir: string;
  let worker: JobWorker;

  beforeEach(async () => {
    mailDir = mkdtempSync(join(tmpdir(), "hki-invite-mail-"));
    t = await createTestContext(kind, { env: { MAIL_DIR: mailDir } });
    root = await t.createUser({ email: "ops@hki.global" });
    worker = new JobWorker(t.database, t.clock);
    mailJobs(worker, t.deps);
  });
  afterEach(async () => {
    await worker.stop();
    await t.close();
    rmSync(mailDir, { recursive: true, force: true });
  });

  const errorOf = async (res: Response) => ((await res.json()) as ErrorAnswer).error;
  const invite = async (by: { token: string }, email: string, role: "admin" | "viewer") => {
    const res = await t.request("/api/admin/users/invite", { method: "POST", token: by.token, json: { email, role } });
    expect(res.status, await res.clone().text()).toBe(201);
    return inviteResponseSchema.parse(await res.json()).invitation;
  };
  const tokenOf = (link: string | null) => new URL(link!).searchParams.get("token")!;
  const accept = (token: string, name = "New Colleague") => t.request("/api/auth/invitations/accept", { method: "POST", json: { token, name, password: GOOD_PASSWORD } });
  const check = (token: string) => t.request("/api/auth/invitations/check", { method: "POST", json: { token } });
  const outbox = () => t.database.db.selectFrom("mail_outbox").selectAll().orderBy("created_at").orderBy("id").execute();
  const auditOf = (action: string) => t.database.db.selectFrom("audit_log").selectAll().where("action", "=", action).orderBy("created_at").orderBy("id").execute();

  describe("finding 2: the outbox keeps no usable token once the mail is sent", () => {
    it("the attack: reading mail_outbox after delivery and posting the token no longer makes an admin", async () => {
      const sent = await invite(root, "new-admin@example.com", "admin");
      const token = tokenOf(sent.link);
      // Until it is sent, the outbox needs the whole link to deliver it.
      expect((await outbox())[0]!.text_body).toContain(token);

      expect(await worker.runOnce()).toBe(true);
      const [row] = await outbox();
      expect(row!.status).toBe("sent");
      expect(JSON.stringify(row)).not.toContain(token);
      expect(row!.text_body).toContain(`/accept-invite?token=${CUT_SECRET}`);
      expect(row!.text_body).toContain("as an administrator (every screen and every action)");
      // What the attacker can read from the row is no token.
      const stolen = /token=(\S+)/.exec(row!.text_body)![1]!;
      expect(stolen).not.toBe(token);
      const before = await databaseChecksum(t.database.db, { exclude: ["rate_limits", "error_logs", "error_log_counts", "error_log_drops"] });
      expect((await accept(stolen)).status).toBe(404);
      expect((await accept(CUT_SECRET)).status).toBe(404);
      expect(await databaseChecksum(t.database.db, { exclude: ["rate_limits", "error_logs", "error_log_counts", "error_log_drops"] })).toEqual(before);

      // The invitee's own mail still carries the working link.
      const [file] = readdirSync(mailDir);
      const delivered = await simpleParser(readFileSync(join(mailDir, file!)));
      expect(delivered.text).toContain(sent.link!);
      const ok = await accept(tokenOf(sent.link));
      expect(ok.status).toBe(200);
      expect(signInResponseSchema.parse(await ok.json()).user).toMatchObject({ email: "new-admin@example.com", role: "admin" });
    });

    it("invitation mails stored before the fix lose their token (migration 012); pending ones keep it until they are sent", async () => {
      const sent = await invite(root, "old-sent@example.com", "admin");
      const pending = await invite(root, "old-pending@example.com", "viewer");
      const [first, second] = await outbox();
      // As the outbox held them before: whole bodies, no cut copies; the first already sent.
      await t.database.db
        .updateTable("mail_outbox")
        .set({ status: "sent", sent_at: t.clock.now().toISOString(), redacted_text_body: null, redacted_html_body: null })
        .where("id", "=", first!.id)
        .execute();
      await t.database.db.updateTable("mail_outbox").set({ redacted_text_body: null, redacted_html_body: null }).where("id", "=", second!.id).execute();
      await t.database.db
        .insertInto("mail_outbox")
        .values({
          id: "0190ffff-0000-7000-8000-000000000001",
          to_address: "x@example.com",
          subject: "Other",
          text_body: "no link here",
          html_body: null,
          status: "sent",
          reference: "other:1",
          created_at: t.clock.now().toISOString(),
          sending_at: null,
          sent_at: null,
          last_error: null,
        })
        .execute();

      await cutStoredInvitationTokens(t.database.db);
      const rows = await outbox();
      const byId = new Map(rows.map((r) => [r.id, r]));
      expect(byId.get(first!.id)!.text_body).not.toContain(tokenOf(sent.link));
      expect(byId.get(first!.id)!.text_body).toContain(`/accept-invite?token=${CUT_SECRET}`);
      expect(byId.get(second!.id)!.text_body).toContain(tokenOf(pending.link));
      expect(byId.get(second!.id)!.redacted_text_body).toContain(`/accept-invite?token=${CUT_SECRET}`);
      expect(byId.get("0190ffff-0000-7000-8000-000000000001")!.text_body).toBe("no link here");
      // The pending one loses it when it goes out.
      while (await worker.runOnce());
      const after = (await outbox()).find((r) => r.id === second!.id)!;
      expect(after.status).toBe("sent");
      expect(after.text_body).not.toContain(tokenOf(pending.link));
      expect(after.redacted_text_body).toBeNull();
    });
  });

  describe("finding 3: a removed admin's invitations stop working", () => {
    let inviter: TestUser;
    beforeEach(async () => {
      inviter = await t.createUser({ email: "admin-a@example.com", role: "admin" });
    });

    it("the attack: A invites as admin, A's access is removed; the invitation is refused and the audit row lists it", async () => {
      const sent = await invite(inviter, "friend-of-a@example.com", "admin");
      const other = await invite(root, "kept@example.com", "viewer");
      const res = await t.request(`/api/admin/users/${inviter.id}/access`, { method: "DELETE", token: root.token });
      expect(res.status).toBe(200);
      expect((await t.request("/api/auth/me", { token: inviter.token })).status).toBe(401);

      const before = await databaseChecksum(t.database.db, { exclude: ["rate_limits", "error_logs", "error_log_counts", "error_log_drops"] });
      const refused = await accept(tokenOf(sent.link));
      expect(refused.status).toBe(410);
      expect(await errorOf(refused)).toMatchObject({ code: "invitation_revoked", message: INVITER_REMOVED });
      expect((await check(tokenOf(sent.link))).status).toBe(410);
      expect(await databaseChecksum(t.database.db, { exclude: ["rate_limits", "error_logs", "error_log_counts", "error_log_drops"] })).toEqual(before);
      expect(await t.database.db.selectFrom("users").select("id").where("email", "=", "friend-of-a@example.com").execute()).toEqual([]);

      const [audit] = await auditOf("user.access_remove");
      expect(JSON.parse(audit!.details)).toEqual({ sessionsRevoked: 1, invitationsRevoked: [{ id: sent.id, email: "friend-of-a@example.com", role: "admin" }] });
      const row = await t.database.db.selectFrom("user_invitations").select(["revoked_at", "revoked_reason"]).where("id", "=", sent.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ revoked_at: "2026-11-22T12:00:00.000Z", revoked_reason: "inviter_removed" });
      // Another admin's invitation is untouched.
      expect((await check(tokenOf(other.link))).status).toBe(200);
      const listed = (await (await t.request("/api/admin/users/invitations", { token: root.token })).json()) as { invitations: Array<{ id: string }> };
      expect(listed.invitations.map((i) => i.id)).toEqual([other.id]);
    });

    it("making A a viewer revokes A's pending invitations too, and says so in the audit row", async () => {
      const sent = await invite(inviter, "viewer-friend@example.com", "viewer");
      const res = await t.request(`/api/admin/users/${inviter.id}`, { method: "PATCH", token: root.token, json: { role: "viewer" } });
      expect(res.status).toBe(200);
      const refused = await accept(tokenOf(sent.link));
      expect(refused.status).toBe(410);
      expect((await errorOf(refused)).message).toBe(INVITER_REMOVED);
      const [audit] = await auditOf("user.role_change");
      expect(JSON.parse(audit!.details)).toEqual({ invitationsRevoked: [{ id: sent.id, email: "viewer-friend@example.com", role: "viewer" }] });
      // Revoking it again by hand is a conflict: it is no longer open.
      expect((await t.request(`/api/admin/users/invitations/${sent.id}`, { method: "DELETE", token: root.token })).status).toBe(409);
    });

    it("an invitation whose sender stopped being an admin any other way (the command line, the account gone) grants nothing", async () => {
      const sent = await invite(inviter, "via-cli@example.com", "admin");
      await t.database.db.updateTable("users").set({ role: "user" }).where("id", "=", inviter.id).execute();
      const refused = await accept(tokenOf(sent.link));
      expect(refused.status).toBe(410);
      expect((await errorOf(refused)).message).toBe(INVITER_REMOVED);
      expect((await check(tokenOf(sent.link))).status).toBe(410);
      // An admin again: the invitation, never revoked, works.
      await t.database.db.updateTable("users").set({ role: "admin" }).where("id", "=", inviter.id).execute();
      expect((await check(tokenOf(sent.link))).status).toBe(200);
      await t.database.db.deleteFrom("sessions").where("user_id", "=", inviter.id).execute();
      await t.database.db.deleteFrom("users").where("id", "=", inviter.id).execute();
      expect((await accept(tokenOf(sent.link))).status).toBe(410);
    });
  });

  describe("finding 8: names refuse control, invisible and direction-changing characters", () => {
    const HOSTILE_NAMES: Array<[string, string]> = [
      ["Eve\r\nBcc: victim@example.com", "U+000D"],
      ["Eve\nSecond line", "U+000A"],
      ["Eve \u001b[31mred", "U+001B"],
      ["Eve\u202Egnp.exe", "U+202E"],
      ["Eve\u2066isolated\u2069", "U+2066"],
      ["E\u200Bve", "U+200B"],
      ["E\u200Dve", "U+200D"],
      ["E\u2060ve", "U+2060"],
      ["Eve\u2028next", "U+2028"],
      ["Eve\u0000", "U+0000"],
      ["Eve\u0085", "U+0085"],
    ];

    it("the attack: the accept form refuses each with a field error, and nothing changes", async () => {
      const sent = await invite(root, "named@example.com", "viewer");
      const before = await databaseChecksum(t.database.db, { exclude: ["rate_limits", "error_logs", "error_log_counts", "error_log_drops"] });
      for (const [name, found] of HOSTILE_NAMES) {
        const res = await accept(tokenOf(sent.link), name);
        expect(res.status, JSON.stringify(name)).toBe(400);
        const error = await errorOf(res);
        expect(Object.keys(error.fields ?? {}), JSON.stringify(name)).toEqual(["name"]);
        if (found !== "U+0000") expect(error.fields!.name).toBe(`must not contain control, invisible or direction-changing characters (found ${found})`);
      }
      // A lone surrogate can only come as a JSON escape.
      const lone = await t.app.request("/api/auth/invitations/accept", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: `{"token":"${tokenOf(sent.link)}","name":"Eve\\ud800","password":"${GOOD_PASSWORD}"}`,
      });
      expect(lone.status).toBe(400);
      expect((await errorOf(lone)).fields).toEqual({ name: "must not contain control, invisible or direction-changing characters (found U+D800)" });
      expect(await databaseChecksum(t.database.db, { exclude: ["rate_limits", "error_logs", "error_log_counts", "error_log_drops"] })).toEqual(before);
    });

    it("keeps names in any script, stored normalised (NFC)", async () => {
      const sent = await invite(root, "zoe@example.com", "viewer");
      const res = await accept(tokenOf(sent.link), "  Zoe\u0308 O\u2019Brien-李 😀 ");
      expect(res.status).toBe(200);
      expect(signInResponseSchema.parse(await res.json()).user.name).toBe("Zoë O\u2019Brien-李 😀");
      const row = await t.database.db.selectFrom("users").select("name").where("email", "=", "zoe@example.com").executeTakeFirstOrThrow();
      expect(row.name).toBe("Zo\u00EB O\u2019Brien-李 😀");
      expect(row.name).toBe(row.name!.normalize("NFC"));
    });

    it("a name stored before the rule cannot add lines to the mails its owner sends", async () => {
      const mallory = await t.createUser({ email: "mallory@example.com", role: "admin" });
      await t.database.db.updateTable("users").set({ name: "Mallory\r\nURGENT: reset your password at http://evil.example\u202E" }).where("id", "=", mallory.id).execute();
      await invite(mallory, "victim@example.com", "viewer");
      const [row] = await outbox();
      const lines = row!.text_body.split(/\r?\n/);
      expect(lines[0]).toBe("MalloryURGENT: reset your password at http://evil.example (mallory@example.com) invited you to HKI Global Admin as a viewer (every screen, read-only).");
      expect(lines.filter((l) => l.startsWith("URGENT"))).toEqual([]);
      expect(row!.text_body).not.toMatch(/[\r\u202E]/);
    });
  });
});

describe("the identity-text rule (src/contract/common.ts)", () => {
  const schema = identityTextSchema({ max: 20, requiredMessage: "name is required" });

  it("names the first forbidden character and strips them all for display", () => {
    expect(forbiddenIdentityCharacter("Zoë 李 😀 O’Brien")).toBeNull();
    expect(forbiddenIdentityCharacter("a\u00ADb")).toBe("U+00AD");
    expect(forbiddenIdentityCharacter("a\uFEFFb")).toBe("U+FEFF");
    expect(forbiddenIdentityCharacter("a\uDC00")).toBe("U+DC00");
    expect(withoutForbiddenIdentityCharacters("a\r\nb\u202Ec\u200Bd\uD800")).toBe("abcd");
  });

  it("trims, normalises to NFC, and counts after normalising", () => {
    expect(schema.parse("  e\u0301  ")).toBe("\u00E9");
    expect(schema.safeParse("   ").error?.issues[0]?.message).toBe("name is required");
    expect(schema.safeParse("x".repeat(21)).success).toBe(false);
    expect(schema.safeParse("a\u0009b").success).toBe(false);
  });
});
