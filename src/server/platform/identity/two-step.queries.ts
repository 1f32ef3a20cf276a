import type { Insertable, Selectable } from "kysely";
import type { Executor } from "../db/executor.ts";
import type { SignInChallengesTable, UserTwoStepTable } from "../db/schema.ts";

export type UserTwoStepRow = Selectable<UserTwoStepTable>;
export type SignInChallengeRow = Selectable<SignInChallengesTable>;

export async function selectUserTwoStep(db: Executor, userId: string): Promise<UserTwoStepRow | undefined> {
  const row = await db.selectFrom("user_two_step").selectAll().where("user_id", "=", userId).executeTakeFirst();
  // PostgreSQL's bigint comes back as text from some drivers: one number type for the callers.
  return row ? { ...row, last_time_step: row.last_time_step === null ? null : Number(row.last_time_step) } : undefined;
}

export async function hasConfirmedTwoStep(db: Executor, userId: string): Promise<boolean> {
  const row = await db.selectFrom("user_two_step").select("user_id").where("user_id", "=", userId).where("confirmed_at", "is not", null).executeTakeFirst();
  return row !== undefined;
}

/** A new, unconfirmed secret replaces any earlier unconfirmed one (a setup started again). */
export async function replaceUnconfirmedTwoStep(db: Executor, row: { user_id: string; secret_sealed: string; created_at: string }): Promise<void> {
  await db.deleteFrom("user_two_step").where("user_id", "=", row.user_id).where("confirmed_at", "is", null).execute();
  await db
    .insertInto("user_two_step")
    .values({ ...row, confirmed_at: null, last_time_step: null })
    .execute();
}

/**
 * Records `timeStep` as the last accepted code's step, only if it is later than the one recorded:
 * false means the code (or an earlier one) was used already. One conditional update, so two
 * requests with the same code cannot both pass.
 */
export async function claimTimeStep(db: Executor, userId: string, timeStep: number, confirmedAt?: string): Promise<boolean> {
  const result = await db
    .updateTable("user_two_step")
    .set(confirmedAt ? { last_time_step: timeStep, confirmed_at: confirmedAt } : { last_time_step: timeStep })
    .where("user_id", "=", userId)
    .where((eb) => eb.or([eb("last_time_step", "is", null), eb("last_time_step", "<", timeStep)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteTwoStep(db: Executor, userId: string): Promise<number> {
  await db.deleteFrom("two_step_recovery_codes").where("user_id", "=", userId).execute();
  await db.deleteFrom("sign_in_challenges").where("user_id", "=", userId).execute();
  const result = await db.deleteFrom("user_two_step").where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function replaceRecoveryCodes(db: Executor, userId: string, rows: Array<{ id: string; code_hash: string; created_at: string }>): Promise<void> {
  await db.deleteFrom("two_step_recovery_codes").where("user_id", "=", userId).execute();
  await db
    .insertInto("two_step_recovery_codes")
    .values(rows.map((row) => ({ ...row, user_id: userId, used_at: null })))
    .execute();
}

export async function listUnusedRecoveryCodes(db: Executor, userId: string): Promise<Array<{ id: string; code_hash: string }>> {
  return db.selectFrom("two_step_recovery_codes").select(["id", "code_hash"]).where("user_id", "=", userId).where("used_at", "is", null).execute();
}

/** Spends a recovery code; false when another request spent it first. */
export async function spendRecoveryCode(db: Executor, id: string, usedAt: string): Promise<boolean> {
  const result = await db.updateTable("two_step_recovery_codes").set({ used_at: usedAt }).where("id", "=", id).where("used_at", "is", null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertSignInChallenge(db: Executor, row: Insertable<SignInChallengesTable>): Promise<void> {
  await db.insertInto("sign_in_challenges").values(row).execute();
}

export async function selectSignInChallenge(db: Executor, id: string): Promise<SignInChallengeRow | undefined> {
  return db.selectFrom("sign_in_challenges").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Spends a challenge that is still open; false when it was used or has expired meanwhile. */
export async function spendSignInChallenge(db: Executor, id: string, now: string): Promise<boolean> {
  const result = await db.updateTable("sign_in_challenges").set({ used_at: now }).where("id", "=", id).where("used_at", "is", null).where("expires_at", ">", now).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Challenges past their time are of no use: removed when a new one is made, so the table stays small. */
export async function deleteExpiredSignInChallenges(db: Executor, now: string): Promise<void> {
  await db.deleteFrom("sign_in_challenges").where("expires_at", "<=", now).execute();
}

/** The setting 'Require two-step sign-in for all staff' (the settings catalogue's require_two_step_sign_in). */
export async function twoStepRequired(db: Executor): Promise<boolean> {
  const row = await db.selectFrom("platform_settings").select("value").where("key", "=", "require_two_step_sign_in").executeTakeFirst();
  return row?.value === "true";
}
