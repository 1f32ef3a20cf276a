import { createHash, randomBytes } from "node:crypto";
import {
  type AdminUser,
  type AdminUserResponse,
  type AdminUsersQuery,
  type AdminUsersResponse,
  INVITATION_TTL_DAYS,
  type Invitation,
  type InvitationCheckResponse,
  type InvitationsResponse,
  type InviteResponse,
  type RemoveAccessResponse,
  type RevokeSessionsResponse,
  type SentInvitation,
  type StaffRole,
  type StaffSort,
  type UserSessionsResponse,
} from "../../../contract/admin-users.ts";
import type { SignInResponse } from "../../../contract/auth.ts";
import { withoutForbiddenIdentityCharacters } from "../../../contract/common.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { recordAudit } from "../../domain/audit/audit-log.ts";
import { hasPanelAccess, isAdminUser } from "../../platform/identity/admin-rule.ts";
import { SESSION_TTL_MS, sessionIdForToken } from "../../platform/identity/local-auth-provider.ts";
import { hashPassword } from "../../platform/identity/password-hash.ts";
import { passwordProblem } from "../../platform/identity/password-policy.ts";
import { insertSession } from "../../platform/identity/sessions.queries.ts";
import { enrolmentDueFor } from "../../platform/identity/second-factors.ts";
import { normalizeEmail } from "../../platform/identity/users.ts";
import { newId } from "../../platform/db/ids.ts";
import type { Actor } from "../../platform/identity/actor.ts";
import { HttpError, badRequest, conflict, invalidField, notFound } from "../../platform/http/http-error.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { queueMail } from "../../platform/mail/mail-outbox.ts";
import {
  type InvitationRow,
  type StaffRow,
  anotherAdminExists,
  closeInvitation,
  countStaff,
  findInvitation,
  findInvitationByTokenHash,
  findInviter,
  findOpenInvitation,
  findStaffCandidate,
  findUserIdByEmail,
  insertInvitation,
  insertUserRow,
  listOpenInvitations,
  listOpenInvitationsSentBy,
  listOpenSessions,
  listStaffPage,
  type StaffOrder,
  lockStaffChanges,
  markInvitationAccepted,
  renewInvitation,
  revokeOpenSessions,
  sessionFacts,
  setUserAccount,
  setUserRole,
} from "./admin-users.queries.ts";
import { ClerkInvitations } from "./clerk-invitations.ts";
import { encodeKeyset, keysetPage, readKeyset } from "../../platform/http/keyset-cursor.ts";

const DAY_MS = 86_400_000;
/** Longest id looked up; longer ones cannot exist and are answered 404 without a query. */
const MAX_ID_LENGTH = 100;
/** Invitations listed at most (open ones; a panel has a handful). */
const MAX_LISTED_INVITATIONS = 200;
/** Shown instead of a session's hash: a short handle, enough to tell sessions apart. */
const SESSION_HANDLE_LENGTH = 12;

export type Deps = Pick<AppDeps, "database" | "clock" | "config" | "jobs" | "fetchImpl">;

const tokenHash = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

function invitationStatus(row: InvitationRow, now: string): Invitation["status"] {
  if (row.accepted_at) return "accepted";
  if (row.revoked_at) return "revoked";
  return row.expires_at <= now ? "expired" : "pending";
}

const INVITER_REMOVED_MESSAGE = "This invitation was revoked: the administrator who sent it no longer has access. Ask an administrator for a new one.";

const ROLE_WORDS: Record<StaffRole, string> = {
  admin: "an administrator (every screen and every action)",
  finance: "finance (Financials and payouts; every other screen read-only)",
  support: "support (artists, products, announcements; every other screen read-only, no money actions)",
  viewer: "a viewer (every screen, read-only)",
};

/**
 * Staff of the panel and their invitations (docs/product.md §14): who has access and how, roles,
 * access removal, sessions, and the invitation flow with its accept step. Every change writes its
 * audit row in the same transaction.
 */
export class AdminUsersService {
  private readonly clerk: ClerkInvitations | null;

  constructor(private readonly deps: Deps) {
    const { config } = deps;
    this.clerk =
      config.authProvider === "clerk" ? new ClerkInvitations({ secretKey: config.clerkSecretKey!, apiUrl: config.clerkApiUrl, ...(deps.fetchImpl ? { fetchImpl: deps.fetchImpl } : {}) }) : null;
  }

