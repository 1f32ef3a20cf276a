import { type ExpressionBuilder, type Insertable, PostgresAdapter, type Selectable, sql, type Updateable } from "kysely";
import type { DB, UserInvitationsTable } from "../../platform/db/schema.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { STAFF_ROLES, type StaffRole } from "../../../contract/access.ts";

/**
 * The only place SQL for staff and invitations lives (docs/product.md §14).
 *
 * "Everyone with panel access" is the union of two index lookups (users_role_idx on the role,
 * users_email_domain_idx on the generated e-mail domain, migration 008), so the Users tab never
 * scans every account (vendor owners have accounts too): staff are few, their ids are found
 * first, then read and sorted by e-mail.
 */

export type StaffRoleFilter = StaffRole | undefined;

export interface StaffRow {
  id: string;
  email: string;
  name: string | null;
  role: StaffRole | "user";
  created_at: string;
  /** The part of the e-mail after the last "@" (generated column). */
  email_domain: string;
}

export interface StaffFilter {
  domain: string;
  search?: string | undefined;
  role?: StaffRoleFilter;
}

const emailDomain = sql<string>`users.email_domain`;

/** LIKE pattern matching `text` anywhere, with LIKE's own wildcards taken literally. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Ids of everyone with panel access: a panel role, or an e-mail at the company domain. */
function staffIds(db: Executor, domain: string) {
  return db
    .selectFrom("users")
    .select("id")
    .where("role", "in", STAFF_ROLES)
    .union(db.selectFrom("users").select("id").where(emailDomain, "=", domain));
}

function staffQuery(db: Executor, filter: StaffFilter) {
  let query = db.selectFrom("users").where("users.id", "in", staffIds(db, filter.domain));
  if (filter.role === "admin") query = query.where((eb) => eb.or([eb("role", "=", "admin"), eb(emailDomain, "=", filter.domain)]));
  else if (filter.role) query = query.where("role", "=", filter.role).where(emailDomain, "<>", filter.domain);
  if (filter.search) {
    const pattern = containsPattern(filter.search);
    query = query.where((eb: ExpressionBuilder<DB, "users">) =>
      eb.or([eb(sql`lower(users.email)`, "like", sql`${pattern} escape '\\'`), eb(sql`lower(coalesce(users.name, ''))`, "like", sql`${pattern} escape '\\'`)]),
    );
  }
  return query;
}

/** The value a staff order sorts by (ties are broken by the unique e-mail). */
export type StaffOrder = "email" | "name" | "lastSignIn";
const staffOrderValue = (order: StaffOrder) =>
  order === "name"
    ? sql<string>`coalesce(users.name, '')`
    : order === "lastSignIn"
      ? // The latest session opened is the last sign-in: one seek of sessions_user_created_idx (migration 016).
        sql<string>`coalesce((select max(s.created_at) from sessions s where s.user_id = users.id), '')`
      : sql<string>`users.email`;

/**
 * One page of staff in `order` (descending when asked), after the position `after` ([value, email];
 * for the e-mail order the e-mail alone); one extra row tells whether more follow. Staff are few:
 * the set comes from two index lookups (staffIds), then is ordered.
 */
export async function listStaffPage(
  db: Executor,
  filter: StaffFilter,
  sort: { order: StaffOrder; descending: boolean },
  after: { value: string; email: string } | undefined,
  limit: number,
): Promise<Array<StaffRow & { sort_value: string }>> {
  const value = staffOrderValue(sort.order);
  let query = staffQuery(db, filter).select(["users.id", "users.email", "users.name", "users.role", "users.created_at", emailDomain.as("email_domain"), value.as("sort_value")]);
  const direction = sort.descending ? "desc" : "asc";
  if (after !== undefined) {
    query =
      sort.order === "email"
        ? query.where("users.email", sort.descending ? "<" : ">", after.email)
        : query.where((eb) => eb(eb.tuple(value, eb.ref("users.email")), sort.descending ? "<" : ">", eb.tuple(after.value, after.email)));
  }
  if (sort.order !== "email") query = query.orderBy(value, direction);
  return query.orderBy("users.email", direction).limit(limit).execute();
}

export async function countStaff(db: Executor, filter: StaffFilter): Promise<number> {
  const row = await staffQuery(db, filter)
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Serialises changes of roles and access within the caller's transaction, so two admins demoting
 * each other at once cannot both pass the last-admin check. SQLite already runs one write
 * transaction at a time (BEGIN IMMEDIATE); PostgreSQL takes a transaction-scoped advisory lock.
 */
export async function lockStaffChanges(trx: Executor): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) await sql`select pg_advisory_xact_lock(${STAFF_LOCK_KEY})`.execute(trx);
}
/** An arbitrary constant naming the staff lock (advisory locks are keyed by a number). */
const STAFF_LOCK_KEY = 140_014;

