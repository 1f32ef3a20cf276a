import { type KeyObject, createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import type { PasskeyAuthenticationResponse, PasskeyCreationOptions, PasskeyRegistrationResponse, PasskeyRequestOptions } from "../../contract/auth.ts";

/**
 * A passkey authenticator in software, for the tests (never in the bundle): what a phone or a
 * security key does, byte for byte as WebAuthn (Level 2) describes it. ES256 keys from node:crypto,
 * the attestation object and the COSE key in CBOR, 'none' attestation, authenticator data with the
 * flags UP | UV | AT and a signature counter that counts each use. Each answer can be bent (another
 * origin or RP ID, a counter that goes back) to play an attacker.
 */

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_CREDENTIAL = 0x40;

/** Just enough CBOR (RFC 8949) for WebAuthn: unsigned and negative integers, byte and text strings, maps. */
type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;

function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const head = Buffer.alloc(5);
  head[0] = (major << 5) | 26;
  head.writeUInt32BE(length, 1);
  return head;
}

export function encodeCbor(value: Cbor): Buffer {
  if (typeof value === "number") return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8");
    return Buffer.concat([cborHead(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([cborHead(2, value.length), Buffer.from(value)]);
  const parts = [cborHead(5, value.size)];
  for (const [key, item] of value) parts.push(encodeCbor(key), encodeCbor(item));
  return Buffer.concat(parts);
}

/** The COSE_Key of an ES256 public key: kty EC2, alg -7, crv P-256, x, y. */
function coseKeyOf(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: "jwk" });
  return encodeCbor(
    new Map<Cbor, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, "base64url")],
      [-3, Buffer.from(jwk.y!, "base64url")],
    ]),
  );
}

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest();

interface StoredCredential {
  id: string;
  privateKey: KeyObject;
  rpId: string;
  userHandle: string;
  signCount: number;
}

export interface CeremonyBending {
  /** The page's origin as the browser reports it (default: the authenticator's origin). */
  origin?: string;
  /** The RP ID hashed into the authenticator data (default: the options' RP ID). */
  rpId?: string;
  /** Authenticator-data flags (default UP | UV, and AT when registering). */
  flags?: number;
  /** Another challenge than the options' (a replay of an older one). */
  challenge?: string;
}

export class SoftwareAuthenticator {
  private readonly credentials: StoredCredential[] = [];

  /** `origin`: where the "browser" is, e.g. the test app's PUBLIC_URL. */
  constructor(private readonly origin: string) {}

  private defaultRpId(): string {
    return new URL(this.origin).hostname;
  }

  get credentialIds(): string[] {
    return this.credentials.map((c) => c.id);
  }

  /** navigator.credentials.create: a new key pair, its credential and a 'none' attestation. */
  register(options: PasskeyCreationOptions, bend: CeremonyBending = {}): PasskeyRegistrationResponse {
    const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const credentialId = randomBytes(32);
    const rpId = bend.rpId ?? options.rp.id ?? this.defaultRpId();
    const credential: StoredCredential = { id: credentialId.toString("base64url"), privateKey, rpId, userHandle: options.user.id, signCount: 0 };
    const counter = Buffer.alloc(4);
    const credentialIdLength = Buffer.alloc(2);
    credentialIdLength.writeUInt16BE(credentialId.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([bend.flags ?? FLAG_USER_PRESENT | FLAG_USER_VERIFIED | FLAG_ATTESTED_CREDENTIAL]),
      counter,
      Buffer.alloc(16), // AAGUID: zeros, as a 'none' attestation gives it
      credentialIdLength,
      credentialId,
      coseKeyOf(publicKey),
    ]);
    const attestationObject = encodeCbor(
      new Map<Cbor, Cbor>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    const clientDataJSON = JSON.stringify({ type: "webauthn.create", challenge: bend.challenge ?? options.challenge, origin: bend.origin ?? this.origin, crossOrigin: false });
    this.credentials.push(credential);
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key",
      response: { clientDataJSON: Buffer.from(clientDataJSON).toString("base64url"), attestationObject: attestationObject.toString("base64url"), transports: ["internal"] },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }

  /**
   * navigator.credentials.get: signs authData ‖ sha256(clientDataJSON) with the credential's key.
   * Uses the credential named by `credentialId`, else the first the options allow, else the first
   * held (a discoverable sign-in). `signCount` sets the counter reported (default: one more).
   */
  assert(options: PasskeyRequestOptions, bend: CeremonyBending & { credentialId?: string; signCount?: number } = {}): PasskeyAuthenticationResponse {
    const allowed = new Set((options.allowCredentials ?? []).map((c) => c.id));
    const credential = this.credentials.find((c) => c.id === bend.credentialId) ?? this.credentials.find((c) => allowed.size === 0 || allowed.has(c.id)) ?? this.credentials[0];
    if (!credential) throw new Error("the software authenticator holds no credential");
    credential.signCount = bend.signCount ?? credential.signCount + 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(credential.signCount);
    const rpId = bend.rpId ?? options.rpId ?? credential.rpId;
    const authData = Buffer.concat([sha256(rpId), Buffer.from([bend.flags ?? FLAG_USER_PRESENT | FLAG_USER_VERIFIED]), counter]);
    const clientDataJSON = Buffer.from(JSON.stringify({ type: "webauthn.get", challenge: bend.challenge ?? options.challenge, origin: bend.origin ?? this.origin, crossOrigin: false }));
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key",
      response: {
        clientDataJSON: clientDataJSON.toString("base64url"),
        authenticatorData: authData.toString("base64url"),
        signature: signature.toString("base64url"),
        userHandle: credential.userHandle,
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }
}
