import { z } from "zod";

export const userRoleSchema = z.enum(["admin", "user"]);
export type UserRole = z.infer<typeof userRoleSchema>;

/** A signed-in user as the API reports it. `isAdmin` is computed by the server's one admin rule. */
export const publicUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  /** Mirrors the hosted provider's "public metadata role". */
  role: userRoleSchema,
  isAdmin: z.boolean(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

export const signInRequestSchema = z.object({
  email: z.string().trim().min(1, "email is required").max(320),
  password: z.string().min(1, "password is required").max(1024),
});
export type SignInRequest = z.infer<typeof signInRequestSchema>;

export const signInResponseSchema = z.object({
  token: z.string(),
  expiresAt: z.string(),
  user: publicUserSchema,
});
export type SignInResponse = z.infer<typeof signInResponseSchema>;

export const meResponseSchema = z.object({ user: publicUserSchema });
export type MeResponse = z.infer<typeof meResponseSchema>;

/** Public, non-secret facts the web app needs before sign-in. */
export const publicConfigSchema = z.object({
  storefrontUrl: z.string(),
  /** Display name of the configured auth provider ("Clerk" under Clerk). */
  authProviderName: z.string(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

export const betaVerifyRequestSchema = z.object({
  password: z.string().max(1024),
});
export type BetaVerifyRequest = z.infer<typeof betaVerifyRequestSchema>;
