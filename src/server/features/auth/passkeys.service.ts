import { createHash, randomBytes } from "node:crypto";
import { type AuthenticatorTransport, generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse } from "@simplewebauthn/server";
import type { Passkey, PasskeyAuthenticationResponse, PasskeyCreationOptions, PasskeyList, PasskeyRegistrationResponse, PasskeyRequestOptions } from "../../../contract/auth.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { recordAudit } from "../../domain/audit/audit-log.ts";
import type { Actor } from "../../platform/identity/actor.ts";
import { newId } from "../../platform/db/ids.ts";
import { conflict, invalidField, notFound } from "../../platform/http/http-error.ts";
import {
  type PasskeyRow,
  type WebauthnChallengePurpose,
  deleteExpiredWebauthnChallenges,
  deleteUserPasskey,
  insertPasskey,
  insertWebauthnChallenge,
  listUserPasskeys,
  recordPasskeyUse,
  renamePasskey,
  selectPasskeyByCredentialId,
  selectUserPasskey,
  spendWebauthnChallenge,
} from "../../platform/identity/passkeys.queries.ts";
import { canRemoveLastFactor, secondFactorsOf } from "../../platform/identity/second-factors.ts";
import { clearEnrolmentDue } from "../../platform/identity/sessions.queries.ts";

/** How long a ceremony's challenge works: the browser's own prompt gives up after `CEREMONY_TIMEOUT_MS`. */
export const WEBAUTHN_CHALLENGE_TTL_MINUTES = 5;
const CEREMONY_TIMEOUT_MS = 2 * 60_000;
/** What the browser's passkey prompt names the site. */
const RP_NAME = "HKI Global Admin";
/** Enough for every device and key a person uses; keeps the list (and `excludeCredentials`) short. */
export const MAX_PASSKEYS_PER_USER = 20;
/** Transports WebAuthn names today; anything else a browser sends is dropped, not stored. */
const KNOWN_TRANSPORTS = new Set(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"]);

/** A passkey assertion as the second step of a password sign-in (AuthService.completeSecondStep). */
export interface PasskeyFactor {
  passkey: PasskeyAuthenticationResponse;
}

/** Why an assertion did not sign in (kept in the failure's audit row), or the passkey it proved. */
export type AssertionOutcome = { ok: true; passkey: PasskeyRow } | { ok: false; reason: string; passkey: PasskeyRow | null };

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The challenge a ceremony's answer signed, read from its clientDataJSON; null when unreadable. */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8")) as { challenge?: unknown };
    return typeof data.challenge === "string" && data.challenge.length > 0 && data.challenge.length <= 200 ? data.challenge : null;
  } catch {
    return null;
  }
}

/** The user handle a passkey carries: the account's id, as registration gave it. */
function userHandleOf(userId: string): string {
  return Buffer.from(userId, "utf8").toString("base64url");
}

function toPasskey(row: PasskeyRow): Passkey {
  return { id: row.id, name: row.name, createdAt: row.created_at, lastUsedAt: row.last_used_at };
}

/** The stored transports (only names WebAuthn knows were stored: KNOWN_TRANSPORTS). */
function transportsOf(row: PasskeyRow): AuthenticatorTransport[] {
  const parsed = JSON.parse(row.transports) as unknown;
  return Array.isArray(parsed) ? parsed.filter((t): t is AuthenticatorTransport => typeof t === "string" && KNOWN_TRANSPORTS.has(t)) : [];
}

/**
 * Passkeys (WebAuthn) of the built-in accounts (docs/product.md "Two-step sign-in"): adding,
 * naming and removing them, and checking an assertion for a sign-in with a passkey alone or for
 * the second step of a password sign-in (passkey-sign-in.service.ts, auth.service.ts).
 *
 * The relying party is the panel's public address: its origin is PUBLIC_URL and its RP ID that
 * address's host name, never a request's headers. Every ceremony's challenge is stored in the
 * database (any server process may receive the answer) by its sha256, for one purpose and user,
 * 5 minutes, and is deleted by the first answer that names it, right or wrong.
 *
 * `twoStepRequired` says whether two-step sign-in is required of a user ('Require two-step
 * sign-in for all staff', given by auth.routes.ts); with it, a user's last second factor cannot be
 * removed (`canRemoveLastFactor`).
 */
export class PasskeysService {
  constructor(
    private readonly deps: Pick<AppDeps, "database" | "clock" | "config">,
    private readonly twoStepRequired: (userId: string) => Promise<boolean> = async () => false,
  ) {}