  private get db() {
    return this.deps.database.db;
  }

  private get domain() {
    return this.deps.config.adminEmailDomain;
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  // ---- staff ------------------------------------------------------------------------------------

  private isDomainAdmin(row: Pick<StaffRow, "email_domain">): boolean {
    return row.email_domain === this.domain;
  }

  private toAdminUser(row: StaffRow, facts: { lastSignInAt: string | null; active: number; twoStep?: boolean } | undefined): AdminUser {
    const byDomain = this.isDomainAdmin(row);
    return {
      id: row.id,
      email: row.email,
      name: row.name,
      // Only staff rows reach here (staffIds): "user" is possible only beside the company domain.
      role: byDomain || row.role === "user" ? "admin" : row.role,
      access: row.role === "admin" || !byDomain ? "role" : "domain",
      lastSignInAt: facts?.lastSignInAt ?? null,
      createdAt: row.created_at,
      activeSessions: facts?.active ?? 0,
      twoStep: facts?.twoStep ?? false,
    };
  }

  async list(query: AdminUsersQuery): Promise<AdminUsersResponse> {
    const filter = { domain: this.domain, search: query.search || undefined, role: query.role };
    const descending = query.sort.startsWith("-");
    const order = (descending ? query.sort.slice(1) : query.sort) as StaffOrder;
    const after = query.cursor ? readStaffCursor(query.cursor, query.sort) : undefined;
    const [rows, total] = await Promise.all([listStaffPage(this.db, filter, { order, descending }, after, query.limit + 1), countStaff(this.db, filter)]);
    // The e-mail order keeps its cursor of one e-mail; the others carry their sort and value too.
    const cursorOf = (row: (typeof rows)[number]) => (query.sort === "email" ? encodeKeyset([row.email]) : encodeKeyset([query.sort, `=${row.sort_value}`, row.email]));
    const { page, nextCursor } = keysetPage(rows, query.limit, cursorOf);
    const facts = await sessionFacts(
      this.db,
      page.map((r) => r.id),
      this.now(),
    );
    return { users: page.map((r) => this.toAdminUser(r, facts.get(r.id))), total, nextCursor };
  }

  private async staffMember(executor: Executor, id: string): Promise<StaffRow & { password_hash: string | null }> {
    const row = id.length <= MAX_ID_LENGTH ? await findStaffCandidate(executor, id) : undefined;
    if (!row) throw notFound(`No user with id ${id.slice(0, MAX_ID_LENGTH)}`);
    return row;
  }

  private async asAdminUser(executor: Executor, id: string): Promise<AdminUser> {
    const row = await this.staffMember(executor, id);
    const facts = await sessionFacts(executor, [row.id], this.now());
    return this.toAdminUser(row, facts.get(row.id));
  }

  private domainMessage(email: string): string {
    return `${email} is an administrator because the address is at @${this.domain}; a role cannot change that`;
  }

  /** Refuses to leave the panel without an admin who can sign in. */
  private async requireAnotherAdmin(executor: Executor, target: StaffRow): Promise<void> {
    if (!(await anotherAdminExists(executor, this.domain, target.id, this.deps.config.authProvider === "local"))) {
      throw conflict(`${target.email} is the last administrator: make someone else an administrator first`);
    }
  }

  /** The audit row of a staff member's role changing: to another panel role, or to "user" (access removed). */
  private auditRoleChange(trx: Executor, actor: Actor, action: "user.role_change" | "user.access_remove", target: StaffRow, role: StaffRow["role"], details?: Record<string, unknown>): Promise<void> {
    return recordAudit(
      trx,
      { actor, action, target: { type: "user", id: target.id, label: target.email }, before: { role: target.role }, after: { role }, ...(details ? { details } : {}) },
      this.deps.clock,
    );
  }

  async changeRole(actor: Actor, id: string, role: StaffRole): Promise<AdminUserResponse> {
    const user = await this.db.transaction().execute(async (trx) => {
      await lockStaffChanges(trx);
      const target = await this.staffMember(trx, id);
      if (target.id === actor.user.id) throw conflict("You cannot change your own role: ask another administrator");
      if (this.isDomainAdmin(target)) {
        if (role === "admin") return this.asAdminUser(trx, target.id);
        throw conflict(this.domainMessage(target.email));
      }
      if (target.role === "user") throw conflict(`${target.email} has no panel access: invite them instead`);
      if (target.role === role) return this.asAdminUser(trx, target.id);
      if (target.role === "admin") await this.requireAnotherAdmin(trx, target);
      await setUserRole(trx, target.id, role, this.now());
      // An admin given another role can no longer invite: the invitations they sent stop working too.
      const leavesAdmin = target.role === "admin";
      const invitationsRevoked = leavesAdmin ? await this.revokeInvitationsSentBy(trx, target) : [];
      await this.auditRoleChange(trx, actor, "user.role_change", target, role, leavesAdmin ? { invitationsRevoked } : undefined);
      return this.asAdminUser(trx, target.id);
    });
    return { user };
  }

  async removeAccess(actor: Actor, id: string): Promise<RemoveAccessResponse> {
    return this.db.transaction().execute(async (trx) => {
      await lockStaffChanges(trx);
      const target = await this.staffMember(trx, id);
      if (target.id === actor.user.id) throw conflict("You cannot remove your own access: ask another administrator");
      if (this.isDomainAdmin(target)) throw conflict(`${target.email} has access because the address is at @${this.domain}; it cannot be removed by role`);
      if (target.role === "user") throw conflict(`${target.email} has no panel access`);
      if (target.role === "admin") await this.requireAnotherAdmin(trx, target);
      const now = this.now();
      await setUserRole(trx, target.id, "user", now);
      const sessionsRevoked = await revokeOpenSessions(trx, target.id, now);
      // Their pending invitations would otherwise still make admins after they are gone (issue 18).
      const invitationsRevoked = await this.revokeInvitationsSentBy(trx, target);
      await this.auditRoleChange(trx, actor, "user.access_remove", target, "user", { sessionsRevoked, invitationsRevoked });
      return { user: { id: target.id, email: target.email, role: "user" as const }, sessionsRevoked };
    });
  }

  /**
   * Revokes every open invitation `sender` sent (reason "inviter_removed"), at the hosted provider
   * too; what the audit row of the change lists. Runs in the caller's transaction, so a failure of
   * the provider changes nothing (502).
   */
  private async revokeInvitationsSentBy(trx: Executor, sender: { id: string; email: string }): Promise<Array<{ id: string; email: string; role: StaffRole }>> {
    const now = this.now();
    const revoked: Array<{ id: string; email: string; role: StaffRole }> = [];
    for (const row of await listOpenInvitationsSentBy(trx, sender)) {
      if (!(await closeInvitation(trx, row.id, "inviter_removed", now))) continue;
      revoked.push({ id: row.id, email: row.email, role: row.role });
      if (this.clerk && row.provider_invitation_id) await this.clerk.revoke(row.provider_invitation_id);
    }
    return revoked;
  }

  async sessions(id: string, bearerToken: string | null): Promise<UserSessionsResponse> {
    const target = await this.staffMember(this.db, id);
    const current = bearerToken ? sessionIdForToken(bearerToken) : null;
    const rows = await listOpenSessions(this.db, target.id, this.now());
    return { sessions: rows.map((s) => ({ id: s.id.slice(0, SESSION_HANDLE_LENGTH), createdAt: s.created_at, expiresAt: s.expires_at, current: s.id === current })) };
  }

  async revokeSessions(actor: Actor, id: string): Promise<RevokeSessionsResponse> {
    const { clock } = this.deps;
    return this.db.transaction().execute(async (trx) => {
      const target = await this.staffMember(trx, id);
      const revoked = await revokeOpenSessions(trx, target.id, this.now());
      // No open session, nothing ended: no audit row (an action that changed nothing records nothing).
      if (revoked > 0) await recordAudit(trx, { actor, action: "user.sessions_revoke", target: { type: "user", id: target.id, label: target.email }, details: { revoked } }, clock);
      return { revoked };
    });
  }

  // ---- invitations ------------------------------------------------------------------------------

  /** The panel's public address (PUBLIC_URL): the start of every link the invitations write. */
  private get publicUrl(): string {
    return this.deps.config.publicUrl;
  }

  private acceptLink(token: string): string {
    return `${this.publicUrl}/accept-invite?token=${encodeURIComponent(token)}`;
  }

  /**
   * The invitation e-mail, queued in the caller's transaction. The token is named as the mail's
   * secret: the outbox cuts it from the stored body once the mail is sent or has finally failed.
   * The inviter's name is shown without control or invisible characters (names stored before the
   * rule of docs/product.md §14.3 may hold them), so it cannot add lines to the mail.
   */
  private async queueInvitationMail(trx: Executor, invitation: { id: string; email: string; role: StaffRole; expiresAt: string }, token: string, inviter: Actor): Promise<void> {
    const link = this.acceptLink(token);
    const name = inviter.user.name ? withoutForbiddenIdentityCharacters(inviter.user.name).trim() : "";
    const who = name ? `${name} (${inviter.user.email})` : inviter.user.email;
    const expires = `${invitation.expiresAt.slice(0, 10)} ${invitation.expiresAt.slice(11, 16)} UTC`;
    const text = [
      `${who} invited you to HKI Global Admin as ${ROLE_WORDS[invitation.role]}.`,
      "",
      "Accept the invitation and choose your password here:",
      link,
      "",
      `The link works once and expires on ${expires}.`,
      "If you did not expect this e-mail, you can ignore it: nothing happens until the link is used.",
    ].join("\n");
    await queueMail(trx, this.deps.jobs, this.deps.clock, {
      to: invitation.email,
      subject: "You are invited to HKI Global Admin",
      text,
      reference: `invitation:${invitation.id}`,
      secrets: [encodeURIComponent(token)],
    });
  }

  /** Refuses addresses that already have access, and any role but admin at the company domain (they would be admins). */
  private async checkInvitee(executor: Executor, email: string, role: StaffRole): Promise<void> {
    if (role !== "admin" && isAdminUser({ role: "user", email }, this.domain)) {
      throw invalidField("role", `addresses at @${this.domain} are always administrators: invite them as admin`);
    }
    const existing = await findUserIdByEmail(executor, email);
    if (existing && hasPanelAccess({ role: existing.role, email }, this.domain)) throw conflict(`${email} already has access to the admin panel`);
  }

  async invite(actor: Actor, emailInput: string, role: StaffRole): Promise<InviteResponse> {
    const email = normalizeEmail(emailInput);
    const { clock } = this.deps;
    const token = randomBytes(32).toString("base64url");
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + INVITATION_TTL_DAYS * DAY_MS).toISOString();
    const id = newId();
    const link = this.acceptLink(token);
    const invitation = await this.inTransaction(async (trx) => {
      await this.checkInvitee(trx, email, role);
      const previous = await findOpenInvitation(trx, email);
      if (previous) await closeInvitation(trx, previous.id, "replaced", now.toISOString());
      await insertInvitation(trx, {
        id,
        email,
        role,
        token_hash: tokenHash(token),
        invited_by_id: actor.user.id,
        invited_by_email: actor.user.email,
        created_at: now.toISOString(),
        expires_at: expiresAt,
        accepted_at: null,
        accepted_user_id: null,
        revoked_at: null,
        revoked_reason: null,
        provider_invitation_id: null,
      });
      await recordAudit(
        trx,
        {
          actor,
          action: "invitation.create",
          target: { type: "invitation", id, label: email },
          after: { email, role, expiresAt },
          details: { replaced: previous?.id ?? null, delivery: this.clerk ? "clerk" : "email" },
        },
        clock,
      );
      const sent: SentInvitation = { id, email, role, expiresAt, link };
      if (this.clerk) {
        // The hosted provider is called last: its failure rolls everything above back.
        if (previous?.provider_invitation_id) await this.clerk.revoke(previous.provider_invitation_id);
        const created = await this.clerk.create({ email, role, redirectUrl: `${this.publicUrl}/`, expiresInDays: INVITATION_TTL_DAYS });
        await renewInvitation(trx, id, { token_hash: tokenHash(token), expires_at: expiresAt, provider_invitation_id: created.id });
        sent.link = created.url;
      } else {
        await this.queueInvitationMail(trx, sent, token, actor);
      }
      return sent;
    });
    return { invitation };
  }

