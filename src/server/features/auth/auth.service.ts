import { z } from "zod";
import type { BetaVerifyResponse, SignInAnswer, SignInResponse } from "../../../contract/auth.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { recordAudit } from "../../domain/audit/audit-log.ts";
import { addressKey } from "../../platform/http/client-address.ts";
import { HttpError, invalidField, tooManyRequests, unauthorized } from "../../platform/http/http-error.ts";
import type { RateLimitRule } from "../../platform/http/rate-limiter.ts";
import { rateLimitRejections } from "../../platform/metrics/metrics.ts";
import { isAdminUser } from "../../platform/identity/admin-rule.ts";
import { findUserByEmail, normalizeEmail } from "../../platform/identity/users.ts";
import type { SignInResult } from "../../platform/identity/auth-provider.ts";
import { type SecondFactor, TwoStepService } from "./two-step.service.ts";
import { type PasskeyFactor, PasskeysService } from "./passkeys.service.ts";
import { secondFactorsOf, secondStepKinds } from "../../platform/identity/second-factors.ts";

/**
 * 10 failed sign-ins for one account from one client address within 15 minutes lock that account
 * for that address for the rest of the window. Other addresses are not locked out: an attacker
 * cannot lock the real admin out of their own account.
 */
export const ACCOUNT_FAILURE_RULE: RateLimitRule = { limit: 10, windowMs: 15 * 60_000 };
/**
 * Failed sign-ins for one account from all addresses together: above this, every attempt on the
 * account waits (SignInThrottle.ceilingDelayMs) before its check — it slows a distributed guess
 * without locking the owner out.
 */
export const ACCOUNT_CEILING_RULE: RateLimitRule = { limit: 100, windowMs: 15 * 60_000 };
/** Any sign-in attempts from one address: generous for an office behind one IP, fatal to a spray. */
export const SIGN_IN_IP_RULE: RateLimitRule = { limit: 60, windowMs: 15 * 60_000 };
/** Wrong beta passwords from one address. */
export const BETA_FAILURE_RULE: RateLimitRule = { limit: 10, windowMs: 15 * 60_000 };

const INVALID_CREDENTIALS = "Invalid email or password";
const INVALID_SECOND_FACTOR = "That code is not right (or was used already)";
const CHALLENGE_GONE = "This sign-in has expired or was finished already: sign in again";

/** The address rule of every account (ADMIN_EMAIL, invitations): a sign-in with anything else names no account. */
const emailAddress = z.email();

/** Where a sign-in attempt came from: kept in its audit row. */
export interface SignInRequest {
  clientIp: string;
  userAgent: string | null;
  requestId: string;
}

/**
 * Sign-in, sign-out and the beta gate (docs/product.md §1 Access), with their attempt limits.
 *
 * Every limit is counted atomically in the database BEFORE the password is checked (one upsert
 * that returns the new count), so guesses sent at once cannot all pass a check made before any of
 * them is counted: at most `limit` checks ever run per window. An attempt that succeeds (or is
 * refused for being busy) takes its hit back.
 */
export class AuthService {
  private readonly twoStep: TwoStepService;
  private readonly passkeys: PasskeysService;

  constructor(private readonly deps: Pick<AppDeps, "auth" | "beta" | "limiter" | "config" | "database" | "clock" | "signInThrottle">) {
    this.twoStep = new TwoStepService(deps);
    this.passkeys = new PasskeysService(deps);
  }

