import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { renderSVG } from "uqr";
import { STEP_UP_WINDOW_MINUTES } from "../../../contract/access.ts";
import {
  RECOVERY_CODE_COUNT,
  type StepUpResponse,
  SIGN_IN_CHALLENGE_TTL_MINUTES,
  type ResetTwoStepResponse,
  type TwoStepConfirmResponse,
  type TwoStepSetupResponse,
  type TwoStepStatus,
} from "../../../contract/auth.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { recordAudit } from "../../domain/audit/audit-log.ts";
import type { Actor } from "../../platform/identity/actor.ts";
import { newId } from "../../platform/db/ids.ts";
import { conflict, notFound, tooManyRequests, unauthorized } from "../../platform/http/http-error.ts";
import type { RateLimitRule } from "../../platform/http/rate-limiter.ts";
import { clearEnrolmentDue, markSecondFactor, revokeUserSessions } from "../../platform/identity/sessions.queries.ts";
import {
  type SignInChallengeRow,
  claimTimeStep,
  deleteExpiredSignInChallenges,
  deleteTwoStep,
  insertSignInChallenge,
  listUnusedRecoveryCodes,
  replaceRecoveryCodes,
  replaceUnconfirmedTwoStep,
  selectSignInChallenge,
  selectUserTwoStep,
  spendRecoveryCode,
  hasConfirmedTwoStep,
  spendSignInChallenge,
  twoStepRequired,
} from "../../platform/identity/two-step.queries.ts";
import { selectSessionUserById } from "../../platform/identity/users.queries.ts";
import { deleteAllUserPasskeys } from "../../platform/identity/passkeys.queries.ts";
import { webhookSealingKey } from "../../platform/identity/webhook-sealing-key.ts";
import { canRemoveLastFactor, secondFactorsOf } from "../../platform/identity/second-factors.ts";

/** RFC 6238 as every authenticator app reads it by default: SHA1, 6 digits, 30-second steps. */
const TOTP_ALGORITHM = "SHA1";
const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** One step either side: a phone clock a little off, or a code typed as it changed. */
const TOTP_WINDOW = 1;
/** What the authenticator app shows above the account's codes. */
const TOTP_ISSUER = "HKI Global";
/** 20 bytes: the secret length RFC 4226 recommends for HMAC-SHA1. */
const SECRET_BYTES = 20;
/** 10 bytes (80 bits) per recovery code: beyond guessing, so a plain sha256 stores it safely. */
const RECOVERY_CODE_BYTES = 10;

/** Wrong codes while enrolling or turning it off (signed in): limited per user as sign-in is per account. */
export const TWO_STEP_CODE_RULE: RateLimitRule = { limit: 10, windowMs: 15 * 60_000 };

const TWO_STEP_REQUIRED_MESSAGE = "Two-step sign-in is required for all staff: it cannot be turned off (an admin can reset it if your phone is lost)";

export type SecondFactor = { code: string } | { recoveryCode: string };

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** What the user typed, as stored: lower case, without the dashes and spaces shown for reading. */
function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[^a-z2-7]/g, "");
}

/** A new recovery code: 16 base32 characters in groups of 4 ("k7qp-2mzx-...") for copying by hand. */
function newRecoveryCode(): string {
  const text = new Secret({ size: RECOVERY_CODE_BYTES }).base32.toLowerCase();
  return text.match(/.{1,4}/g)!.join("-");
}

/**
 * Two-step sign-in for the built-in accounts (docs/product.md "Two-step sign-in"): enrolment with
 * an authenticator app, recovery codes, the second step of sign-in, and an admin's reset.
 *
 * The TOTP secret is sealed with the key webhook signing secrets use (webhook-sealing-key.ts,
 * WEBHOOK_SECRETS_KEY): one key to set and keep for every secret the panel must read back, so a
 * copy of the database alone does not let anyone compute codes.
 */
export class TwoStepService {
  constructor(private readonly deps: Pick<AppDeps, "database" | "clock" | "config" | "limiter">) {}

