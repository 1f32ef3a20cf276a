import type { Clock } from "../clock.ts";
import type { AppConfig } from "../config/config.ts";
import type { Executor } from "../db/executor.ts";
import { insertAppSecretIfAbsent, readAppSecret, readAppSecretOrThrow } from "./app-secrets.queries.ts";
import { SealingKey } from "../crypto/sealed-text.ts";

const SECRET_NAME = "webhook_secrets_key";

/**
 * The key webhook signing secrets are sealed with: WEBHOOK_SECRETS_KEY when set (always in
 * production, where config.ts requires it); otherwise, as the beta password, one generated on first
 * start and printed once, kept in app_secrets so every restart and replica opens the same secrets.
 */
export async function loadWebhookSealingKey(db: Executor, clock: Clock, config: Pick<AppConfig, "webhookSecretsKey">, announce: (line: string) => void): Promise<SealingKey> {
  if (config.webhookSecretsKey !== undefined) return SealingKey.parse(config.webhookSecretsKey);
  const stored = await readAppSecret(db, SECRET_NAME);
  if (stored !== undefined) return SealingKey.parse(stored);
  const generated = SealingKey.generate();
  await insertAppSecretIfAbsent(db, { name: SECRET_NAME, value: generated.text, created_at: clock.now().toISOString() });
  // Another replica may have won the race: use whatever is stored now.
  const winner = await readAppSecretOrThrow(db, SECRET_NAME);
  if (winner === generated.text) announce(`Webhook secrets key: ${winner}  (generated once and kept in the database; set WEBHOOK_SECRETS_KEY to it to choose it, as production requires)`);
  return SealingKey.parse(winner);
}

const loaded = new WeakMap<object, Promise<SealingKey>>();

/** The sealing key of this database, loaded once per process (start-up made sure it exists). */
export function webhookSealingKey(db: Executor, config: Pick<AppConfig, "webhookSecretsKey">): Promise<SealingKey> {
  let key = loaded.get(db);
  if (!key) {
    key = config.webhookSecretsKey !== undefined ? Promise.resolve(SealingKey.parse(config.webhookSecretsKey)) : readAppSecretOrThrow(db, SECRET_NAME).then((text) => SealingKey.parse(text));
    key.catch(() => loaded.delete(db));
    loaded.set(db, key);
  }
  return key;
}