  async signIn(email: string, password: string, request: SignInRequest): Promise<SignInAnswer> {
    const { auth, limiter, signInThrottle } = this.deps;
    // Before anything is recorded with it (a limit's key, an audit row's target): what was typed in
    // the e-mail field may be a password typed in the wrong field (issue 18, finding 7).
    if (!emailAddress.safeParse(email.trim()).success) throw invalidField("email", "must be a valid e-mail address");
    const signIn = auth.signIn?.bind(auth);
    if (!signIn) throw new HttpError(400, "unsupported", `Sign in through ${auth.displayName}`);

    const address = addressKey(request.clientIp);
    const ipDecision = await limiter.hit(`signin-ip:${address}`, SIGN_IN_IP_RULE);
    if (!ipDecision.allowed) throw tooManyRequests(ipDecision.retryAfterSeconds);
    // Buckets are keyed by the e-mail as typed (normalised), known or not: the answer is the same.
    const account = normalizeEmail(email);
    const accountAddressBucket = `signin-fail:${account}|${address}`;
    const accountBucket = `signin-acct:${account}`;
    const attempt = await limiter.hit(accountAddressBucket, ACCOUNT_FAILURE_RULE);
    if (!attempt.allowed) throw tooManyRequests(attempt.retryAfterSeconds);
    const accountWide = await limiter.hit(accountBucket, ACCOUNT_CEILING_RULE);
    if (!accountWide.allowed) {
      // The first attempt over the ceiling is the security event; the rest only wait.
      if (accountWide.count === ACCOUNT_CEILING_RULE.limit + 1)
        await this.auditLockout(account, request, { scope: "account", effect: "delayed", failures: ACCOUNT_CEILING_RULE.limit, windowSeconds: ACCOUNT_CEILING_RULE.windowMs / 1000 });
      await signInThrottle.delay();
    }

    const checking = signInThrottle.tryRun(address, () => signIn(email, password));
    if (!checking) {
      // Not a failed guess: nothing was checked. Give the hits back so being turned away never locks anyone.
      await limiter.undo(accountAddressBucket);
      await limiter.undo(accountBucket);
      rateLimitRejections.inc({ rule: "signin-busy" });
      throw tooManyRequests(1, "Too many sign-ins are being checked right now, try again in a moment");
    }
    const result = await checking;
    if (!result) {
      await this.auditFailure(account, request, attempt.count);
      if (attempt.count === ACCOUNT_FAILURE_RULE.limit) {
        await this.auditLockout(account, request, { scope: "account_address", effect: "locked", failures: attempt.count, retryAfterSeconds: attempt.retryAfterSeconds });
      }
      throw unauthorized(INVALID_CREDENTIALS);
    }
    if ("secondStepDue" in result) {
      // A right password, but the sign-in is not done: this attempt's hits are given back, yet the
      // failures before it stay counted, so wrong codes add to them. Resetting here would let
      // someone who has the password guess codes without end, a right password between each 9.
      await limiter.undo(accountAddressBucket);
      await limiter.undo(accountBucket);
      await limiter.undo(`signin-ip:${address}`);
      const factors = secondStepKinds(await secondFactorsOf(this.deps.database.db, result.user.id));
      return { secondStep: { ...(await this.twoStep.openChallenge(result.user.id, account)), factors } };
    }
    return this.signedIn(result, { accountAddressBucket, accountBucket, address }, request);
  }

  /**
   * The second step (docs/product.md "Two-step sign-in"): a code of the user's authenticator app
   * or a recovery code, against the challenge a right password answered. Wrong codes count in the
   * very buckets wrong passwords do (per account and address, per account, per address).
   */
  async completeSecondStep(challenge: string, factor: SecondFactor | PasskeyFactor, request: SignInRequest): Promise<SignInResponse> {
    const { auth, limiter, signInThrottle } = this.deps;
    const address = addressKey(request.clientIp);
    const ipDecision = await limiter.hit(`signin-ip:${address}`, SIGN_IN_IP_RULE);
    if (!ipDecision.allowed) throw tooManyRequests(ipDecision.retryAfterSeconds);
    const open = await this.twoStep.openChallengeOf(challenge);
    if (!open || !auth.startSession) throw unauthorized(CHALLENGE_GONE);
    const accountAddressBucket = `signin-fail:${open.account}|${address}`;
    const accountBucket = `signin-acct:${open.account}`;
    const attempt = await limiter.hit(accountAddressBucket, ACCOUNT_FAILURE_RULE);
    if (!attempt.allowed) throw tooManyRequests(attempt.retryAfterSeconds);
    const accountWide = await limiter.hit(accountBucket, ACCOUNT_CEILING_RULE);
    if (!accountWide.allowed) await signInThrottle.delay();

    const passed = "passkey" in factor ? await this.checkPasskey(open.user_id, factor) : await this.twoStep.checkSecondFactor(open.user_id, factor);
    if (!passed) {
      await this.auditFailure(open.account, request, attempt.count, { step: "second", factor: "passkey" in factor ? "passkey" : "code" in factor ? "totp" : "recovery_code" });
      if (attempt.count === ACCOUNT_FAILURE_RULE.limit) {
        await this.auditLockout(open.account, request, { scope: "account_address", effect: "locked", failures: attempt.count, retryAfterSeconds: attempt.retryAfterSeconds });
      }
      throw unauthorized(INVALID_SECOND_FACTOR);
    }
    if (!(await this.twoStep.spendChallenge(challenge))) throw unauthorized(CHALLENGE_GONE);
    const result = await auth.startSession(open.user_id);
    if (!result) throw unauthorized(CHALLENGE_GONE);
    return this.signedIn(result, { accountAddressBucket, accountBucket, address }, request, { secondStep: passed });
  }

