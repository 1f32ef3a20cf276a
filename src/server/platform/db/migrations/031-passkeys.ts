import type { Kysely } from "kysely";

/**
 * Passkeys (WebAuthn) for the built-in accounts (docs/product.md "Two-step sign-in"):
 * - `passkeys`: one row per registered credential: its id (base64url, unique: one credential
 *   belongs to one account), its COSE public key (base64url), the signature counter it last
 *   reported (a counter going back is refused), its transports (JSON array), the name its owner
 *   gave it, and when it was added and last used;
 * - `webauthn_challenges`: the challenge of each registration or sign-in ceremony, kept in the
 *   database because any server process may receive the answer; stored by its sha256, for one
 *   `purpose` (and the user it was made for, when one is known), 5 minutes, deleted when used.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("passkeys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("credential_id", "text", (c) => c.notNull().unique())
    .addColumn("public_key", "text", (c) => c.notNull())
    .addColumn("counter", "bigint", (c) => c.notNull())
    .addColumn("transports", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_used_at", "text")
    .execute();
  await db.schema.createIndex("passkeys_user_idx").on("passkeys").columns(["user_id", "created_at"]).execute();

  await db.schema
    .createTable("webauthn_challenges")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("webauthn_challenges_expiry_idx").on("webauthn_challenges").column("expires_at").execute();
}
