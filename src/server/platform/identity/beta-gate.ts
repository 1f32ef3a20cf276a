import { createHash, timingSafeEqual } from "node:crypto";

/**
 * The private-beta shared password. Only its sha256 is kept (in memory, or in app_secrets when it
 * was generated) and compared in constant time; the password itself never reaches the browser.
 */
export class BetaGate {
  private constructor(private readonly expected: Buffer) {}

  static fromPassword(password: string): BetaGate {
    return new BetaGate(betaDigest(password));
  }

  static fromDigestHex(hex: string): BetaGate {
    return new BetaGate(Buffer.from(hex, "hex"));
  }

  verify(candidate: string): boolean {
    return timingSafeEqual(this.expected, betaDigest(candidate));
  }
}

export function betaDigest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
