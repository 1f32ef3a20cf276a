import { z } from "zod";
import { defineEndpoint } from "./endpoint.ts";

/**
 * GET /api/debug/admin (docs/product.md §11.9) plus what the System Debug page shows beside it.
 * Secrets are never sent: only whether they are configured and their first few characters.
 */
export const debugResponseSchema = z.object({
  userId: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
  /** The role claim of the caller's session (the hosted provider's public-metadata role). */
  jwtRole: z.string().nullable(),
  clerkSecretKeyExists: z.boolean(),
  clerkKeyPrefix: z.string().nullable(),
  stripeSecretKeyExists: z.boolean(),
  stripeKeyPrefix: z.string().nullable(),
  stripeWorks: z.boolean(),
  stripeError: z.string().nullable(),
  /** When the Stripe answer was obtained (it is cached for about a minute). */
  stripeCheckedAt: z.string(),
  /** "local" (built-in) or "clerk". */
  authProvider: z.enum(["local", "clerk"]),
  authProviderName: z.string(),
  /** Whether the configured provider needs a server secret at all (the built-in one has none). */
  authSecretKeyRequired: z.boolean(),
  /** The caller's role as stored in this application's users table; null when there is no local row. */
  localUserRole: z.string().nullable(),
  environment: z.string(),
  apiUrl: z.string(),
  database: z.object({ kind: z.enum(["sqlite", "postgres"]), label: z.string() }),
  /**
   * Error-log entries the budgets dropped (docs/product.md §5.3) over the last `hours` hours, per
   * level, counted across every server process.
   */
  errorLogDrops: z.object({ hours: z.number().int(), error: z.number().int(), warning: z.number().int(), info: z.number().int() }),
  checkedAt: z.string(),
});
export type DebugResponse = z.infer<typeof debugResponseSchema>;

export const debugAdminEndpoint = defineEndpoint({
  method: "get",
  path: "/api/debug/admin",
  area: "debug",
  access: "admin",
  summary: "The System Debug page's facts: the caller's session, configured providers (never their secrets), a live payment-provider check",
  success: { status: 200, description: "The facts", schema: debugResponseSchema },
});

export const testErrorEndpoint = defineEndpoint({
  method: "post",
  path: "/api/debug/test-error",
  area: "debug",
  access: "admin",
  summary: "Write one 'info' entry to the error log and answer with an error on purpose (status 418)",
  errors: [418],
  invalidates: ["errors", "dashboard"],
});