  /** Every step passed: the buckets are cleared as for a right password, and the sign-in audited (also a passkey sign-in's: passkey-sign-in.service.ts). */
  async signedIn(
    result: SignInResult,
    buckets: { accountAddressBucket: string; accountBucket: string; address: string },
    request: SignInRequest,
    details?: Record<string, unknown>,
  ): Promise<SignInResponse> {
    const { limiter, config } = this.deps;
    await limiter.reset(buckets.accountAddressBucket);
    await limiter.undo(buckets.accountBucket);
    // A sign-in that proved its password is no spray: it gives its hit on the address back, so an
    // office behind one address (or a test suite) is never locked out by its own good sign-ins.
    await limiter.undo(`signin-ip:${buckets.address}`);
    const { enrolmentDue, ...signedIn } = result.user;
    const user = { ...signedIn, isAdmin: isAdminUser(signedIn, config.adminEmailDomain) };
    await recordAudit(
      this.deps.database.db,
      { actor: { user, ...request }, action: "auth.sign_in", target: { type: "user", id: result.user.id, label: result.user.email }, ...(details ? { details } : {}) },
      this.deps.clock,
    );
    return { token: result.token, expiresAt: result.expiresAt, user, ...(enrolmentDue ? { twoStepEnrolmentDue: true as const } : {}) };
  }

  /** A failed attempt has no actor (nobody proved who they are): where it came from goes in the details. */
  private async auditFailure(account: string, request: SignInRequest, failures: number, more: Record<string, unknown> = {}): Promise<void> {
    const known = await findUserByEmail(this.deps.database.db, account);
    await recordAudit(
      this.deps.database.db,
      {
        actor: null,
        action: "auth.sign_in_failed",
        target: { type: "user", id: known?.id ?? account, label: account },
        details: { ...origin(request), failuresFromAddress: failures, ...more },
      },
      this.deps.clock,
    );
  }

  private async auditLockout(account: string, request: SignInRequest, details: Record<string, unknown>): Promise<void> {
    const known = await findUserByEmail(this.deps.database.db, account);
    await recordAudit(
      this.deps.database.db,
      { actor: null, action: "auth.lockout", target: { type: "user", id: known?.id ?? account, label: account }, details: { ...origin(request), ...details } },
      this.deps.clock,
    );
  }

  async signOut(token: string | null): Promise<void> {
    if (token) await this.deps.auth.signOut(token);
  }

  async verifyBetaPassword(password: string, clientIp: string): Promise<BetaVerifyResponse> {
    const { beta, limiter } = this.deps;
    const bucket = `beta-fail:${addressKey(clientIp)}`;
    // Counted before the check, as for sign-in, so parallel guesses cannot exceed the limit.
    const attempt = await limiter.hit(bucket, BETA_FAILURE_RULE);
    if (!attempt.allowed) throw tooManyRequests(attempt.retryAfterSeconds);
    if (!beta.verify(password)) throw unauthorized("Invalid password");
    await limiter.undo(bucket);
    return { ok: true };
  }

  /** A passkey of the account as the second step (passkeys.service.ts): "passkey" when it passed. */
  private async checkPasskey(userId: string, factor: PasskeyFactor): Promise<"passkey" | null> {
    return (await this.passkeys.verifyAssertion("second_step", userId, factor.passkey)).ok ? "passkey" : null;
  }
}

function origin(request: SignInRequest): Record<string, unknown> {
  return { ipAddress: request.clientIp, userAgent: request.userAgent, requestId: request.requestId };
}
