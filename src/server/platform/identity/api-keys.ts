import { createHash, randomBytes } from "node:crypto";
import type { Executor } from "../db/executor.ts";

/**
 * API keys for services (docs/integration.md): `hki_sk_` and 32 random bytes in base64url. A key is
 * shown once when made and stored only as its sha256: with 256 random bits there is nothing to
 * guess, so a slow password hash would add only cost (as for session tokens, local-auth-provider.ts).
 */
export const API_KEY_PREFIX = "hki_sk_";
const SECRET_BYTES = 32;

/** Characters of the secret shown after the prefix in lists ("hki_sk_AbCd…wxyz"). */
const SHOWN_PREFIX_CHARACTERS = 4;

export interface NewApiKeySecret {
  /** The key itself: given to the admin once, never stored. */
  key: string;
  hash: string;
  prefix: string;
  lastFour: string;
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** True when a bearer token is shaped like an API key (never looked up as a session). */
export function looksLikeApiKey(token: string): boolean {
  return token.startsWith(API_KEY_PREFIX);
}

export function newApiKeySecret(): NewApiKeySecret {
  const secret = randomBytes(SECRET_BYTES).toString("base64url");
  const key = `${API_KEY_PREFIX}${secret}`;
  return { key, hash: hashApiKey(key), prefix: `${API_KEY_PREFIX}${secret.slice(0, SHOWN_PREFIX_CHARACTERS)}`, lastFour: secret.slice(-4) };
}

export interface ApiKeyPrincipal {
  id: string;
  name: string;
  scopes: string[];
}

/** last_used_at moves at most this often per key: a busy sender costs one write a minute, not one per request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The live (not revoked) key a bearer token is, or null. Read from the database on every request
 * (one primary-key read of the unique hash index), so a revocation holds on every process at once.
 */
export async function findLiveApiKey(db: Executor, key: string): Promise<(ApiKeyPrincipal & { lastUsedAt: string | null }) | null> {
  const row = await db.selectFrom("api_keys").select(["id", "name", "scopes", "last_used_at", "revoked_at"]).where("key_hash", "=", hashApiKey(key)).executeTakeFirst();
  if (!row || row.revoked_at !== null) return null;
  return { id: row.id, name: row.name, scopes: parseScopes(row.scopes), lastUsedAt: row.last_used_at };
}

export function parseScopes(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((s): s is string => typeof s === "string") : [];
  } catch {
    return [];
  }
}

/** Notes a use of the key, unless one was noted within LAST_USED_RESOLUTION_MS (a conditional update: replicas race harmlessly). */
export async function noteApiKeyUse(db: Executor, keyId: string, lastUsedAt: string | null, now: Date): Promise<void> {
  const threshold = new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString();
  if (lastUsedAt !== null && lastUsedAt > threshold) return;
  await db
    .updateTable("api_keys")
    .set({ last_used_at: now.toISOString() })
    .where("id", "=", keyId)
    .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<=", threshold)]))
    .execute();
}