/** One user with the facts the staff rules need; undefined when there is none. */
export async function findStaffCandidate(db: Executor, userId: string): Promise<(StaffRow & { password_hash: string | null }) | undefined> {
  return db
    .selectFrom("users")
    .select(["id", "email", "name", "role", "created_at", "password_hash", emailDomain.as("email_domain")])
    .where("id", "=", userId)
    .executeTakeFirst();
}

export async function findUserIdByEmail(db: Executor, email: string): Promise<{ id: string; role: StaffRow["role"]; email_domain: string } | undefined> {
  return db
    .selectFrom("users")
    .select(["id", "role", emailDomain.as("email_domain")])
    .where("email", "=", email)
    .executeTakeFirst();
}

export async function setUserRole(db: Executor, userId: string, role: StaffRow["role"], now: string): Promise<void> {
  await db.updateTable("users").set({ role, updated_at: now }).where("id", "=", userId).execute();
}

/**
 * True when an admin other than `excludeId` exists (role admin, or an e-mail at the company domain)
 * who can sign in: with the built-in provider that means one with a password (`requirePassword`).
 */
export async function anotherAdminExists(db: Executor, domain: string, excludeId: string, requirePassword: boolean): Promise<boolean> {
  let query = db
    .selectFrom("users")
    .select("id")
    .where(
      "id",
      "in",
      db
        .selectFrom("users")
        .select("id")
        .where("role", "=", "admin")
        .union(db.selectFrom("users").select("id").where(emailDomain, "=", domain)),
    )
    .where("id", "<>", excludeId);
  if (requirePassword) query = query.where("password_hash", "is not", null);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

/** Per user: the last session opened (its sign-in) and how many are open now. Walks sessions_user_idx. */
export async function sessionFacts(db: Executor, userIds: readonly string[], now: string): Promise<Map<string, { lastSignInAt: string | null; active: number; twoStep?: boolean }>> {
  const out = new Map<string, { lastSignInAt: string | null; active: number; twoStep?: boolean }>();
  if (userIds.length === 0) return out;
  const rows = await db
    .selectFrom("sessions")
    .select((eb) => [
      "user_id",
      eb.fn.max("created_at").as("last_created"),
      eb.fn
        .sum<number | string>(
          eb
            .case()
            .when(eb.and([eb("revoked_at", "is", null), eb("expires_at", ">", now)]))
            .then(1)
            .else(0)
            .end(),
        )
        .as("active"),
    ])
    .where("user_id", "in", userIds)
    .groupBy("user_id")
    .execute();
  for (const row of rows) out.set(row.user_id, { lastSignInAt: row.last_created ?? null, active: Number(row.active ?? 0) });
  // Who has two-step sign-in on (migration 027), for the Users tab's reset action.
  const enrolled = await db.selectFrom("user_two_step").select("user_id").where("user_id", "in", userIds).where("confirmed_at", "is not", null).execute();
  for (const row of enrolled) out.set(row.user_id, { ...(out.get(row.user_id) ?? { lastSignInAt: null, active: 0 }), twoStep: true });
  // A passkey is a second factor too (migration 031): the reset removes it.
  const withPasskeys = await db.selectFrom("passkeys").select("user_id").distinct().where("user_id", "in", userIds).execute();
  for (const row of withPasskeys) out.set(row.user_id, { ...(out.get(row.user_id) ?? { lastSignInAt: null, active: 0 }), twoStep: true });
  return out;
}

/** A user's open sessions (neither revoked nor expired), newest first. */
export async function listOpenSessions(db: Executor, userId: string, now: string): Promise<Array<{ id: string; created_at: string; expires_at: string }>> {
  return db
    .selectFrom("sessions")
    .select(["id", "created_at", "expires_at"])
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", now)
    .orderBy("created_at", "desc")
    .limit(200)
    .execute();
}

/** Revokes every open session of a user; how many were open. */
export async function revokeOpenSessions(db: Executor, userId: string, now: string): Promise<number> {
  const result = await db.updateTable("sessions").set({ revoked_at: now }).where("user_id", "=", userId).where("revoked_at", "is", null).where("expires_at", ">", now).executeTakeFirst();
  // Sessions already expired are closed as well (quietly: they could not be used anyway).
  await db.updateTable("sessions").set({ revoked_at: now }).where("user_id", "=", userId).where("revoked_at", "is", null).execute();
  return Number(result.numUpdatedRows);
}

export async function insertUserRow(db: Executor, user: { id: string; email: string; name: string | null; role: StaffRow["role"]; password_hash: string; now: string }): Promise<void> {
  await db.insertInto("users").values({ id: user.id, email: user.email, name: user.name, role: user.role, password_hash: user.password_hash, created_at: user.now, updated_at: user.now }).execute();
}

export async function setUserAccount(db: Executor, userId: string, changes: { name: string; role: StaffRow["role"]; password_hash: string; now: string }): Promise<void> {
  await db.updateTable("users").set({ name: changes.name, role: changes.role, password_hash: changes.password_hash, updated_at: changes.now }).where("id", "=", userId).execute();
}

// ---- invitations -------------------------------------------------------------------------------

export type InvitationRow = Selectable<UserInvitationsTable>;

export async function insertInvitation(db: Executor, row: Insertable<UserInvitationsTable>): Promise<void> {
  await db.insertInto("user_invitations").values(row).execute();
}

/** The open invitation of an e-mail (at most one: user_invitations_open_email_idx). */
export async function findOpenInvitation(db: Executor, email: string): Promise<InvitationRow | undefined> {
  return db.selectFrom("user_invitations").selectAll().where("email", "=", email).where("accepted_at", "is", null).where("revoked_at", "is", null).executeTakeFirst();
}

export async function findInvitation(db: Executor, id: string): Promise<InvitationRow | undefined> {
  return db.selectFrom("user_invitations").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function findInvitationByTokenHash(db: Executor, tokenHash: string): Promise<InvitationRow | undefined> {
  return db.selectFrom("user_invitations").selectAll().where("token_hash", "=", tokenHash).executeTakeFirst();
}

/** Open invitations (pending and expired), newest first. */
export async function listOpenInvitations(db: Executor, limit: number): Promise<InvitationRow[]> {
  return db.selectFrom("user_invitations").selectAll().where("accepted_at", "is", null).where("revoked_at", "is", null).orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
}

/**
 * An update of one invitation only while it is open (neither accepted nor revoked): every change of
 * an invitation is conditional on that, so two concurrent changes never both apply.
 */
function updateOpenInvitation(db: Executor, id: string, changes: Updateable<UserInvitationsTable>) {
  return db.updateTable("user_invitations").set(changes).where("id", "=", id).where("accepted_at", "is", null).where("revoked_at", "is", null);
}

/** True when the conditional update changed the invitation (false: it was not open any more). */
async function changedOne(update: ReturnType<typeof updateOpenInvitation>): Promise<boolean> {
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Closes an open invitation; false when it was not open any more. */
export async function closeInvitation(db: Executor, id: string, reason: NonNullable<InvitationRow["revoked_reason"]>, now: string): Promise<boolean> {
  return changedOne(updateOpenInvitation(db, id, { revoked_at: now, revoked_reason: reason }));
}

/**
 * The open invitations (neither accepted nor revoked, expired or not) a user sent, by their id or
 * their e-mail (an invitation keeps both). A panel has a handful; no index is needed.
 */
export async function listOpenInvitationsSentBy(db: Executor, user: { id: string; email: string }): Promise<InvitationRow[]> {
  return db
    .selectFrom("user_invitations")
    .selectAll()
    .where((eb) => eb.or([eb("invited_by_id", "=", user.id), eb("invited_by_email", "=", user.email)]))
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

/** Who sent an invitation, as the admin rule needs it; undefined when the account is gone. */
export async function findInviter(db: Executor, invitation: Pick<InvitationRow, "invited_by_id" | "invited_by_email">): Promise<{ role: StaffRow["role"]; email: string } | undefined> {
  const query = db.selectFrom("users").select(["role", "email"]);
  return invitation.invited_by_id ? query.where("id", "=", invitation.invited_by_id).executeTakeFirst() : query.where("email", "=", invitation.invited_by_email).executeTakeFirst();
}

/** A new token and expiry for an open invitation (resend). */
export async function renewInvitation(db: Executor, id: string, changes: { token_hash: string; expires_at: string; provider_invitation_id: string | null }): Promise<boolean> {
  return changedOne(updateOpenInvitation(db, id, changes));
}

/** Marks an invitation used, only while it is open and unexpired: the single-use guarantee under concurrency. */
export async function markInvitationAccepted(db: Executor, id: string, userId: string, now: string): Promise<boolean> {
  return changedOne(updateOpenInvitation(db, id, { accepted_at: now, accepted_user_id: userId }).where("expires_at", ">", now));
}