  private get db() {
    return this.deps.database.db;
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  async status(userId: string): Promise<TwoStepStatus> {
    const row = await selectUserTwoStep(this.db, userId);
    const enrolled = row?.confirmed_at != null;
    return { enrolled, recoveryCodesLeft: enrolled ? (await listUnusedRecoveryCodes(this.db, userId)).length : 0 };
  }

  async setup(actor: Actor): Promise<TwoStepSetupResponse> {
    // Under Clerk, sign-in never reaches the panel's second step: a secret enrolled here would guard nothing.
    if (this.deps.config.authProvider === "clerk") throw conflict("Under Clerk, two-step sign-in is set up in your Clerk account");
    const existing = await selectUserTwoStep(this.db, actor.user.id);
    if (existing?.confirmed_at) throw conflict("Two-step sign-in is on already: turn it off first to set up another app");
    const secret = new Secret({ size: SECRET_BYTES });
    const key = await webhookSealingKey(this.db, this.deps.config);
    await this.db.transaction().execute(async (trx) => {
      await replaceUnconfirmedTwoStep(trx, { user_id: actor.user.id, secret_sealed: key.seal(secret.base32), created_at: this.now() });
      await recordAudit(trx, { actor, action: "auth.two_step_setup", target: { type: "user", id: actor.user.id, label: actor.user.email } }, this.deps.clock);
    });
    const otpauthUri = this.totp(secret, actor.user.email).toString();
    return { secret: secret.base32, otpauthUri, qrSvg: renderSVG(otpauthUri) };
  }

  /**
   * Turns two-step sign-in on with the app's first code. That code is a second-factor check of
   * this session (`sessionId`), and no session of the user waits for an enrolment any longer.
   */
  async confirm(actor: Actor, code: string, sessionId: string | null): Promise<TwoStepConfirmResponse> {
    const row = await selectUserTwoStep(this.db, actor.user.id);
    if (!row) throw conflict("Set up two-step sign-in first");
    if (row.confirmed_at) throw conflict("Two-step sign-in is on already");
    await this.checkSignedInCode(actor.user.id, code, this.now());
    const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const now = this.now();
    await this.db.transaction().execute(async (trx) => {
      await replaceRecoveryCodes(
        trx,
        actor.user.id,
        recoveryCodes.map((code) => ({ id: newId(), code_hash: sha256(normalizeRecoveryCode(code)), created_at: now })),
      );
      await clearEnrolmentDue(trx, actor.user.id);
      if (sessionId) await markSecondFactor(trx, sessionId, now);
      await recordAudit(trx, { actor, action: "auth.two_step_enable", target: { type: "user", id: actor.user.id, label: actor.user.email } }, this.deps.clock);
    });
    return { recoveryCodes };
  }

  async disable(actor: Actor, code: string): Promise<void> {
    const row = await selectUserTwoStep(this.db, actor.user.id);
    if (!row?.confirmed_at) throw conflict("Two-step sign-in is not on");
    // The last factor stays while the setting requires one; a passkey left is enough (docs/product.md "Two-step sign-in").
    if (!canRemoveLastFactor(await secondFactorsOf(this.db, actor.user.id), "totp", await twoStepRequired(this.db))) throw conflict(TWO_STEP_REQUIRED_MESSAGE);
    await this.checkSignedInCode(actor.user.id, code);
    await this.db.transaction().execute(async (trx) => {
      await deleteTwoStep(trx, actor.user.id);
      await recordAudit(trx, { actor, action: "auth.two_step_disable", target: { type: "user", id: actor.user.id, label: actor.user.email } }, this.deps.clock);
    });
  }

  /** An admin turns another's two-step sign-in off (a lost phone): their passkeys go too, and their sessions end with it. */
  async reset(actor: Actor, userId: string): Promise<ResetTwoStepResponse> {
    const target = await selectSessionUserById(this.db, userId);
    if (!target) throw notFound("No such user");
    return this.db.transaction().execute(async (trx) => {
      const removed = await deleteTwoStep(trx, target.id);
      const passkeysRemoved = await deleteAllUserPasskeys(trx, target.id);
      if (removed === 0 && passkeysRemoved === 0) throw conflict(`${target.email} has no two-step sign-in to reset`);
      const sessionsEnded = await revokeUserSessions(trx, target.id, this.now());
      await recordAudit(trx, { actor, action: "user.two_step_reset", target: { type: "user", id: target.id, label: target.email }, details: { sessionsEnded, passkeysRemoved } }, this.deps.clock);
      return { sessionsEnded };
    });
  }

  /**
   * A step-up (docs/product.md "Step-up"): a code of the app or a recovery code, checked now, lets
   * this session take dangerous actions for 10 minutes. Wrong codes count per user, as while
   * enrolling; each is audited as a failure, the check itself as `auth.step_up`.
   */
  async stepUp(actor: Actor, factor: SecondFactor, sessionId: string | null): Promise<StepUpResponse> {
    if (this.deps.config.authProvider === "clerk" || !sessionId) throw conflict("Under Clerk, second factors are Clerk's: the panel does not ask for them");
    if (!(await hasConfirmedTwoStep(this.db, actor.user.id))) throw conflict("You have no two-step sign-in to confirm with: set it up from the user menu");
    const bucket = `two-step-code:${actor.user.id}`;
    const attempt = await this.deps.limiter.hit(bucket, TWO_STEP_CODE_RULE);
    if (!attempt.allowed) throw tooManyRequests(attempt.retryAfterSeconds);
    const passed = await this.checkSecondFactor(actor.user.id, factor);
    const now = this.deps.clock.now();
    if (!passed) {
      await recordAudit(this.db, { actor, action: "auth.step_up_failed", target: { type: "user", id: actor.user.id, label: actor.user.email }, details: { failures: attempt.count } }, this.deps.clock);
      throw unauthorized("That code is not right (or was used already): enter the code the app shows now");
    }
    await this.deps.limiter.reset(bucket);
    await this.db.transaction().execute(async (trx) => {
      await markSecondFactor(trx, sessionId, now.toISOString());
      await recordAudit(trx, { actor, action: "auth.step_up", target: { type: "user", id: actor.user.id, label: actor.user.email }, details: { factor: passed } }, this.deps.clock);
    });
    return { validUntil: new Date(now.getTime() + STEP_UP_WINDOW_MINUTES * 60_000).toISOString() };
  }

  // ---- the second step of sign-in -------------------------------------------------------------

  /** What a right password answers for an enrolled user: a challenge kept only as its hash. */
  async openChallenge(userId: string, account: string): Promise<{ challenge: string; expiresAt: string }> {
    const challenge = randomBytes(32).toString("base64url");
    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + SIGN_IN_CHALLENGE_TTL_MINUTES * 60_000).toISOString();
    await deleteExpiredSignInChallenges(this.db, now.toISOString());
    await insertSignInChallenge(this.db, { id: sha256(challenge), user_id: userId, account, created_at: now.toISOString(), expires_at: expiresAt, used_at: null });
    return { challenge, expiresAt };
  }

