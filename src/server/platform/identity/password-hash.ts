import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/**
 * scrypt at the OWASP Password Storage Cheat Sheet strength. That sheet lists N=2^17, r=8, p=1
 * (128 MiB of memory per hash) and, as equivalent, N=2^15, r=8, p=3 (32 MiB, the same work in three
 * passes). We use the second: with the first, every sign-in's 128 MiB set the server's peak memory
 * (an idle ~125 MB + 128 MiB). The parameters are stored with each hash, so older hashes still verify,
 * and a sign-in with one re-hashes the password at these (`needsRehash`, local-auth-provider.ts).
 * Format: scrypt$N$r$p$salt(base64)$key(base64).
 */
export const DEFAULT_PARAMS = { N: 2 ** 15, r: 8, p: 3 } as const;
const KEY_LENGTH = 32;

function deriveKey(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string, params: { N: number; r: number; p: number } = DEFAULT_PARAMS): Promise<string> {
  const salt = randomBytes(16);
  const key = await deriveKey(password, salt, params);
  const { N, r, p } = params;
  return `scrypt$${N}$${r}$${p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

/** True when a stored hash was made with other parameters than today's (re-hash it at the next successful sign-in). */
export function needsRehash(stored: string): boolean {
  const { N, r, p } = DEFAULT_PARAMS;
  return !stored.startsWith(`scrypt$${N}$${r}$${p}$`);
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [, n, r, p, saltText, keyText] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(keyText, "base64");
  const actual = await deriveKey(password, Buffer.from(saltText, "base64"), { N: Number(n), r: Number(r), p: Number(p) });
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** A hash of a random password: verifying against it costs the same as a real one (equal timing for unknown e-mails). */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString("hex"));
  return dummyHash;
}

export function generateSecret(bytes = 18): string {
  return randomBytes(bytes).toString("base64url");
}
