import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * Text sealed with AES-256-GCM: stored secrets (webhook signing secrets) that the panel must read
 * back to use, so a copy of the database alone does not hand them out. The key comes from the
 * environment (WEBHOOK_SECRETS_KEY); a sealed value is "v1." + base64url(iv ‖ tag ‖ ciphertext),
 * and a value altered or sealed with another key does not open (GCM's tag).
 */
const VERSION = "v1.";
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const SEALING_KEY_BYTES = 32;

export class SealingKey {
  private constructor(private readonly key: Buffer) {}

  /** 32 bytes written as 64 hex characters or as base64 / base64url (44 or 43 characters). */
  static parse(text: string): SealingKey {
    const trimmed = text.trim();
    const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, "hex") : /^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed) ? Buffer.from(trimmed, "base64") : null;
    if (!bytes || bytes.length !== SEALING_KEY_BYTES) throw new Error(`must be ${SEALING_KEY_BYTES} random bytes as 64 hex characters or base64 (e.g. openssl rand -base64 32)`);
    return new SealingKey(bytes);
  }

  static generate(): { key: SealingKey; text: string } {
    const bytes = randomBytes(SEALING_KEY_BYTES);
    return { key: new SealingKey(bytes), text: bytes.toString("base64") };
  }

  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return VERSION + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
  }

  /** The text sealed; throws when the value was altered or sealed with another key. */
  open(sealed: string): string {
    if (!sealed.startsWith(VERSION)) throw new Error("not a sealed value");
    const raw = Buffer.from(sealed.slice(VERSION.length), "base64url");
    if (raw.length < IV_BYTES + TAG_BYTES) throw new Error("not a sealed value");
    const decipher = createDecipheriv("aes-256-gcm", this.key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  }

  /** Never printed by accident (logs, errors). */
  toJSON(): string {
    return "[sealing key]";
  }
}