  /** The challenge if it is still open (unused, in its 5 minutes), otherwise null. */
  async openChallengeOf(challenge: string): Promise<SignInChallengeRow | null> {
    const row = await selectSignInChallenge(this.db, sha256(challenge));
    return row && row.used_at === null && row.expires_at > this.now() ? row : null;
  }

  /** Spends the challenge; false when a parallel request spent it first or it just expired. */
  async spendChallenge(challenge: string): Promise<boolean> {
    return spendSignInChallenge(this.db, sha256(challenge), this.now());
  }

  /** Checks and spends the second factor: which kind passed, or null (wrong, used, or no two-step). */
  async checkSecondFactor(userId: string, factor: SecondFactor): Promise<"totp" | "recovery_code" | null> {
    if ("code" in factor) return (await this.acceptCode(userId, factor.code)) ? "totp" : null;
    return (await this.acceptRecoveryCode(userId, factor.recoveryCode)) ? "recovery_code" : null;
  }

  private totp(secret: Secret, email: string): TOTP {
    return new TOTP({ issuer: TOTP_ISSUER, label: email, secret, algorithm: TOTP_ALGORITHM, digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS });
  }

  /**
   * A code of the user's app, accepted once: its time step must be later than the last accepted
   * one, recorded in the same conditional update (two requests with one code cannot both pass).
   * `confirmAt` turns an enrolment on with its first code.
   */
  private async acceptCode(userId: string, code: string, confirmAt?: string): Promise<boolean> {
    const row = await selectUserTwoStep(this.db, userId);
    if (!row || (!row.confirmed_at && !confirmAt)) return false;
    const key = await webhookSealingKey(this.db, this.deps.config);
    const secret = Secret.fromBase32(key.open(row.secret_sealed));
    const timestamp = this.deps.clock.now().getTime();
    const delta = TOTP.validate({ token: code, secret, algorithm: TOTP_ALGORITHM, digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, timestamp, window: TOTP_WINDOW });
    if (delta === null) return false;
    const timeStep = TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp }) + delta;
    return claimTimeStep(this.db, userId, timeStep, confirmAt);
  }

  /** Compared with every unused code's hash in constant time, with no early exit. */
  private async acceptRecoveryCode(userId: string, code: string): Promise<boolean> {
    const typed = Buffer.from(sha256(normalizeRecoveryCode(code)), "hex");
    let match: string | null = null;
    for (const row of await listUnusedRecoveryCodes(this.db, userId)) {
      if (timingSafeEqual(typed, Buffer.from(row.code_hash, "hex")) && match === null) match = row.id;
    }
    return match !== null && (await spendRecoveryCode(this.db, match, this.now()));
  }

  /** A signed-in user's code (confirm, turn off), limited per user like sign-in's per account. */
  private async checkSignedInCode(userId: string, code: string, confirmAt?: string): Promise<void> {
    const bucket = `two-step-code:${userId}`;
    const attempt = await this.deps.limiter.hit(bucket, TWO_STEP_CODE_RULE);
    if (!attempt.allowed) throw tooManyRequests(attempt.retryAfterSeconds);
    if (!(await this.acceptCode(userId, code, confirmAt))) throw unauthorized("That code is not right (or was used already): enter the code the app shows now");
    await this.deps.limiter.reset(bucket);
  }
}
