import { Hono } from "hono";
import { betaVerifyRequestSchema, signInRequestSchema, type MeResponse, type SignInResponse } from "../../contract/auth.ts";
import type { AppDeps, AppEnv } from "../app-env.ts";
import { HttpError, tooManyRequests, unauthorized } from "../http/http-error.ts";
import type { RateLimitRule } from "../http/rate-limiter.ts";
import { readJsonBody } from "../http/validate.ts";
import { isAdminUser } from "./admin-rule.ts";
import { bearerToken, requireSignedIn } from "./auth-middleware.ts";
import { normalizeEmail } from "./users.ts";

/** 10 failed sign-ins for one account within 15 minutes lock it for the rest of the window. */
export const ACCOUNT_FAILURE_RULE: RateLimitRule = { limit: 10, windowMs: 15 * 60_000 };
/** Any sign-in attempts from one address: generous for an office behind one IP, fatal to a spray. */
export const SIGN_IN_IP_RULE: RateLimitRule = { limit: 60, windowMs: 15 * 60_000 };
/** Wrong beta passwords from one address. */
export const BETA_FAILURE_RULE: RateLimitRule = { limit: 10, windowMs: 15 * 60_000 };

const INVALID_CREDENTIALS = "Invalid email or password";

export function authRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post("/auth/sign-in", async (c) => {
    const { email, password } = await readJsonBody(c, signInRequestSchema);
    const signIn = deps.auth.signIn?.bind(deps.auth);
    if (!signIn) throw new HttpError(400, "unsupported", `Sign in through ${deps.auth.displayName}`);

    const ipDecision = await deps.limiter.hit(`signin-ip:${c.get("clientIp")}`, SIGN_IN_IP_RULE);
    if (!ipDecision.allowed) throw tooManyRequests(ipDecision.retryAfterSeconds);
    // Buckets are keyed by the e-mail as typed (normalised), known or not: the answer is the same.
    const accountBucket = `signin-fail:${normalizeEmail(email)}`;
    const lock = await deps.limiter.peek(accountBucket, ACCOUNT_FAILURE_RULE);
    if (!lock.allowed) throw tooManyRequests(lock.retryAfterSeconds);

    const result = await signIn(email, password);
    if (!result) {
      await deps.limiter.hit(accountBucket, ACCOUNT_FAILURE_RULE);
      throw unauthorized(INVALID_CREDENTIALS);
    }
    await deps.limiter.reset(accountBucket);
    const body: SignInResponse = {
      token: result.token,
      expiresAt: result.expiresAt,
      user: { ...result.user, isAdmin: isAdminUser(result.user, deps.config.adminEmailDomain) },
    };
    return c.json(body);
  });

  app.post("/auth/sign-out", requireSignedIn(), async (c) => {
    const token = bearerToken(c.req.header("authorization"));
    if (token) await deps.auth.signOut(token);
    return c.body(null, 204);
  });

  app.get("/auth/me", requireSignedIn(), (c) => {
    const user = c.get("user")!;
    const body: MeResponse = { user: { id: user.id, email: user.email, name: user.name, role: user.role, isAdmin: user.isAdmin } };
    return c.json(body);
  });

  app.post("/beta/verify", async (c) => {
    const { password } = await readJsonBody(c, betaVerifyRequestSchema);
    const bucket = `beta-fail:${c.get("clientIp")}`;
    const lock = await deps.limiter.peek(bucket, BETA_FAILURE_RULE);
    if (!lock.allowed) throw tooManyRequests(lock.retryAfterSeconds);
    if (!deps.beta.verify(password)) {
      await deps.limiter.hit(bucket, BETA_FAILURE_RULE);
      throw unauthorized("Invalid password");
    }
    return c.json({ ok: true });
  });

  return app;
}
