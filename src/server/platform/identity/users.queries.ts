import type { NewUser, User } from "../db/schema.ts";
import type { Executor } from "../db/executor.ts";

/** The user with this e-mail, which must already be normalised (users.ts normalizeEmail). */
export async function selectUserByEmail(db: Executor, normalizedEmail: string): Promise<User | undefined> {
  return db.selectFrom("users").selectAll().where("email", "=", normalizedEmail).executeTakeFirst();
}

export async function insertUser(db: Executor, user: NewUser): Promise<void> {
  await db.insertInto("users").values(user).execute();
}

/** Sets a user's password hash and role (and name, when given). */
export async function updateUserCredentials(db: Executor, userId: string, changes: { password_hash: string; role: User["role"]; updated_at: string; name?: string | null }): Promise<void> {
  await db.updateTable("users").set(changes).where("id", "=", userId).execute();
}

/** Replaces a password hash by one of the same password at today's parameters (password-hash.ts needsRehash). */
export async function updatePasswordHash(db: Executor, userId: string, oldHash: string, newHash: string): Promise<void> {
  // Only if unchanged meanwhile: a password change that landed first wins.
  await db.updateTable("users").set({ password_hash: newHash }).where("id", "=", userId).where("password_hash", "=", oldHash).execute();
}

/** True when some admin can sign in here: role admin, or an e-mail at the company domain, with a password. */
export async function hasAdminUser(db: Executor, adminEmailDomain: string): Promise<boolean> {
  const row = await db
    .selectFrom("users")
    .select("id")
    // Only an admin who can sign in here counts: vendor owners at the company domain have no password.
    .where("password_hash", "is not", null)
    .where((eb) => eb.or([eb("role", "=", "admin"), eb("email", "like", `%@${adminEmailDomain}`)]))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteUserRow(db: Executor, userId: string): Promise<void> {
  await db.deleteFrom("users").where("id", "=", userId).execute();
}

/** The account facts a session carries, by id. */
export async function selectSessionUserById(db: Executor, userId: string): Promise<Pick<User, "id" | "email" | "name" | "role"> | undefined> {
  return db.selectFrom("users").select(["id", "email", "name", "role"]).where("id", "=", userId).executeTakeFirst();
}