  private get db() {
    return this.deps.database.db;
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  /** The relying party: the panel's origin and its host name as RP ID. */
  private get relyingParty(): { origin: string; id: string } {
    const origin = this.deps.config.publicUrl;
    return { origin, id: new URL(origin).hostname };
  }

  async list(userId: string): Promise<PasskeyList> {
    return { passkeys: (await listUserPasskeys(this.db, userId)).map(toPasskey) };
  }

  async registrationOptions(actor: Actor): Promise<PasskeyCreationOptions> {
    // Under Clerk, sign-in never reaches the panel: a passkey registered here would open nothing.
    if (this.deps.config.authProvider === "clerk") throw conflict("Under Clerk, passkeys are set up in your Clerk account");
    const existing = await listUserPasskeys(this.db, actor.user.id);
    if (existing.length >= MAX_PASSKEYS_PER_USER) throw conflict(`You have ${MAX_PASSKEYS_PER_USER} passkeys, the most an account may have: remove one first`);
    const challenge = await this.openChallenge("register", actor.user.id);
    const options = await generateRegistrationOptions({
      rpName: RP_NAME,
      rpID: this.relyingParty.id,
      userName: actor.user.email,
      userDisplayName: actor.user.name ?? actor.user.email,
      userID: new Uint8Array(Buffer.from(actor.user.id, "utf8")),
      // As bytes: a string would be taken as UTF-8 text and sent as another base64url value.
      challenge: new Uint8Array(Buffer.from(challenge, "base64url")),
      timeout: CEREMONY_TIMEOUT_MS,
      attestationType: "none",
      // A passkey already on this authenticator is not made twice.
      excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
      // Discoverable (so a sign-in needs no e-mail) and verified (a PIN or biometric: both factors in one).
      authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "required" },
    });
    return {
      rp: options.rp,
      user: options.user,
      challenge: options.challenge,
      pubKeyCredParams: options.pubKeyCredParams,
      ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
      excludeCredentials: (options.excludeCredentials ?? []).map((c) => ({ id: c.id, type: "public-key" as const, ...(c.transports ? { transports: [...c.transports] } : {}) })),
      authenticatorSelection: options.authenticatorSelection ?? {},
      attestation: options.attestation ?? "none",
      extensions: { credProps: true },
    };
  }

