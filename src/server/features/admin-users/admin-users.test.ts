import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  adminUserResponseSchema,
  adminUsersResponseSchema,
  invitationCheckResponseSchema,
  invitationsResponseSchema,
  inviteResponseSchema,
  removeAccessResponseSchema,
  revokeSessionsResponseSchema,
  userSessionsResponseSchema,
} from "../../../contract/admin-users.ts";
import { meResponseSchema, signInResponseSchema } from "../../../contract/auth.ts";
import { databaseChecksum } from "../../testing/db-checksum.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { AdminUsersService } from "./admin-users.service.ts";

type TestUser = Awaited<ReturnType<TestContext["createUser"]>>;
const DAY_MS = 86_400_000;
const GOOD_PASSWORD = "a long enough passphrase";

describe.each(testDatabaseKinds)("staff, roles and invitations API on %s (docs/product.md §14)", (kind) => {
  let t: TestContext;
  let admin: TestUser;

  beforeEach(async () => {
    t = await createTestContext(kind);
    admin = await t.createUser({ email: "ops@hki.global" });
  });
  afterEach(async () => {
    await t.close();
  });

  const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string; fields?: Record<string, string> } }).error;
  const as = (user: { token: string }, method: string, path: string, json?: unknown) =>
    t.request(path, { method, token: user.token, headers: { "user-agent": "staff-tests", "x-request-id": "req-staff-1" }, ...(json !== undefined ? { json } : {}) });
  const listUsers = async (query = "") => {
    const res = await as(admin, "GET", `/api/admin/users${query}`);
    expect(res.status).toBe(200);
    return adminUsersResponseSchema.parse(await res.json());
  };
  const invite = async (email: string, role: "admin" | "finance" | "support" | "viewer", by: { token: string } = admin) => {
    const res = await as(by, "POST", "/api/admin/users/invite", { email, role });
    expect(res.status, await res.clone().text()).toBe(201);
    return inviteResponseSchema.parse(await res.json()).invitation;
  };
  const tokenOf = (link: string | null) => new URL(link!).searchParams.get("token")!;
  const accept = (token: string, password = GOOD_PASSWORD, name = "New Colleague") => t.request("/api/auth/invitations/accept", { method: "POST", json: { token, name, password } });
  const check = (token: string) => t.request("/api/auth/invitations/check", { method: "POST", json: { token } });
  const auditRows = (action: string) => t.database.db.selectFrom("audit_log").selectAll().where("action", "=", action).orderBy("created_at").orderBy("id").execute();
  const checksum = () => databaseChecksum(t.database.db, { exclude: ["rate_limits", "error_logs", "error_log_counts", "error_log_drops"] });

  describe("the Users list", () => {
    it("lists everyone with panel access (by role and by domain), with how, sessions and last sign-in; nobody else", async () => {
      const viewer = await t.createUser({ email: "accountant@example.com", role: "viewer" });
      await t.createUser({ email: "artist@example.com" });
      await t.createUser({ email: "roleadmin@example.com", role: "admin" });
      const page = await listUsers();
      expect(page.users.map((u) => u.email)).toEqual(["accountant@example.com", "ops@hki.global", "roleadmin@example.com", "root-admin@hki.global"]);
      expect(page.total).toBe(4);
      expect(page.nextCursor).toBeNull();
      const byEmail = Object.fromEntries(page.users.map((u) => [u.email, u]));
      expect(byEmail["accountant@example.com"]).toMatchObject({ id: viewer.id, role: "viewer", access: "role", activeSessions: 1, lastSignInAt: "2026-11-22T12:00:00.000Z" });
      expect(byEmail["ops@hki.global"]).toMatchObject({ role: "admin", access: "domain", activeSessions: 1 });
      expect(byEmail["roleadmin@example.com"]).toMatchObject({ role: "admin", access: "role" });
      expect(byEmail["root-admin@hki.global"]).toMatchObject({ role: "admin", access: "role", activeSessions: 0, lastSignInAt: null });
    });

    it("searches e-mail and name, filters by role and pages by cursor", async () => {
      for (let i = 0; i < 5; i++) await t.createUser({ email: `viewer${i}@example.com`, role: "viewer" });
      await t.database.db.updateTable("users").set({ name: "Zoë 100%_Match" }).where("email", "=", "viewer3@example.com").execute();
      expect((await listUsers("?search=VIEWER1")).users.map((u) => u.email)).toEqual(["viewer1@example.com"]);
      expect((await listUsers("?search=zoë")).users.map((u) => u.email)).toEqual(["viewer3@example.com"]);
      // LIKE wildcards in the search are literal characters.
      expect((await listUsers("?search=100%25_")).users.map((u) => u.email)).toEqual(["viewer3@example.com"]);
      expect((await listUsers("?search=%25")).users.map((u) => u.email)).toEqual(["viewer3@example.com"]);
      expect((await listUsers("?role=admin")).users.map((u) => u.email)).toEqual(["ops@hki.global", "root-admin@hki.global"]);
      expect((await listUsers("?role=viewer")).total).toBe(5);

      const first = await listUsers("?limit=3");
      expect(first.users).toHaveLength(3);
      expect(first.total).toBe(7);
      const second = await listUsers(`?limit=3&cursor=${first.nextCursor}`);
      const third = await listUsers(`?limit=3&cursor=${second.nextCursor}`);
      expect(third.nextCursor).toBeNull();
      const all = [...first.users, ...second.users, ...third.users].map((u) => u.email);
      expect(all).toEqual([...all].sort());
      expect(new Set(all).size).toBe(7);
      expect((await as(admin, "GET", "/api/admin/users?cursor=nonsense")).status).toBe(400);
      expect((await as(admin, "GET", "/api/admin/users?role=user")).status).toBe(400);
    });

    it("is readable by a viewer, who cannot change anything", async () => {
      const viewer = await t.createUser({ email: "support@example.com", role: "viewer" });
      expect((await as(viewer, "GET", "/api/admin/users")).status).toBe(200);
      const res = await as(viewer, "POST", "/api/admin/users/invite", { email: "x@example.com", role: "viewer" });
      expect(res.status).toBe(403);
      expect((await errorOf(res)).message).toBe("Read-only access: viewers cannot make changes");
      const me = meResponseSchema.parse(await (await as(viewer, "GET", "/api/auth/me")).json());
      expect(me.user).toMatchObject({ role: "viewer", isAdmin: false, staffRole: "viewer", panelAccess: true, canWrite: false });
      const adminMe = meResponseSchema.parse(await (await as(admin, "GET", "/api/auth/me")).json());
      expect(adminMe.user).toMatchObject({ isAdmin: true, staffRole: "admin", panelAccess: true, canWrite: true });
    });
  });

  describe("invitations", () => {
    it("invites with a single-use link valid 7 days, stores only the token's hash, queues the e-mail and audits it", async () => {
      const sent = await invite("New.Colleague@Example.com", "viewer");
      expect(sent).toMatchObject({ email: "new.colleague@example.com", role: "viewer", expiresAt: new Date(Date.parse("2026-11-22T12:00:00.000Z") + 7 * DAY_MS).toISOString() });
      // PUBLIC_URL starts the link (the test config's default, http://HOST:PORT), not the request's address (http://localhost here).
      expect(sent.link).toMatch(/^http:\/\/127\.0\.0\.1:3000\/accept-invite\?token=[\w-]{43}$/);
      const token = tokenOf(sent.link);
      const row = await t.database.db.selectFrom("user_invitations").selectAll().where("id", "=", sent.id).executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain(token);
      expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);

      const mails = await t.database.db.selectFrom("mail_outbox").selectAll().execute();
      expect(mails).toHaveLength(1);
      expect(mails[0]).toMatchObject({ to_address: "new.colleague@example.com", status: "pending", reference: `invitation:${sent.id}` });
      expect(mails[0]!.text_body).toContain(sent.link!);
      expect(mails[0]!.text_body).toContain("a viewer (every screen, read-only)");
      const jobs = await t.database.db.selectFrom("jobs").select(["kind", "payload"]).where("kind", "=", "mail.deliver").execute();
      expect(jobs.map((j) => JSON.parse(j.payload) as unknown)).toEqual([{ outboxId: mails[0]!.id }]);

      const [audit] = await auditRows("invitation.create");
      expect(audit).toMatchObject({
        actor_email: "ops@hki.global",
        actor_role: "admin",
        target_type: "invitation",
        target_id: sent.id,
        target_label: "new.colleague@example.com",
        user_agent: "staff-tests",
        request_id: "req-staff-1",
      });
      expect(JSON.parse(audit!.after_value!)).toEqual({ email: "new.colleague@example.com", role: "viewer", expiresAt: sent.expiresAt });

      const listed = invitationsResponseSchema.parse(await (await as(admin, "GET", "/api/admin/users/invitations")).json());
      expect(listed.invitations).toEqual([
        { id: sent.id, email: "new.colleague@example.com", role: "viewer", status: "pending", invitedBy: "ops@hki.global", createdAt: "2026-11-22T12:00:00.000Z", expiresAt: sent.expiresAt },
      ]);
    });

    it("re-inviting a pending e-mail replaces the invitation: the old link stops working", async () => {
      const first = await invite("twice@example.com", "viewer");
      t.clock.advance(60_000);
      const second = await invite("twice@example.com", "admin");
      expect(second.id).not.toBe(first.id);
      const old = await check(tokenOf(first.link));
      expect(old.status).toBe(410);
      expect((await errorOf(old)).message).toBe("This invitation was replaced by a newer one: use the link in the latest e-mail.");
      expect(invitationCheckResponseSchema.parse(await (await check(tokenOf(second.link))).json()).invitation).toMatchObject({ email: "twice@example.com", role: "admin" });
      const listed = invitationsResponseSchema.parse(await (await as(admin, "GET", "/api/admin/users/invitations")).json());
      expect(listed.invitations.map((i) => i.id)).toEqual([second.id]);
      expect(JSON.parse((await auditRows("invitation.create"))[1]!.details)).toMatchObject({ replaced: first.id });
    });

    it("refuses to invite someone who already has access (409), a viewer at the company domain (400) and bad input (400)", async () => {
      await t.createUser({ email: "already@example.com", role: "viewer" });
      for (const email of ["already@example.com", "ops@hki.global", "root-admin@hki.global"]) {
        const res = await as(admin, "POST", "/api/admin/users/invite", { email, role: "admin" });
        expect(res.status, email).toBe(409);
        expect((await errorOf(res)).message).toBe(`${email} already has access to the admin panel`);
      }
      const domain = await as(admin, "POST", "/api/admin/users/invite", { email: "new@hki.global", role: "viewer" });
      expect(domain.status).toBe(400);
      expect((await errorOf(domain)).fields).toEqual({ role: "addresses at @hki.global are always administrators: invite them as admin" });
      for (const body of [{ email: "not-an-email", role: "viewer" }, { email: "x@example.com", role: "user" }, { email: "x@example.com" }]) {
        expect((await as(admin, "POST", "/api/admin/users/invite", body)).status, JSON.stringify(body)).toBe(400);
      }
      expect(await t.database.db.selectFrom("user_invitations").select("id").execute()).toEqual([]);
      expect(await auditRows("invitation.create")).toEqual([]);
    });

    it("an accepted link signs the invitee in with the role; the same link never works twice", async () => {
      const sent = await invite("newbie@example.com", "viewer");
      const token = tokenOf(sent.link);
      const checked = invitationCheckResponseSchema.parse(await (await check(token)).json());
      expect(checked.invitation).toEqual({ email: "newbie@example.com", role: "viewer", expiresAt: sent.expiresAt });

      const res = await t.request("/api/auth/invitations/accept", { method: "POST", json: { token, name: "  Nina Newbie ", password: GOOD_PASSWORD }, headers: { "x-request-id": "req-accept" } });
      expect(res.status).toBe(200);
      const session = signInResponseSchema.parse(await res.json());
      expect(session.user).toMatchObject({ email: "newbie@example.com", name: "Nina Newbie", role: "viewer", isAdmin: false });
      const me = meResponseSchema.parse(await (await t.request("/api/auth/me", { token: session.token })).json());
      expect(me.user).toMatchObject({ role: "viewer", panelAccess: true, canWrite: false });
      expect((await t.request("/api/admin/vendors", { token: session.token })).status).toBe(200);
      expect((await t.request("/api/admin/errors/archive-all", { method: "POST", token: session.token, json: {} })).status).toBe(403);

      const [audit] = await auditRows("invitation.accept");
      expect(audit).toMatchObject({ actor_email: "newbie@example.com", actor_id: session.user.id, actor_role: "viewer", target_id: sent.id, request_id: "req-accept" });
      expect(JSON.parse(audit!.details)).toMatchObject({ invitedBy: "ops@hki.global", newAccount: true });

      const before = await checksum();
      const again = await accept(token);
      expect(again.status).toBe(410);
      expect((await errorOf(again)).message).toBe("This invitation was already used. Sign in with the password you chose.");
      expect((await check(token)).status).toBe(410);
      expect(await checksum()).toEqual(before);
      expect((await listUsers()).users.map((u) => u.email)).toContain("newbie@example.com");
    });

    it("expired, revoked and unknown links get a clear message and change nothing; weak passwords are refused", async () => {
      const expired = await invite("late@example.com", "viewer");
      t.clock.advance(7 * DAY_MS + 1);
      // Test sessions last an hour: a later admin acts with a fresh one.
      admin = await t.createUser({ email: "later-ops@hki.global" });
      const revoked = await invite("revoked@example.com", "admin");
      expect((await as(admin, "DELETE", `/api/admin/users/invitations/${revoked.id}`)).status).toBe(204);
      const weak = await invite("weak@example.com", "viewer");

      const before = await checksum();
      const late = await accept(tokenOf(expired.link));
      expect(late.status).toBe(410);
      expect((await errorOf(late)).message).toBe("This invitation expired on 2026-11-29. Ask an administrator to send it again.");
      const gone = await accept(tokenOf(revoked.link));
      expect(gone.status).toBe(410);
      expect((await errorOf(gone)).message).toBe("This invitation was revoked. Ask an administrator for a new one.");
      const unknown = await accept("A".repeat(43));
      expect(unknown.status).toBe(404);
      expect((await errorOf(unknown)).message).toBe("This invitation link is not valid. Check that you copied the whole link, or ask for a new invitation.");
      for (const [password, problem] of [
        ["short", "must be at least 8 characters"],
        ["weak@example.com", "must not be your e-mail address"],
        ["aaaaaaaaaaaa", "must not be one character repeated"],
      ] as const) {
        const res = await accept(tokenOf(weak.link), password);
        expect(res.status, password).toBe(400);
        expect((await errorOf(res)).fields).toEqual({ password: problem });
      }
      expect((await t.request("/api/auth/invitations/accept", { method: "POST", json: { token: tokenOf(weak.link), name: "", password: GOOD_PASSWORD } })).status).toBe(400);
      expect(await checksum()).toEqual(before);
      expect((await check(tokenOf(weak.link))).status).toBe(200);
    });

    it("an existing account without access (a vendor owner) accepts into the role; its old sessions end", async () => {
      const owner = await t.createUser({ email: "owner@example.com" });
      const sent = await invite("owner@example.com", "admin");
      const res = await accept(tokenOf(sent.link));
      expect(res.status).toBe(200);
      const session = signInResponseSchema.parse(await res.json());
      expect(session.user).toMatchObject({ id: owner.id, role: "admin", isAdmin: true });
      expect((await t.request("/api/auth/me", { token: owner.token })).status).toBe(401);
      expect(JSON.parse((await auditRows("invitation.accept"))[0]!.details)).toMatchObject({ newAccount: false });
    });

    it("resend gives a new link and expiry (the old link stops); revoke ends it; each is audited once", async () => {
      const sent = await invite("again@example.com", "viewer");
      t.clock.advance(8 * DAY_MS);
      admin = await t.createUser({ email: "later-ops@hki.global" });
      const listed = invitationsResponseSchema.parse(await (await as(admin, "GET", "/api/admin/users/invitations")).json());
      expect(listed.invitations[0]!.status).toBe("expired");
      const res = await as(admin, "POST", `/api/admin/users/invitations/${sent.id}/resend`);
      expect(res.status).toBe(200);
      const resent = inviteResponseSchema.parse(await res.json()).invitation;
      expect(resent.id).toBe(sent.id);
      expect(resent.expiresAt).toBe(new Date(t.clock.now().getTime() + 7 * DAY_MS).toISOString());
      expect(tokenOf(resent.link)).not.toBe(tokenOf(sent.link));
      expect((await check(tokenOf(sent.link))).status).toBe(404);
      expect((await check(tokenOf(resent.link))).status).toBe(200);
      expect(await t.database.db.selectFrom("mail_outbox").select("id").execute()).toHaveLength(2);
      const [resendAudit] = await auditRows("invitation.resend");
      expect(JSON.parse(resendAudit!.before_value!)).toEqual({ expiresAt: sent.expiresAt });
      expect(JSON.parse(resendAudit!.after_value!)).toEqual({ expiresAt: resent.expiresAt });

      expect((await as(admin, "DELETE", `/api/admin/users/invitations/${sent.id}`)).status).toBe(204);
      expect((await check(tokenOf(resent.link))).status).toBe(410);
      const twice = await as(admin, "DELETE", `/api/admin/users/invitations/${sent.id}`);
      expect(twice.status).toBe(409);
      expect((await errorOf(twice)).message).toBe("The invitation of again@example.com was already revoked");
      expect((await as(admin, "POST", `/api/admin/users/invitations/${sent.id}/resend`)).status).toBe(409);
      expect(await auditRows("invitation.revoke")).toHaveLength(1);
      expect((await as(admin, "DELETE", "/api/admin/users/invitations/01890000-0000-7000-8000-000000000000")).status).toBe(404);

      const accepted = await invite("done@example.com", "viewer");
      expect((await accept(tokenOf(accepted.link))).status).toBe(200);
      const late = await as(admin, "DELETE", `/api/admin/users/invitations/${accepted.id}`);
      expect(late.status).toBe(409);
      expect((await errorOf(late)).message).toBe("The invitation of done@example.com was already accepted: change or remove the access instead");
    });
  });

  describe("roles and access", () => {
    it("promotes and demotes by role, audited with before and after", async () => {
      const viewer = await t.createUser({ email: "promote-me@example.com", role: "viewer" });
      const res = await as(admin, "PATCH", `/api/admin/users/${viewer.id}`, { role: "admin" });
      expect(res.status).toBe(200);
      expect(adminUserResponseSchema.parse(await res.json()).user).toMatchObject({ id: viewer.id, role: "admin", access: "role" });
      expect(meResponseSchema.parse(await (await as(viewer, "GET", "/api/auth/me")).json()).user.canWrite).toBe(true);
      const back = await as(admin, "PATCH", `/api/admin/users/${viewer.id}`, { role: "viewer" });
      expect(adminUserResponseSchema.parse(await back.json()).user.role).toBe("viewer");
      const audits = await auditRows("user.role_change");
      expect(audits.map((a) => [JSON.parse(a.before_value!), JSON.parse(a.after_value!)])).toEqual([
        [{ role: "viewer" }, { role: "admin" }],
        [{ role: "admin" }, { role: "viewer" }],
      ]);
      expect(audits[0]).toMatchObject({ target_type: "user", target_id: viewer.id, target_label: "promote-me@example.com", actor_email: "ops@hki.global" });
      // The same role again changes nothing and writes nothing.
      expect((await as(admin, "PATCH", `/api/admin/users/${viewer.id}`, { role: "viewer" })).status).toBe(200);
      expect(await auditRows("user.role_change")).toHaveLength(2);
    });

    it('gives the job roles: invited as support, then made finance, each acts as its role from the next request (docs/product.md "Roles")', async () => {
      const sent = await invite("helper@example.com", "support");
      const session = signInResponseSchema.parse(await (await accept(tokenOf(sent.link))).json());
      expect(meResponseSchema.parse(await (await as(session, "GET", "/api/auth/me")).json()).user).toMatchObject({ role: "support", staffRole: "support", canWrite: true });
      expect((await listUsers("?role=support")).users.map((u) => [u.email, u.role])).toEqual([["helper@example.com", "support"]]);
      // Support: artists yes, money no.
      expect((await as(session, "PATCH", "/api/vendors/01890000-0000-7000-8000-000000000000/status", { isActive: false, reason: "Orders not shipped" })).status).toBe(404);
      const refused = await as(session, "POST", "/api/admin/financial/payouts/runs", {});
      expect(refused.status).toBe(403);
      expect(await errorOf(refused)).toEqual({ code: "forbidden", message: "Your role (support) cannot do this: only admins and finance can" });

      const changed = await as(admin, "PATCH", `/api/admin/users/${session.user.id}`, { role: "finance" });
      expect(adminUserResponseSchema.parse(await changed.json()).user).toMatchObject({ role: "finance", access: "role" });
      expect((await as(session, "PATCH", "/api/vendors/01890000-0000-7000-8000-000000000000/status", { isActive: false })).status).toBe(403);
      expect((await as(session, "POST", "/api/admin/financial/payouts/runs", { dryRun: true })).status).not.toBe(403);
      // Neither may invite or change roles: staff stay the admins' business.
      expect((await as(session, "POST", "/api/admin/users/invite", { email: "x@example.com", role: "admin" })).status).toBe(403);
      const [audit] = await auditRows("user.role_change");
      expect([JSON.parse(audit!.before_value!), JSON.parse(audit!.after_value!)]).toEqual([{ role: "support" }, { role: "finance" }]);
    });

    it("refuses to change your own role, a domain admin's, someone without access, and bad input", async () => {
      const roleAdmin = await t.createUser({ email: "boss@example.com", role: "admin" });
      const self = await as(roleAdmin, "PATCH", `/api/admin/users/${roleAdmin.id}`, { role: "viewer" });
      expect(self.status).toBe(409);
      expect((await errorOf(self)).message).toBe("You cannot change your own role: ask another administrator");
      const domain = await as(roleAdmin, "PATCH", `/api/admin/users/${admin.id}`, { role: "viewer" });
      expect(domain.status).toBe(409);
      expect((await errorOf(domain)).message).toBe("ops@hki.global is an administrator because the address is at @hki.global; a role cannot change that");
      const artist = await t.createUser({ email: "artist@example.com" });
      const none = await as(admin, "PATCH", `/api/admin/users/${artist.id}`, { role: "viewer" });
      expect(none.status).toBe(409);
      expect((await errorOf(none)).message).toBe("artist@example.com has no panel access: invite them instead");
      expect((await as(admin, "PATCH", `/api/admin/users/${roleAdmin.id}`, { role: "user" })).status).toBe(400);
      expect((await as(admin, "PATCH", "/api/admin/users/01890000-0000-7000-8000-000000000000", { role: "viewer" })).status).toBe(404);
      expect(await auditRows("user.role_change")).toEqual([]);
    });

    it("removing access sets the role back to user and ends every session at once", async () => {
      const viewer = await t.createUser({ email: "leaving@example.com", role: "viewer" });
      const res = await as(admin, "DELETE", `/api/admin/users/${viewer.id}/access`);
      expect(res.status).toBe(200);
      expect(removeAccessResponseSchema.parse(await res.json())).toEqual({ user: { id: viewer.id, email: "leaving@example.com", role: "user" }, sessionsRevoked: 1 });
      expect((await as(viewer, "GET", "/api/auth/me")).status).toBe(401);
      expect((await listUsers()).users.map((u) => u.email)).not.toContain("leaving@example.com");
      const [audit] = await auditRows("user.access_remove");
      expect(JSON.parse(audit!.before_value!)).toEqual({ role: "viewer" });
      expect(JSON.parse(audit!.after_value!)).toEqual({ role: "user" });
      expect(JSON.parse(audit!.details)).toEqual({ sessionsRevoked: 1, invitationsRevoked: [] });

      const self = await as(admin, "DELETE", `/api/admin/users/${admin.id}/access`);
      expect(self.status).toBe(409);
      expect((await errorOf(self)).message).toBe("You cannot remove your own access: ask another administrator");
      const roleAdmin = await t.createUser({ email: "boss@example.com", role: "admin" });
      const domain = await as(roleAdmin, "DELETE", `/api/admin/users/${admin.id}/access`);
      expect((await errorOf(domain)).message).toBe("ops@hki.global has access because the address is at @hki.global; it cannot be removed by role");
    });

    it("never leaves the panel without an admin who can sign in (409 naming the last admin)", async () => {
      // The only admins: root-admin (by role, with a password) and one whose password lives elsewhere.
      await t.close();
      t = await createTestContext(kind, { env: { ADMIN_EMAIL: "owner@example.com" } });
      const other = await t.createUser({ email: "other-admin@example.com", role: "admin" });
      await t.database.db.updateTable("users").set({ password_hash: null }).where("id", "=", other.id).execute();
      const owner = await t.database.db.selectFrom("users").select("id").where("email", "=", "owner@example.com").executeTakeFirstOrThrow();
      for (const [method, path, json] of [
        ["PATCH", `/api/admin/users/${owner.id}`, { role: "viewer" }],
        ["DELETE", `/api/admin/users/${owner.id}/access`, undefined],
      ] as const) {
        const res = await as(other, method, path, json);
        expect(res.status, path).toBe(409);
        expect((await errorOf(res)).message).toBe("owner@example.com is the last administrator: make someone else an administrator first");
      }
      // The rule itself, as a service call by an actor who is not an account here.
      const service = new AdminUsersService(t.deps);
      const actor = { user: { id: "outside", email: "auditor@example.com", name: null, role: "admin" as const, isAdmin: true }, clientIp: "local", userAgent: null, requestId: "r" };
      await expect(service.changeRole(actor, owner.id, "viewer")).rejects.toMatchObject({ status: 409 });
      expect(await auditRows("user.role_change")).toEqual([]);
    });

    it("lists a user's open sessions and signs them out everywhere", async () => {
      const viewer = await t.createUser({ email: "many@example.com", role: "viewer" });
      const res = await as(admin, "GET", `/api/admin/users/${viewer.id}/sessions`);
      const sessions = userSessionsResponseSchema.parse(await res.json()).sessions;
      expect(sessions).toHaveLength(1);
      expect(sessions[0]).toMatchObject({ createdAt: "2026-11-22T12:00:00.000Z", current: false });
      expect(sessions[0]!.id).toHaveLength(12);
      const own = userSessionsResponseSchema.parse(await (await as(admin, "GET", `/api/admin/users/${admin.id}/sessions`)).json()).sessions;
      expect(own.map((s) => s.current)).toEqual([true]);

      const out = await as(admin, "DELETE", `/api/admin/users/${viewer.id}/sessions`);
      expect(revokeSessionsResponseSchema.parse(await out.json())).toEqual({ revoked: 1 });
      expect((await as(viewer, "GET", "/api/auth/me")).status).toBe(401);
      expect(userSessionsResponseSchema.parse(await (await as(admin, "GET", `/api/admin/users/${viewer.id}/sessions`)).json()).sessions).toEqual([]);
      const [audit] = await auditRows("user.sessions_revoke");
      expect(audit).toMatchObject({ target_id: viewer.id, target_label: "many@example.com" });
      expect(JSON.parse(audit!.details)).toEqual({ revoked: 1 });
      expect((await as(admin, "DELETE", "/api/admin/users/01890000-0000-7000-8000-000000000000/sessions")).status).toBe(404);
    });
  });
});
