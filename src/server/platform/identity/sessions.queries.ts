import type { Insertable } from "kysely";
import type { SessionsTable, User } from "../db/schema.ts";
import type { Executor } from "../db/executor.ts";

export async function insertSession(db: Executor, session: Insertable<SessionsTable>): Promise<void> {
  await db.insertInto("sessions").values(session).execute();
}

/** A session with its user, whatever its state: the caller checks revocation and expiry. */
export interface SessionUserRow {
  id: string;
  email: string;
  name: string | null;
  role: User["role"];
  expires_at: string;
  revoked_at: string | null;
  enrolment_due: number;
}

export async function selectSessionUser(db: Executor, sessionId: string): Promise<SessionUserRow | undefined> {
  return db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .select(["users.id", "users.email", "users.name", "users.role", "sessions.expires_at", "sessions.revoked_at", "sessions.enrolment_due"])
    .where("sessions.id", "=", sessionId)
    .executeTakeFirst();
}

/** Revokes one session unless it is revoked already. */
export async function revokeSession(db: Executor, sessionId: string, revokedAt: string): Promise<void> {
  await db.updateTable("sessions").set({ revoked_at: revokedAt }).where("id", "=", sessionId).where("revoked_at", "is", null).execute();
}

/** Revokes every still-open session of a user; answers how many were open (not yet expired). */
export async function revokeUserSessions(db: Executor, userId: string, revokedAt: string): Promise<number> {
  const open = await db
    .selectFrom("sessions")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", revokedAt)
    .executeTakeFirst();
  await db.updateTable("sessions").set({ revoked_at: revokedAt }).where("user_id", "=", userId).where("revoked_at", "is", null).execute();
  return Number(open?.n ?? 0);
}

export async function deleteUserSessions(db: Executor, userId: string): Promise<void> {
  await db.deleteFrom("sessions").where("user_id", "=", userId).execute();
}

/** A second-factor check passed in this session now: a step-up lasts from here (docs/product.md "Step-up"). */
export async function markSecondFactor(db: Executor, sessionId: string, at: string): Promise<void> {
  await db.updateTable("sessions").set({ second_factor_at: at }).where("id", "=", sessionId).execute();
}

/** When the session last passed a second-factor check, or null (also for an unknown session). */
export async function selectSecondFactorAt(db: Executor, sessionId: string): Promise<string | null> {
  const row = await db.selectFrom("sessions").select("second_factor_at").where("id", "=", sessionId).executeTakeFirst();
  return row?.second_factor_at ?? null;
}

/** The user enrolled: none of their sessions is held at the enrolment any longer. */
export async function clearEnrolmentDue(db: Executor, userId: string): Promise<void> {
  await db.updateTable("sessions").set({ enrolment_due: 0 }).where("user_id", "=", userId).where("enrolment_due", "=", 1).execute();
}
