import type { Kysely } from "kysely";
import type { Clock } from "../clock.ts";
import { newId } from "../db/ids.ts";
import type { DB, User } from "../db/schema.ts";
import { hashPassword } from "./password-hash.ts";

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: Kysely<DB>, email: string): Promise<User | undefined> {
  return db.selectFrom("users").selectAll().where("email", "=", normalizeEmail(email)).executeTakeFirst();
}

/** Creates the user, or updates the password (and role) of an existing one. Used by the CLI and start-up. */
export async function upsertUser(
  db: Kysely<DB>,
  clock: Clock,
  input: { email: string; password: string; role: "admin" | "user"; name?: string | null },
): Promise<{ user: User; created: boolean }> {
  const email = normalizeEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  const now = clock.now().toISOString();
  const existing = await findUserByEmail(db, email);
  if (existing) {
    await db
      .updateTable("users")
      .set({ password_hash: passwordHash, role: input.role, updated_at: now, ...(input.name !== undefined ? { name: input.name } : {}) })
      .where("id", "=", existing.id)
      .execute();
    // A changed password ends every session opened with the old one.
    await db.updateTable("sessions").set({ revoked_at: now }).where("user_id", "=", existing.id).where("revoked_at", "is", null).execute();
    return { user: { ...existing, password_hash: passwordHash, role: input.role, updated_at: now }, created: false };
  }
  const user: User = { id: newId(), email, name: input.name ?? null, role: input.role, password_hash: passwordHash, created_at: now, updated_at: now };
  await db.insertInto("users").values(user).execute();
  return { user, created: true };
}

export async function hasAdminUser(db: Kysely<DB>, adminEmailDomain: string): Promise<boolean> {
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

/** An account with no local password (a vendor owner who signs in at the storefront). */
export async function createExternalUser(db: Kysely<DB>, clock: Clock, input: { name: string; email: string }): Promise<string> {
  const email = normalizeEmail(input.email);
  const existing = await findUserByEmail(db, email);
  if (existing) return existing.id;
  const now = clock.now().toISOString();
  const id = newId();
  await db.insertInto("users").values({ id, email, name: input.name, role: "user", password_hash: null, created_at: now, updated_at: now }).execute();
  return id;
}
