import type { PasskeyAuthenticationResponse, PasskeyRequestOptions, SignInResponse } from "../../../contract/auth.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { recordAudit } from "../../domain/audit/audit-log.ts";
import { addressKey } from "../../platform/http/client-address.ts";
import { HttpError, tooManyRequests, unauthorized } from "../../platform/http/http-error.ts";
import type { RateLimitRule } from "../../platform/http/rate-limiter.ts";
import { normalizeEmail } from "../../platform/identity/users.ts";
import { selectSessionUserById } from "../../platform/identity/users.queries.ts";
import { ACCOUNT_CEILING_RULE, ACCOUNT_FAILURE_RULE, AuthService, SIGN_IN_IP_RULE, type SignInRequest } from "./auth.service.ts";
import { PasskeysService } from "./passkeys.service.ts";
import { TwoStepService } from "./two-step.service.ts";

/**
 * Passkey ceremonies started from one address (options asked for, each storing a challenge):
 * generous for an office behind one address, a ceiling on rows written by anyone who is not signed in.
 */
export const PASSKEY_OPTIONS_RULE: RateLimitRule = { limit: 120, windowMs: 15 * 60_000 };

const PASSKEY_REFUSED = "That passkey could not sign you in: use a passkey registered for this panel, or sign in with your e-mail and password";
const CHALLENGE_GONE = "This sign-in has expired or was finished already: sign in again";

/**
 * Signing in with a passkey alone (it is both factors: something held, unlocked by a PIN or a
 * biometric), and the options of a second step by passkey (docs/product.md "Two-step sign-in").
 *
 * Held like a password sign-in (docs/product.md §1.5): every attempt counts on its address before
 * anything is checked, and once the passkey it names is known, on that account from that address
 * and on the account; a success takes its hits back and is answered and audited by the password
 * sign-in's own `signedIn`.
 */
export class PasskeySignInService {
  private readonly auth: AuthService;
  private readonly passkeys: PasskeysService;
  private readonly twoStep: TwoStepService;

  constructor(private readonly deps: Pick<AppDeps, "auth" | "beta" | "limiter" | "config" | "database" | "clock" | "signInThrottle">) {
    this.auth = new AuthService(deps);
    this.passkeys = new PasskeysService(deps);
    this.twoStep = new TwoStepService(deps);
  }

  async signInOptions(request: SignInRequest): Promise<PasskeyRequestOptions> {
    this.builtInOnly();
    await this.countOptions(request);
    return this.passkeys.requestOptions("sign_in", null);
  }

  async signIn(response: PasskeyAuthenticationResponse, request: SignInRequest): Promise<SignInResponse> {
    const startSession = this.builtInOnly();
    const { limiter, signInThrottle } = this.deps;
    const address = addressKey(request.clientIp);
    const ipDecision = await limiter.hit(`signin-ip:${address}`, SIGN_IN_IP_RULE);
    if (!ipDecision.allowed) throw tooManyRequests(ipDecision.retryAfterSeconds);

    // The account the passkey names, if any: its buckets count this attempt like a password's.
    const named = await this.passkeys.passkeyNamed(response);
    const owner = named ? await selectSessionUserById(this.deps.database.db, named.user_id) : undefined;
    const account = owner ? normalizeEmail(owner.email) : null;
    const accountAddressBucket = account ? `signin-fail:${account}|${address}` : null;
    const accountBucket = account ? `signin-acct:${account}` : null;
    if (accountAddressBucket && accountBucket) {
      const attempt = await limiter.hit(accountAddressBucket, ACCOUNT_FAILURE_RULE);
      if (!attempt.allowed) throw tooManyRequests(attempt.retryAfterSeconds);
      if (!(await limiter.hit(accountBucket, ACCOUNT_CEILING_RULE)).allowed) await signInThrottle.delay();
    }

    const outcome = await this.passkeys.verifyAssertion("sign_in", null, response);
    if (!outcome.ok) {
      await this.auditFailure(response, outcome.reason, owner, request);
      throw unauthorized(PASSKEY_REFUSED);
    }
    const result = await startSession(outcome.passkey.user_id);
    if (!result) throw unauthorized(PASSKEY_REFUSED);
    const signedInAccount = normalizeEmail(result.user.email);
    return this.auth.signedIn(
      result,
      { accountAddressBucket: accountAddressBucket ?? `signin-fail:${signedInAccount}|${address}`, accountBucket: accountBucket ?? `signin-acct:${signedInAccount}`, address },
      request,
      { method: "passkey", device: outcome.passkey.name },
    );
  }

  /** Options for the second step by passkey, for the account whose password answered `challenge`. */
  async secondStepOptions(challenge: string, request: SignInRequest): Promise<PasskeyRequestOptions> {
    await this.countOptions(request);
    const open = await this.twoStep.openChallengeOf(challenge);
    if (!open) throw unauthorized(CHALLENGE_GONE);
    return this.passkeys.requestOptions("second_step", open.user_id);
  }

  /** Under Clerk there is no built-in sign-in to open a session with: answered as the password sign-in is. */
  private builtInOnly(): (userId: string) => ReturnType<NonNullable<AppDeps["auth"]["startSession"]>> {
    const { auth } = this.deps;
    if (!auth.startSession || !auth.signIn) throw new HttpError(400, "unsupported", `Sign in through ${auth.displayName}`);
    return auth.startSession.bind(auth);
  }

  private async countOptions(request: SignInRequest): Promise<void> {
    const decision = await this.deps.limiter.hit(`passkey-options:${addressKey(request.clientIp)}`, PASSKEY_OPTIONS_RULE);
    if (!decision.allowed) throw tooManyRequests(decision.retryAfterSeconds);
  }

  /** As a wrong password's row: no actor; the account when the passkey is known, otherwise the credential id. */
  private async auditFailure(response: PasskeyAuthenticationResponse, reason: string, owner: { id: string; email: string } | undefined, request: SignInRequest): Promise<void> {
    await recordAudit(
      this.deps.database.db,
      {
        actor: null,
        action: "auth.sign_in_failed",
        target: owner ? { type: "user", id: owner.id, label: owner.email } : { type: "passkey", id: response.id.slice(0, 200), label: "unknown passkey" },
        details: { ipAddress: request.clientIp, userAgent: request.userAgent, requestId: request.requestId, factor: "passkey", reason },
      },
      this.deps.clock,
    );
  }
}
