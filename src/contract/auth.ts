import { z } from "zod";
import { defineEndpoint } from "./endpoint.ts";

/** Roles a user can hold (docs/product.md §1.3): admin (everything), viewer (read-only), user (no panel access). */
export const USER_ROLES = ["admin", "viewer", "user"] as const;
export const userRoleSchema = z.enum(USER_ROLES);
export type UserRole = z.infer<typeof userRoleSchema>;

/** A user as sign-in answers it. `isAdmin` is computed by the server's one admin rule. */
export const signedInUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  /** Mirrors the hosted provider's "public metadata role". */
  role: userRoleSchema,
  isAdmin: z.boolean(),
});
export type SignedInUser = z.infer<typeof signedInUserSchema>;

/**
 * The signed-in user as `GET /api/auth/me` reports it, with what they may do. `isAdmin`,
 * `panelAccess` and `canWrite` are computed by the server's one rule (src/server/platform/identity/admin-rule.ts);
 * the web never decides them on its own.
 */
export const publicUserSchema = signedInUserSchema.extend({
  /** May open the panel at all: admins and viewers. */
  panelAccess: z.boolean(),
  /** May change anything (every mutating call): admins only; viewers read. */
  canWrite: z.boolean(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

export const signInRequestSchema = z.strictObject({
  email: z.string().trim().min(1, "email is required").max(320),
  password: z.string().min(1, "password is required").max(1024),
});
export type SignInRequest = z.infer<typeof signInRequestSchema>;

export const signInResponseSchema = z.object({
  token: z.string(),
  expiresAt: z.string(),
  user: signedInUserSchema,
});
export type SignInResponse = z.infer<typeof signInResponseSchema>;

export const meResponseSchema = z.object({ user: publicUserSchema });
export type MeResponse = z.infer<typeof meResponseSchema>;

/** Public, non-secret facts the web app needs before sign-in. */
export const publicConfigSchema = z.object({
  storefrontUrl: z.string(),
  /** Display name of the configured auth provider ("Clerk" under Clerk). */
  authProviderName: z.string(),
  /**
   * Which sign-in the web app shows (AUTH_PROVIDER): the built-in form, or Clerk's. Always sent;
   * an answer without it (an older server) means the built-in one.
   */
  authProvider: z.enum(["local", "clerk"]).default("local"),
  /** Under Clerk, the instance's publishable key (public by design: it names the Frontend API host). */
  clerkPublishableKey: z.string().optional(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

export const betaVerifyRequestSchema = z.strictObject({
  password: z.string().max(1024),
});
export type BetaVerifyRequest = z.infer<typeof betaVerifyRequestSchema>;

export const betaVerifyResponseSchema = z.object({ ok: z.literal(true) });
export type BetaVerifyResponse = z.infer<typeof betaVerifyResponseSchema>;

export const signInEndpoint = defineEndpoint({
  method: "post",
  path: "/api/auth/sign-in",
  area: "auth",
  access: "public",
  summary: "Sign in with e-mail and password (built-in provider); answers a bearer token",
  description: "Repeated failures for one account, or many attempts from one address, answer 429 with Retry-After.",
  body: signInRequestSchema,
  bodyExample: { email: "jane.doe@hki.global", password: "your password" },
  success: { status: 200, description: "The session token, its expiry and the user", schema: signInResponseSchema },
  errors: [400, 401, 415, 429],
});

export const signOutEndpoint = defineEndpoint({
  method: "post",
  path: "/api/auth/sign-out",
  area: "auth",
  access: "signed-in",
  summary: "Revoke the session of the bearer token",
  success: { status: 204, description: "Signed out" },
  invalidates: ["auth"],
});

export const meEndpoint = defineEndpoint({
  method: "get",
  path: "/api/auth/me",
  area: "auth",
  access: "signed-in",
  summary: "The signed-in user",
  success: { status: 200, description: "The user of the bearer token", schema: meResponseSchema },
});

export const betaVerifyEndpoint = defineEndpoint({
  method: "post",
  path: "/api/beta/verify",
  area: "auth",
  access: "public",
  summary: "Check the private-beta password",
  description: "Wrong passwords from one address are limited: 429 with Retry-After.",
  body: betaVerifyRequestSchema,
  bodyExample: { password: "the beta password" },
  success: { status: 200, description: "The password is right", schema: betaVerifyResponseSchema },
  errors: [400, 401, 415, 429],
});
