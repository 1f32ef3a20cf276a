import type { BetaVerifyResponse, SignInResponse } from "../../contract/auth.ts";
import type { AppDeps } from "../app-env.ts";
import { HttpError, tooManyRequests, unauthorized } from "../http/http-error.ts";
import type { RateLimitRule } from "../http/rate-limiter.ts";
import { isAdminUser } from "./admin-rule.ts";
import { normalizeEmail } from "./users.ts";

/** 10 failed sign-ins for one account within 15 minutes lock it for the rest of the window. */
export const ACCOUNT_FAILURE_RULE: RateLimitRule = { limit: 10, windowMs: 15 * 60_000 };
/** Any sign-in attempts from one address: generous for an office behind one IP, fatal to a spray. */
export const SIGN_IN_IP_RULE: RateLimitRule = { limit: 60, windowMs: 15 * 60_000 };
/** Wrong beta passwords from one address. */
export const BETA_FAILURE_RULE: RateLimitRule = { limit: 10, windowMs: 15 * 60_000 };

const INVALID_CREDENTIALS = "Invalid email or password";

/** Sign-in, sign-out and the beta gate (docs/product.md §1 Access), with their attempt limits. */
export class AuthService {
  constructor(private readonly deps: Pick<AppDeps, "auth" | "beta" | "limiter" | "config">) {}

  async signIn(email: string, password: string, clientIp: string): Promise<SignInResponse> {
    const { auth, limiter, config } = this.deps;
    const signIn = auth.signIn?.bind(auth);
    if (!signIn) throw new HttpError(400, "unsupported", `Sign in through ${auth.displayName}`);

    const ipDecision = await limiter.hit(`signin-ip:${clientIp}`, SIGN_IN_IP_RULE);
    if (!ipDecision.allowed) throw tooManyRequests(ipDecision.retryAfterSeconds);
    // Buckets are keyed by the e-mail as typed (normalised), known or not: the answer is the same.
    const accountBucket = `signin-fail:${normalizeEmail(email)}`;
    const lock = await limiter.peek(accountBucket, ACCOUNT_FAILURE_RULE);
    if (!lock.allowed) throw tooManyRequests(lock.retryAfterSeconds);

    const result = await signIn(email, password);
    if (!result) {
      await limiter.hit(accountBucket, ACCOUNT_FAILURE_RULE);
      throw unauthorized(INVALID_CREDENTIALS);
    }
    await limiter.reset(accountBucket);
    return {
      token: result.token,
      expiresAt: result.expiresAt,
      user: { ...result.user, isAdmin: isAdminUser(result.user, config.adminEmailDomain) },
    };
  }

  async signOut(token: string | null): Promise<void> {
    if (token) await this.deps.auth.signOut(token);
  }

  async verifyBetaPassword(password: string, clientIp: string): Promise<BetaVerifyResponse> {
    const { beta, limiter } = this.deps;
    const bucket = `beta-fail:${clientIp}`;
    const lock = await limiter.peek(bucket, BETA_FAILURE_RULE);
    if (!lock.allowed) throw tooManyRequests(lock.retryAfterSeconds);
    if (!beta.verify(password)) {
      await limiter.hit(bucket, BETA_FAILURE_RULE);
      throw unauthorized("Invalid password");
    }
    return { ok: true };
  }
}