  async listInvitations(): Promise<InvitationsResponse> {
    const now = this.now();
    const rows = await listOpenInvitations(this.db, MAX_LISTED_INVITATIONS);
    const invitations = rows.map((r) => ({
      id: r.id,
      email: r.email,
      role: r.role,
      status: invitationStatus(r, now),
      invitedBy: r.invited_by_email,
      createdAt: r.created_at,
      expiresAt: r.expires_at,
    }));
    // Pending first (newest first), then expired ones.
    invitations.sort((a, b) => (a.status === b.status ? 0 : a.status === "pending" ? -1 : 1));
    return { invitations };
  }

  private async openInvitation(executor: Executor, id: string): Promise<InvitationRow> {
    const row = id.length <= MAX_ID_LENGTH ? await findInvitation(executor, id) : undefined;
    if (!row) throw notFound(`No invitation with id ${id.slice(0, MAX_ID_LENGTH)}`);
    if (row.accepted_at) throw conflict(`The invitation of ${row.email} was already accepted: change or remove the access instead`);
    if (row.revoked_at) throw conflict(`The invitation of ${row.email} was already ${row.revoked_reason === "replaced" ? "replaced by a newer one" : "revoked"}`);
    return row;
  }

  async revokeInvitation(actor: Actor, id: string): Promise<void> {
    const { clock } = this.deps;
    await this.inTransaction(async (trx) => {
      const row = await this.openInvitation(trx, id);
      if (!(await closeInvitation(trx, row.id, "revoked", this.now()))) throw conflict(`The invitation of ${row.email} changed meanwhile: reload and try again`);
      await recordAudit(
        trx,
        {
          actor,
          action: "invitation.revoke",
          target: { type: "invitation", id: row.id, label: row.email },
          before: { status: invitationStatus(row, this.now()) },
          after: { status: "revoked" },
          details: { role: row.role },
        },
        clock,
      );
      if (this.clerk && row.provider_invitation_id) await this.clerk.revoke(row.provider_invitation_id);
    });
  }