  async register(actor: Actor, name: string, response: PasskeyRegistrationResponse): Promise<Passkey> {
    if (this.deps.config.authProvider === "clerk") throw conflict("Under Clerk, passkeys are set up in your Clerk account");
    const challenge = challengeOf(response.response.clientDataJSON);
    if (!challenge) throw invalidField("response", "clientDataJSON is not a WebAuthn client data JSON");
    if (!(await spendWebauthnChallenge(this.db, sha256(challenge), "register", actor.user.id, this.now())))
      throw invalidField("response", "this passkey request has expired or was answered already: add the passkey again");
    const { origin, id: rpId } = this.relyingParty;
    let verification;
    try {
      verification = await verifyRegistrationResponse({
        // What verification reads: the client data and the attestation (transports are kept apart, below).
        response: {
          id: response.id,
          rawId: response.rawId,
          type: response.type,
          response: { clientDataJSON: response.response.clientDataJSON, attestationObject: response.response.attestationObject },
          clientExtensionResults: {},
        },
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpId,
        requireUserVerification: true,
      });
    } catch (error) {
      throw invalidField("response", `the passkey could not be verified: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!verification.verified) throw invalidField("response", "the passkey could not be verified");
    const { credential } = verification.registrationInfo;
    if (await selectPasskeyByCredentialId(this.db, credential.id)) throw conflict("This passkey is registered already");
    const transports = (response.response.transports ?? []).filter((t) => KNOWN_TRANSPORTS.has(t));
    const row: PasskeyRow = {
      id: newId(),
      user_id: actor.user.id,
      credential_id: credential.id,
      public_key: Buffer.from(credential.publicKey).toString("base64url"),
      counter: credential.counter,
      transports: JSON.stringify([...new Set(transports)]),
      name,
      created_at: this.now(),
      last_used_at: null,
    };
    await this.db.transaction().execute(async (trx) => {
      await insertPasskey(trx, row);
      // A passkey is a second factor: a session held at enrolment ('Require two-step sign-in') is let through.
      await clearEnrolmentDue(trx, actor.user.id);
      await recordAudit(trx, { actor, action: "auth.passkey_add", target: { type: "passkey", id: row.id, label: name }, details: { user: actor.user.email } }, this.deps.clock);
    });
    return toPasskey(row);
  }

  async rename(actor: Actor, id: string, name: string): Promise<Passkey> {
    return this.db.transaction().execute(async (trx) => {
      const row = await selectUserPasskey(trx, actor.user.id, id);
      if (!row) throw notFound("No such passkey");
      if (row.name === name) return toPasskey(row);
      if (!(await renamePasskey(trx, actor.user.id, id, name))) throw notFound("No such passkey");
      await recordAudit(trx, { actor, action: "auth.passkey_rename", target: { type: "passkey", id, label: name }, before: { name: row.name }, after: { name } }, this.deps.clock);
      return toPasskey({ ...row, name });
    });
  }

  async remove(actor: Actor, id: string): Promise<void> {
    const row = await selectUserPasskey(this.db, actor.user.id, id);
    if (!row) throw notFound("No such passkey");
    const factors = await secondFactorsOf(this.db, actor.user.id);
    if (!canRemoveLastFactor(factors, "passkey", await this.twoStepRequired(actor.user.id)))
      throw conflict(`“${row.name}” is your last way to pass two-step sign-in, which is required: add another passkey or an authenticator app first`);
    await this.db.transaction().execute(async (trx) => {
      if (!(await deleteUserPasskey(trx, actor.user.id, id))) throw notFound("No such passkey");
      await recordAudit(trx, { actor, action: "auth.passkey_remove", target: { type: "passkey", id, label: row.name }, details: { user: actor.user.email } }, this.deps.clock);
    });
  }

  // ---- assertions: a sign-in with a passkey alone, or the second step ---------------------------

  /**
   * Options for an assertion. For a sign-in with a passkey alone (`userId` null) no credential is
   * named: the browser offers the discoverable passkeys it holds for the panel. For a second step,
   * the account's passkeys.
   */
  async requestOptions(purpose: Exclude<WebauthnChallengePurpose, "register">, userId: string | null): Promise<PasskeyRequestOptions> {
    const allow = userId === null ? [] : await listUserPasskeys(this.db, userId);
    const challenge = await this.openChallenge(purpose, userId);
    const options = await generateAuthenticationOptions({
      rpID: this.relyingParty.id,
      // As bytes: a string would be taken as UTF-8 text and sent as another base64url value.
      challenge: new Uint8Array(Buffer.from(challenge, "base64url")),
      timeout: CEREMONY_TIMEOUT_MS,
      userVerification: "required",
      allowCredentials: allow.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
    });
    return {
      challenge: options.challenge,
      ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
      ...(options.rpId !== undefined ? { rpId: options.rpId } : {}),
      allowCredentials: (options.allowCredentials ?? []).map((c) => ({ id: c.id, type: "public-key" as const, ...(c.transports ? { transports: [...c.transports] } : {}) })),
      userVerification: "required",
    };
  }

  /** The passkey an assertion names, before it is checked (for the sign-in limits of its account). */
  async passkeyNamed(response: PasskeyAuthenticationResponse): Promise<PasskeyRow | undefined> {
    return selectPasskeyByCredentialId(this.db, response.id);
  }

  /**
   * Checks an assertion: its challenge (spent here, whatever follows), the passkey it names (the
   * user's, for a second step), the origin, RP ID, user verification and signature, the user handle,
   * and a signature counter that moved forward (recorded with the time of use).
   */
  async verifyAssertion(purpose: Exclude<WebauthnChallengePurpose, "register">, userId: string | null, response: PasskeyAuthenticationResponse): Promise<AssertionOutcome> {
    const challenge = challengeOf(response.response.clientDataJSON);
    const passkey = (await selectPasskeyByCredentialId(this.db, response.id)) ?? null;
    if (!challenge) return { ok: false, reason: "unreadable client data", passkey };
    if (!(await spendWebauthnChallenge(this.db, sha256(challenge), purpose, userId, this.now()))) return { ok: false, reason: "challenge unknown, expired or used", passkey };
    if (!passkey || (userId !== null && passkey.user_id !== userId)) return { ok: false, reason: "unknown passkey", passkey: null };
    if (response.response.userHandle !== undefined && response.response.userHandle !== userHandleOf(passkey.user_id)) return { ok: false, reason: "user handle of another account", passkey };
    const { origin, id: rpId } = this.relyingParty;
    let newCounter: number;
    try {
      const verification = await verifyAuthenticationResponse({
        response: { ...response, clientExtensionResults: response.clientExtensionResults ?? {} },
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpId,
        credential: { id: passkey.credential_id, publicKey: new Uint8Array(Buffer.from(passkey.public_key, "base64url")), counter: passkey.counter },
        requireUserVerification: true,
      });
      if (!verification.verified) return { ok: false, reason: "signature not verified", passkey };
      newCounter = verification.authenticationInfo.newCounter;
    } catch (error) {
      return { ok: false, reason: error instanceof Error ? error.message : String(error), passkey };
    }
    // Checked again in the update itself: two copies of one assertion sent at once pass once.
    if (!(await recordPasskeyUse(this.db, passkey.id, newCounter, this.now()))) return { ok: false, reason: "signature counter did not move forward", passkey };
    return { ok: true, passkey };
  }

  /** A new challenge for one ceremony, stored by its hash; expired ones are cleared on the way. */
  private async openChallenge(purpose: WebauthnChallengePurpose, userId: string | null): Promise<string> {
    const challenge = randomBytes(32).toString("base64url");
    const now = this.deps.clock.now();
    await deleteExpiredWebauthnChallenges(this.db, now.toISOString());
    await insertWebauthnChallenge(this.db, {
      id: sha256(challenge),
      purpose,
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + WEBAUTHN_CHALLENGE_TTL_MINUTES * 60_000).toISOString(),
    });
    return challenge;
  }
}
