import type { Clock } from "../clock.ts";
import type { AppConfig } from "../config/config.ts";
import type { Executor } from "../db/executor.ts";
import { insertAppSecretIfAbsent, readAppSecret, readAppSecretOrThrow } from "./app-secrets.queries.ts";
import { BetaGate, betaDigest } from "./beta-gate.ts";
import { generateSecret } from "./password-hash.ts";
import { upsertUser } from "./users.ts";
import { hasAdminUser } from "./users.queries.ts";

type Announce = (line: string) => void;

/**
 * The first admin: created at start when no admin exists, from ADMIN_EMAIL/ADMIN_PASSWORD or with a
 * generated password printed once. An existing admin is never touched.
 */
export async function ensureFirstAdmin(db: Executor, clock: Clock, config: AppConfig, announce: Announce): Promise<void> {
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
export async function loadBetaGate(db: Executor, clock: Clock, config: AppConfig, announce: Announce): Promise<BetaGate> {
  if (config.betaPassword) return BetaGate.fromPassword(config.betaPassword);
  const stored = await readAppSecret(db, BETA_SECRET_NAME);
  if (stored !== undefined) {
    announce("Beta password: the one generated on first start (set BETA_PASSWORD to choose one).");
    return BetaGate.fromDigestHex(stored);
  }
  const password = generateSecret(12);
  await insertAppSecretIfAbsent(db, { name: BETA_SECRET_NAME, value: betaDigest(password).toString("hex"), created_at: clock.now().toISOString() });
  // Another replica may have won the race: use whatever is stored now.
  const winner = await readAppSecretOrThrow(db, BETA_SECRET_NAME);
  if (winner === betaDigest(password).toString("hex")) announce(`Beta password: ${password}  (shown once; set BETA_PASSWORD to choose it)`);
  return BetaGate.fromDigestHex(winner);
}
