import type { Insertable, Selectable } from "kysely";
import type { Executor } from "../db/executor.ts";
import type { PasskeysTable, WebauthnChallengesTable } from "../db/schema.ts";

export type PasskeyRow = Selectable<PasskeysTable>;
export type WebauthnChallengePurpose = WebauthnChallengesTable["purpose"];

/** PostgreSQL's bigint comes back as text from some drivers: one number type for the callers. */
function withNumberCounter(row: PasskeyRow): PasskeyRow {
  return { ...row, counter: Number(row.counter) };
}

/** A user's passkeys, oldest first (the order they were added in). */
export async function listUserPasskeys(db: Executor, userId: string): Promise<PasskeyRow[]> {
  const rows = await db.selectFrom("passkeys").selectAll().where("user_id", "=", userId).orderBy("created_at").orderBy("id").execute();
  return rows.map(withNumberCounter);
}

export async function countUserPasskeys(db: Executor, userId: string): Promise<number> {
  const row = await db
    .selectFrom("passkeys")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** One of the user's passkeys by its id; undefined for another user's or an unknown one. */
export async function selectUserPasskey(db: Executor, userId: string, id: string): Promise<PasskeyRow | undefined> {
  const row = await db.selectFrom("passkeys").selectAll().where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
  return row ? withNumberCounter(row) : undefined;
}

export async function selectPasskeyByCredentialId(db: Executor, credentialId: string): Promise<PasskeyRow | undefined> {
  const row = await db.selectFrom("passkeys").selectAll().where("credential_id", "=", credentialId).executeTakeFirst();
  return row ? withNumberCounter(row) : undefined;
}

export async function insertPasskey(db: Executor, row: Insertable<PasskeysTable>): Promise<void> {
  await db.insertInto("passkeys").values(row).execute();
}

/** Renames the passkey; false when it is not (or no longer) the user's. */
export async function renamePasskey(db: Executor, userId: string, id: string, name: string): Promise<boolean> {
  const result = await db.updateTable("passkeys").set({ name }).where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Removes the passkey; false when it is not (or no longer) the user's. */
export async function deleteUserPasskey(db: Executor, userId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom("passkeys").where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Every passkey of the user (an admin's reset); how many went. */
export async function deleteAllUserPasskeys(db: Executor, userId: string): Promise<number> {
  await db.deleteFrom("webauthn_challenges").where("user_id", "=", userId).execute();
  const result = await db.deleteFrom("passkeys").where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Records a use: the new counter and the time, only if the counter moved forward (or the
 * authenticator keeps none: both 0). One conditional update, so one assertion sent twice at once
 * cannot pass twice on an authenticator that counts.
 */
export async function recordPasskeyUse(db: Executor, id: string, newCounter: number, usedAt: string): Promise<boolean> {
  const result = await db
    .updateTable("passkeys")
    .set({ counter: newCounter, last_used_at: usedAt })
    .where("id", "=", id)
    .where((eb) => (newCounter === 0 ? eb("counter", "=", 0) : eb("counter", "<", newCounter)))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertWebauthnChallenge(db: Executor, row: Insertable<WebauthnChallengesTable>): Promise<void> {
  await db.insertInto("webauthn_challenges").values(row).execute();
}

/**
 * Spends a challenge: deleted if it is still open, of this purpose (and this user's, when given).
 * False when it is unknown, used, expired or another ceremony's. One delete, so a challenge passes once.
 */
export async function spendWebauthnChallenge(db: Executor, id: string, purpose: WebauthnChallengePurpose, userId: string | null, now: string): Promise<boolean> {
  let query = db.deleteFrom("webauthn_challenges").where("id", "=", id).where("purpose", "=", purpose).where("expires_at", ">", now);
  query = userId === null ? query.where("user_id", "is", null) : query.where("user_id", "=", userId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Challenges past their time are of no use: removed when a new one is made, so the table stays small. */
export async function deleteExpiredWebauthnChallenges(db: Executor, now: string): Promise<void> {
  await db.deleteFrom("webauthn_challenges").where("expires_at", "<=", now).execute();
}
