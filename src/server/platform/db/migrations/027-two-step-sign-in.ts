import type { Kysely } from "kysely";

/**
 * Two-step sign-in for the built-in accounts (docs/product.md "Two-step sign-in"):
 * - `user_two_step`: one row per user who started enrolling: the authenticator-app (TOTP) secret,
 *   sealed with the key webhook secrets use (crypto/sealed-text.ts), `confirmed_at` once a code
 *   proved the app has it (until then it is not asked for at sign-in), and `last_time_step`, the
 *   30-second step of the last code accepted, so a code is accepted once (no replay in its window);
 * - `two_step_recovery_codes`: 10 single-use codes per user, stored as their sha256 (each code
 *   carries 80 random bits, so no slow hash is needed), `used_at` once spent;
 * - `sign_in_challenges`: what a right password answers when a second step is due, stored by the
 *   sha256 of the challenge, valid 5 minutes and once; `account` is the e-mail as typed, the key
 *   of the sign-in throttle's buckets that wrong codes count in.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("user_two_step")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("secret_sealed", "text", (c) => c.notNull())
    .addColumn("confirmed_at", "text")
    .addColumn("last_time_step", "bigint")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("two_step_recovery_codes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema.createIndex("two_step_recovery_codes_user_idx").on("two_step_recovery_codes").column("user_id").execute();

  await db.schema
    .createTable("sign_in_challenges")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("account", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema.createIndex("sign_in_challenges_user_idx").on("sign_in_challenges").column("user_id").execute();
}
