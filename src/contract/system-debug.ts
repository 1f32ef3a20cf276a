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
  /**
   * The daily comparison of Stripe's transfers with the ledger (docs/product.md §15.3): the last one
   * and the differences still open, newest first (at most 20), dollars.
   */
  stripeReconciliation: z.object({
    last: z
      .object({
        startedAt: z.string(),
        finishedAt: z.string().nullable(),
        /** Runs created from then on were compared. */
        since: z.string(),
        runs: z.number().int(),
        transfers: z.number().int(),
        payouts: z.number().int(),
        differences: z.number().int(),
        /** Why it stopped short (Stripe could not answer). */
        error: z.string().nullable(),
      })
      .nullable(),
    openDifferences: z.number().int(),
    differences: z.array(
      z.object({
        /** unknown_transfer: Stripe made a transfer the ledger does not count; amount_differs; missing_transfer: paid in the ledger, not at Stripe. */
        kind: z.enum(["unknown_transfer", "amount_differs", "missing_transfer"]),
        runId: z.string(),
        payoutId: z.string().nullable(),
        vendorId: z.string().nullable(),
        vendorName: z.string().nullable(),
        destination: z.string().nullable(),
        stripeTransferId: z.string().nullable(),
        stripeAmount: z.number().nullable(),
        ledgerAmount: z.number().nullable(),
        detail: z.string(),
        foundAt: z.string(),
        lastSeenAt: z.string(),
      }),
    ),
  }),
  checkedAt: z.string(),
});
export type DebugResponse = z.infer<typeof debugResponseSchema>;

export const debugAdminEndpoint = defineEndpoint({
  method: "get",
  path: "/api/debug/admin",
  area: "system-debug",
  access: "staff",
  summary: "The System Debug page's facts: the caller's session, configured providers (never their secrets), a live payment-provider check",
  success: { status: 200, description: "The facts", schema: debugResponseSchema },
});

export const testErrorEndpoint = defineEndpoint({
  method: "post",
  path: "/api/debug/test-error",
  area: "system-debug",
  access: { roles: ["admin"] },
  summary: "Write one 'info' entry to the error log and answer with an error on purpose (status 418)",
  errors: [418],
  invalidates: ["error-logs", "dashboard"],
});
