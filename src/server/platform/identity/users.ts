import type { Clock } from "../clock.ts";
import { newId } from "../db/ids.ts";
import type { User } from "../db/schema.ts";
import type { Executor } from "../db/executor.ts";
import { hashPassword } from "./password-hash.ts";
import { revokeUserSessions } from "./sessions.queries.ts";
import { insertUser, selectUserByEmail, updateUserCredentials } from "./users.queries.ts";

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: Executor, email: string): Promise<User | undefined> {
  return selectUserByEmail(db, normalizeEmail(email));
}

/** Creates the user, or updates the password (and role) of an existing one. Used by the CLI and start-up. */
export async function upsertUser(
  db: Executor,
  clock: Clock,
  input: {
    email: string;
    password: string;
    role: User["role"];
    name?: string | null;
    /** The password's hash when the caller made it already (before opening a transaction: hashing is slow on purpose). */
    passwordHash?: string;
  },
): Promise<{ user: User; created: boolean }> {
  const email = normalizeEmail(input.email);
  const passwordHash = input.passwordHash ?? (await hashPassword(input.password));
  const now = clock.now().toISOString();
  const existing = await findUserByEmail(db, email);
  if (existing) {
    await updateUserCredentials(db, existing.id, {
      password_hash: passwordHash,
      role: input.role,
      updated_at: now,
      ...(input.name !== undefined ? { name: input.name } : {}),
    });
    // A changed password ends every session opened with the old one.
    await revokeUserSessions(db, existing.id, now);
    return { user: { ...existing, password_hash: passwordHash, role: input.role, updated_at: now }, created: false };
  }
  const user: User = { id: newId(), email, name: input.name ?? null, role: input.role, password_hash: passwordHash, created_at: now, updated_at: now };
  await insertUser(db, user);
  return { user, created: true };
}

/** An account with no local password (a vendor owner who signs in at the storefront). */
export async function createExternalUser(db: Executor, clock: Clock, input: { name: string; email: string }): Promise<string> {
  const email = normalizeEmail(input.email);
  const existing = await findUserByEmail(db, email);
  if (existing) return existing.id;
  const now = clock.now().toISOString();
  const id = newId();
  await insertUser(db, { id, email, name: input.name, role: "user", password_hash: null, created_at: now, updated_at: now });
  return id;
}
