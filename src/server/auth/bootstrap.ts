import type { Kysely } from "kysely";
import type { Clock } from "../clock.ts";
import type { AppConfig } from "../config.ts";
import type { DB } from "../db/schema.ts";
import { BetaGate, betaDigest } from "./beta-gate.ts";
import { generateSecret } from "./password-hash.ts";
import { hasAdminUser, upsertUser } from "./users.ts";

type Announce = (line: string) => void;

/**
 * The first admin: created at start when no admin exists, from ADMIN_EMAIL/ADMIN_PASSWORD or with a
 * generated password printed once. An existing admin is never touched.
 */
export async function ensureFirstAdmin(db: Kysely<DB>, clock: Clock, config: AppConfig, announce: Announce): Promise<void> {
  if (await hasAdminUser(db, config.adminEmailDomain)) return;
  const password = config.adminPassword ?? generateSecret();
  await upsertUser(db, clock, { email: config.adminEmail, password, role: "admin", name: "Platform Admin" });
  if (config.adminPassword) announce(`Created the first admin ${config.adminEmail} (password from ADMIN_PASSWORD).`);
  else announce(`Created the first admin: ${config.adminEmail} / ${password}  (shown once; set ADMIN_PASSWORD to choose it)`);
}

const BETA_SECRET_NAME = "beta_password_sha256";

/**
 * The beta gate: BETA_PASSWORD when set; otherwise a password generated on first start, printed
 * once, of which only the sha256 is stored, so every restart and replica accepts the same one.
 */
export async function loadBetaGate(db: Kysely<DB>, clock: Clock, config: AppConfig, announce: Announce): Promise<BetaGate> {
  if (config.betaPassword) return BetaGate.fromPassword(config.betaPassword);
  const stored = await db.selectFrom("app_secrets").select("value").where("name", "=", BETA_SECRET_NAME).executeTakeFirst();
  if (stored) {
    announce("Beta password: the one generated on first start (set BETA_PASSWORD to choose one).");
    return BetaGate.fromDigestHex(stored.value);
  }
  const password = generateSecret(12);
  await db
    .insertInto("app_secrets")
    .values({ name: BETA_SECRET_NAME, value: betaDigest(password).toString("hex"), created_at: clock.now().toISOString() })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  // Another replica may have won the race: use whatever is stored now.
  const winner = await db.selectFrom("app_secrets").select("value").where("name", "=", BETA_SECRET_NAME).executeTakeFirstOrThrow();
  if (winner.value === betaDigest(password).toString("hex")) announce(`Beta password: ${password}  (shown once; set BETA_PASSWORD to choose it)`);
  return BetaGate.fromDigestHex(winner.value);
}