  async resendInvitation(actor: Actor, id: string): Promise<InviteResponse> {
    const { clock } = this.deps;
    const token = randomBytes(32).toString("base64url");
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + INVITATION_TTL_DAYS * DAY_MS).toISOString();
    const link = this.acceptLink(token);
    const invitation = await this.inTransaction(async (trx) => {
      const row = await this.openInvitation(trx, id);
      await this.checkInvitee(trx, row.email, row.role);
      if (!(await renewInvitation(trx, row.id, { token_hash: tokenHash(token), expires_at: expiresAt, provider_invitation_id: row.provider_invitation_id }))) {
        throw conflict(`The invitation of ${row.email} changed meanwhile: reload and try again`);
      }
      await recordAudit(
        trx,
        { actor, action: "invitation.resend", target: { type: "invitation", id: row.id, label: row.email }, before: { expiresAt: row.expires_at }, after: { expiresAt }, details: { role: row.role } },
        clock,
      );
      const sent: SentInvitation = { id: row.id, email: row.email, role: row.role, expiresAt, link };
      if (this.clerk) {
        if (row.provider_invitation_id) await this.clerk.revoke(row.provider_invitation_id);
        const created = await this.clerk.create({ email: row.email, role: row.role, redirectUrl: `${this.publicUrl}/`, expiresInDays: INVITATION_TTL_DAYS });
        await renewInvitation(trx, row.id, { token_hash: tokenHash(token), expires_at: expiresAt, provider_invitation_id: created.id });
        sent.link = created.url;
      } else {
        await this.queueInvitationMail(trx, sent, token, actor);
      }
      return sent;
    });
    return { invitation };
  }

  // ---- accepting --------------------------------------------------------------------------------

  private requireBuiltInProvider(): void {
    if (this.clerk) throw badRequest("Invitations are accepted through Clerk: use the link in the invitation e-mail", "unsupported");
  }

  /** The invitation behind a token, if it can still be used; otherwise the clear reason (404/410). */
  private async usableInvitation(executor: Executor, token: string): Promise<InvitationRow> {
    const row = await findInvitationByTokenHash(executor, tokenHash(token));
    if (!row) throw notFound("This invitation link is not valid. Check that you copied the whole link, or ask for a new invitation.");
    if (row.accepted_at) throw new HttpError(410, "invitation_used", "This invitation was already used. Sign in with the password you chose.");
    if (row.revoked_at) {
      throw new HttpError(
        410,
        "invitation_revoked",
        row.revoked_reason === "replaced"
          ? "This invitation was replaced by a newer one: use the link in the latest e-mail."
          : row.revoked_reason === "inviter_removed"
            ? INVITER_REMOVED_MESSAGE
            : "This invitation was revoked. Ask an administrator for a new one.",
      );
    }
    if (row.expires_at <= this.now()) throw new HttpError(410, "invitation_expired", `This invitation expired on ${row.expires_at.slice(0, 10)}. Ask an administrator to send it again.`);
    // An invitation carries its sender's authority: once they are no longer an admin (access removed,
    // given another role, account gone, or the company domain changed) it grants nothing.
    const inviter = await findInviter(executor, row);
    if (!inviter || !isAdminUser(inviter, this.domain)) throw new HttpError(410, "invitation_revoked", INVITER_REMOVED_MESSAGE);
    return row;
  }

  async checkInvitation(token: string): Promise<InvitationCheckResponse> {
    this.requireBuiltInProvider();
    const row = await this.usableInvitation(this.db, token);
    return { invitation: { email: row.email, role: row.role, expiresAt: row.expires_at } };
  }

  /**
   * Accepts an invitation: the account is created (or, for an existing account without panel
   * access, given the role and the new password, its old sessions ended), the invitation is spent,
   * a session opened and the audit row written, all in one transaction; on any refusal nothing changes.
   */
  async acceptInvitation(token: string, name: string, password: string, request: Omit<Actor, "user">): Promise<SignInResponse> {
    this.requireBuiltInProvider();
    const { clock, config } = this.deps;
    // Checked (and the password rule applied) before the slow hash, so a dead link answers at once.
    const preview = await this.usableInvitation(this.db, token);
    const problem = passwordProblem(password, preview.email, config.production);
    if (problem) throw invalidField("password", problem);
    const passwordHash = await hashPassword(password);
    const sessionToken = randomBytes(32).toString("base64url");
    return this.db.transaction().execute(async (trx) => {
      const invitation = await this.usableInvitation(trx, token);
      const now = this.now();
      const existing = await findUserIdByEmail(trx, invitation.email);
      if (existing && hasPanelAccess({ role: existing.role, email: invitation.email }, this.domain)) {
        throw conflict(`${invitation.email} already has access to the admin panel: sign in instead`);
      }
      const userId = existing?.id ?? newId();
      if (existing) {
        await setUserAccount(trx, userId, { name, role: invitation.role, password_hash: passwordHash, now });
        await revokeOpenSessions(trx, userId, now);
      } else {
        await insertUserRow(trx, { id: userId, email: invitation.email, name, role: invitation.role, password_hash: passwordHash, now });
      }
      if (!(await markInvitationAccepted(trx, invitation.id, userId, now))) {
        throw new HttpError(410, "invitation_used", "This invitation was already used. Sign in with the password you chose.");
      }
      const expiresAt = new Date(clock.now().getTime() + SESSION_TTL_MS).toISOString();
      // A new account has no second factor: with two-step sign-in required, the session can only enrol.
      const enrolmentDue = await enrolmentDueFor(trx, userId);
      await insertSession(trx, { id: sessionIdForToken(sessionToken), user_id: userId, created_at: now, expires_at: expiresAt, revoked_at: null, enrolment_due: enrolmentDue ? 1 : 0 });
      const user = { id: userId, email: invitation.email, name, role: invitation.role, isAdmin: isAdminUser({ role: invitation.role, email: invitation.email }, this.domain) };
      await recordAudit(
        trx,
        {
          actor: { ...request, user },
          action: "invitation.accept",
          target: { type: "invitation", id: invitation.id, label: invitation.email },
          after: { role: invitation.role },
          details: { userId, invitedBy: invitation.invited_by_email, newAccount: !existing },
        },
        clock,
      );
      return { token: sessionToken, expiresAt, user, ...(enrolmentDue ? { twoStepEnrolmentDue: true as const } : {}) };
    });
  }

  /** A transaction whose unique-index clash (two invitations of one address at once) answers 409. */
  private async inTransaction<T>(fn: (trx: Executor) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction().execute(fn);
    } catch (err) {
      const code = String((err as { code?: unknown } | null)?.code ?? "");
      if (code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE") throw conflict("Another change to this invitation happened at the same time: reload and try again");
      throw err;
    }
  }
}

/**
 * A cursor of the Users tab in the order `sort`; one of another order is refused. The e-mail order's
 * is [email] (as before); the others' [sort, "=" + value, email]: the value may be empty (no name,
 * never signed in), and the prefix keeps it a non-empty text part.
 */
function readStaffCursor(text: string, sort: StaffSort): { value: string; email: string } {
  if (sort === "email") {
    const [email] = readKeyset(text, ["string"]);
    return { value: email, email };
  }
  const [order, value, email] = readKeyset(text, ["string", "string", "string"]);
  if (order !== sort || !value.startsWith("=")) throw invalidField("cursor", "belongs to another order (start again from the first page)");
  return { value: value.slice(1), email };
}
