import { z } from "zod";
import { MAX_PAGE_LIMIT } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";

/**
 * Financials and payouts (docs/product.md §15). Money is in US dollars in answers (integer cents
 * in the database); times are ISO-8601 UTC.
 */

/** The overview's periods: the last 7, 30 or 90 UTC days including today, month to date, year to date. */
export const FINANCIAL_PERIODS = ["7", "30", "90", "mtd", "ytd"] as const;
export type FinancialPeriod = (typeof FINANCIAL_PERIODS)[number];
export const DEFAULT_FINANCIAL_PERIOD: FinancialPeriod = "30";

/**
 * `unknown`: the transfer was asked for but Stripe never gave a definite answer (a 5xx it keeps
 * under the idempotency key, or no answer at all), so it may or may not exist. The amount stays in
 * flight until Stripe is asked (its transfers listed): then paid, or failed and owed again.
 */
export const PAYOUT_STATUSES = ["pending", "processing", "unknown", "paid", "failed", "canceled"] as const;
export type PayoutStatusName = (typeof PAYOUT_STATUSES)[number];
export const ACCOUNT_STATUSES = ["active", "pending", "restricted", "not_connected"] as const;
export type AccountStatusName = (typeof ACCOUNT_STATUSES)[number];
/** `unresolved`: the run has ended but payouts of it have an unknown outcome; `completed` once they are settled. */
export const RUN_STATUSES = ["queued", "running", "completed", "unresolved", "canceled", "failed"] as const;
export type RunStatusName = (typeof RUN_STATUSES)[number];

export const MAX_FINANCIAL_PAGE = 100;
const limit = z.coerce.number().int().min(1).max(MAX_FINANCIAL_PAGE).default(20);
const cursor = z.string().max(200).optional();
const id = z.string().min(1).max(64);

/** GET /api/admin/financial/overview?period=7|30|90|mtd|ytd (absent: 30). */
export const financialOverviewQuerySchema = z.object({
  period: z.enum(FINANCIAL_PERIODS, { error: "must be 7, 30, 90, mtd or ytd" }).default(DEFAULT_FINANCIAL_PERIOD),
});

/**
 * Figures of one period, dollars:
 * - grossSales, platformFees: paid orders placed in the period (refunded or cancelled ones never count);
 * - subscriptionRevenue: artists' monthly fees accrued day by day (a subscription active at the end
 *   of a day earns its monthly fee × 12 / 365 for that day);
 * - refunds: gross of the orders refunded in the period (on the day of the refund);
 * - vendorEarnings: grossSales − platformFees (what the artists earned);
 * - paidOut: payouts paid in the period;
 * - outstandingBalance: what the platform owed its artists at the end of the period (all earnings
 *   minus all payouts paid up to then, payouts in flight included).
 */
export const financialFiguresSchema = z.object({
  from: z.string(),
  to: z.string(),
  grossSales: z.number(),
  platformFees: z.number(),
  subscriptionRevenue: z.number(),
  refunds: z.number(),
  vendorEarnings: z.number(),
  paidOut: z.number(),
  outstandingBalance: z.number(),
});
export type FinancialFigures = z.infer<typeof financialFiguresSchema>;

export const financialDaySchema = z.object({
  /** "YYYY-MM-DD" (UTC). */
  date: z.string(),
  grossSales: z.number(),
  platformFees: z.number(),
  refunds: z.number(),
  paidOut: z.number(),
});
export type FinancialDay = z.infer<typeof financialDaySchema>;

export const financialOverviewResponseSchema = financialFiguresSchema.extend({
  period: z.enum(FINANCIAL_PERIODS),
  /** The same figures over the period of equal length just before. */
  previous: financialFiguresSchema,
  /** Every day of the period, oldest first, days without activity as zeros. */
  series: z.array(financialDaySchema),
});
export type FinancialOverview = z.infer<typeof financialOverviewResponseSchema>;

export const payoutSchema = z.object({
  id: z.string(),
  vendorId: z.string(),
  vendorName: z.string(),
  /** US dollars. */
  amount: z.number(),
  currency: z.string(),
  status: z.enum(PAYOUT_STATUSES),
  stripeTransferId: z.string().nullable(),
  /** Stripe's message when the transfer failed; for an unknown outcome, the last answer (or its absence). */
  failureReason: z.string().nullable(),
  runId: z.string(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  /** When the payout's outcome was last asked of Stripe (its transfers listed); null when never. */
  checkedAt: z.string().nullable(),
});
export type PayoutItem = z.infer<typeof payoutSchema>;

/** GET /api/admin/financial/payouts?status&vendorId&runId&limit&cursor */
export const payoutsQuerySchema = z.object({
  status: z.enum(PAYOUT_STATUSES, { error: "must be pending, processing, unknown, paid, failed or canceled" }).optional(),
  vendorId: id.optional(),
  runId: id.optional(),
  limit,
  cursor,
});
export type PayoutsQuery = z.infer<typeof payoutsQuerySchema>;

export const payoutsResponseSchema = z.object({
  payouts: z.array(payoutSchema),
  /** Payouts matching the filters (all pages). */
  total: z.number().int(),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type PayoutsResponse = z.infer<typeof payoutsResponseSchema>;

export const balanceSchema = z.object({
  vendorId: z.string(),
  vendorName: z.string(),
  /** US dollars owed and not yet in a payout. */
  balance: z.number(),
  accountStatus: z.enum(ACCOUNT_STATUSES),
  lastPayoutAt: z.string().nullable(),
});
export type BalanceItem = z.infer<typeof balanceSchema>;

/** GET /api/admin/financial/balances?accountStatus&limit&cursor */
export const balancesQuerySchema = z.object({
  accountStatus: z.enum(ACCOUNT_STATUSES, { error: "must be active, pending, restricted or not_connected" }).optional(),
  limit,
  cursor,
});
export type BalancesQuery = z.infer<typeof balancesQuerySchema>;

export const balancesResponseSchema = z.object({
  /** Vendors owed money, largest balance first. */
  balances: z.array(balanceSchema),
  /** Vendors owed money (with the filter). */
  total: z.number().int(),
  /** What they are owed together, dollars. */
  totalOwed: z.number(),
  nextCursor: z.string().nullable(),
});
export type BalancesResponse = z.infer<typeof balancesResponseSchema>;

export const payoutRunSchema = z.object({
  /** A dry run's id is "dry-run": it is not stored. */
  id: z.string(),
  status: z.enum(RUN_STATUSES),
  dryRun: z.boolean(),
  /** Artists paid by this run (an estimate until the run has planned every payout). */
  vendors: z.number().int(),
  /** Dollars. */
  total: z.number(),
  /** Payouts paid. */
  done: z.number().int(),
  failed: z.number().int(),
  /** Payouts whose outcome is unknown (in flight until checked with Stripe); the run is `unresolved` while any is. */
  unknown: z.number().int(),
  canceled: z.number().int(),
  /** Dollars paid so far. */
  paidTotal: z.number(),
  /** Artists owed at least the minimum whose payout account is not active: not paid, shown. */
  skipped: z.number().int(),
  skippedTotal: z.number(),
  /** Artists owed at least the minimum left out because a payout to them is still being sent or has an unknown outcome. */
  held: z.number().int(),
  /** The minimum_payout_amount the run used, dollars. */
  minimum: z.number(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Why a run stopped on its own (not a payout's failure). */
  error: z.string().nullable(),
});
export type PayoutRunItem = z.infer<typeof payoutRunSchema>;

export const createPayoutRunRequestSchema = z.strictObject({
  /** Count who would be paid and how much, without storing or paying anything. */
  dryRun: z.boolean().optional(),
});
export type CreatePayoutRunRequest = z.infer<typeof createPayoutRunRequestSchema>;

export const payoutRunResponseSchema = z.object({ run: payoutRunSchema });
export type PayoutRunResponse = z.infer<typeof payoutRunResponseSchema>;

export const payoutRunsQuerySchema = z.object({ limit, cursor });

export const payoutRunsResponseSchema = z.object({
  runs: z.array(payoutRunSchema),
  nextCursor: z.string().nullable(),
});
export type PayoutRunsResponse = z.infer<typeof payoutRunsResponseSchema>;

export const payoutResponseSchema = z.object({ payout: payoutSchema });

export const CHECK_OUTCOMES = ["paid", "owed_again", "unknown"] as const;

/** What "Check with Stripe" found: the transfer (paid), none after the safe window (owed again), or none yet (still unknown). */
export const checkPayoutResponseSchema = z.object({
  payout: payoutSchema,
  outcome: z.enum(CHECK_OUTCOMES),
  /** What Stripe said, in words. */
  message: z.string(),
});
export type CheckPayoutResponse = z.infer<typeof checkPayoutResponseSchema>;

export const payoutAccountSchema = z.object({
  vendorId: z.string(),
  stripeAccountId: z.string().nullable(),
  status: z.enum(ACCOUNT_STATUSES),
  chargesEnabled: z.boolean(),
  payoutsEnabled: z.boolean(),
  /** What Stripe still needs before the account can be paid (null when never checked). */
  requirements: z
    .object({
      currentlyDue: z.array(z.string()),
      pastDue: z.array(z.string()),
      disabledReason: z.string().nullable(),
    })
    .nullable(),
  checkedAt: z.string().nullable(),
});
export type PayoutAccountItem = z.infer<typeof payoutAccountSchema>;

/** A vendor's payout account, what it is owed, and its latest payouts (vendor detail). */
export const vendorPayoutsResponseSchema = z.object({
  account: payoutAccountSchema,
  /** Dollars: earned (gross − fees of paid orders) − paid out − in flight = balance. */
  money: z.object({
    earned: z.number(),
    paidOut: z.number(),
    inFlight: z.number(),
    balance: z.number(),
    lastPayoutAt: z.string().nullable(),
  }),
  recentPayouts: z.array(payoutSchema),
});
export type VendorPayoutsResponse = z.infer<typeof vendorPayoutsResponseSchema>;

const idParams = z.object({ id: z.string() });
const RUN_CHANGES = ["financials", "dashboard", "vendors"] as const;

export const financialOverviewEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/financial/overview",
  area: "financials",
  cache: { per: "everyone" },
  access: "staff",
  summary: "What the marketplace earned and owes over a period, with the previous period and a per-day series",
  query: financialOverviewQuerySchema,
  success: { status: 200, description: "The period's figures, the previous period's and every day's", schema: financialOverviewResponseSchema },
  errors: [400],
});

export const listPayoutsEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/financial/payouts",
  area: "financials",
  access: "staff",
  summary: "One page of payouts, newest first, filtered by status, vendor or run",
  query: payoutsQuerySchema,
  success: { status: 200, description: "The page, the matching total and the next cursor", schema: payoutsResponseSchema },
  errors: [400],
});

export const listBalancesEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/financial/balances",
  area: "financials",
  access: "staff",
  summary: "Vendors owed money, largest balance first, with their payout account's status",
  query: balancesQuerySchema,
  success: { status: 200, description: "The page, how many are owed and how much", schema: balancesResponseSchema },
  errors: [400],
});

export const createPayoutRunEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/financial/payouts/runs",
  area: "financials",
  access: { roles: ["admin", "finance"] },
  stepUp: true,
  summary: "Start a payout run: one transfer to every vendor owed at least the minimum whose account is active",
  description:
    "The run is a background job: it answers at once and GET /runs/{id} follows it. With dryRun it only counts. 409 while another run is queued or running; 422 when no payment provider is configured.",
  body: createPayoutRunRequestSchema,
  bodyExample: { dryRun: true },
  success: { status: 201, description: "The run (or the dry run's count)", schema: payoutRunResponseSchema },
  errors: [400, 409, 415, 422],
  invalidates: RUN_CHANGES,
});

export const listPayoutRunsEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/financial/payouts/runs",
  area: "financials",
  access: "staff",
  summary: "Payout runs, newest first",
  query: payoutRunsQuerySchema,
  success: { status: 200, description: "One page of runs", schema: payoutRunsResponseSchema },
  errors: [400],
});

export const getPayoutRunEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/financial/payouts/runs/{id}",
  area: "financials",
  access: "staff",
  summary: "A payout run and its progress",
  params: idParams,
  success: { status: 200, description: "The run", schema: payoutRunResponseSchema },
  errors: [404],
});

export const cancelPayoutRunEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/financial/payouts/runs/{id}/cancel",
  area: "financials",
  access: { roles: ["admin", "finance"] },
  summary: "Stop a run: payouts not yet started are canceled, the ones being sent finish",
  params: idParams,
  success: { status: 200, description: "The run", schema: payoutRunResponseSchema },
  errors: [404, 409],
  invalidates: RUN_CHANGES,
});

export const retryPayoutEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/financial/payouts/{id}/retry",
  area: "financials",
  access: { roles: ["admin", "finance"] },
  summary: "Send a failed payout again (never paying it twice)",
  params: idParams,
  success: { status: 200, description: "The payout, pending again", schema: payoutResponseSchema },
  errors: [404, 409, 422],
  invalidates: RUN_CHANGES,
});

export const checkPayoutEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/financial/payouts/{id}/check",
  area: "financials",
  access: { roles: ["admin", "finance"] },
  summary: "Ask Stripe whether a payout of unknown outcome was made (its run's transfers listed)",
  description:
    "Lists the run's transfers to the payout's account (transfers.list by transfer_group and destination). A transfer carrying the payout's id: the payout is paid with it. None, and the last attempt is older than the safe window (PAYOUT_UNKNOWN_WINDOW_SECONDS): failed, the amount owed again. None yet: still unknown. 409 when the payout's outcome is not unknown; 502 when Stripe cannot answer.",
  params: idParams,
  success: { status: 200, description: "The payout after the check, and what Stripe said", schema: checkPayoutResponseSchema },
  errors: [404, 409, 422, 502],
  invalidates: RUN_CHANGES,
});

export const getVendorPayoutsEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/vendors/{id}/payout-account",
  area: "financials",
  access: "staff",
  summary: "A vendor's payout account, balance and latest payouts",
  params: idParams,
  success: { status: 200, description: "The account, the money and the last payouts", schema: vendorPayoutsResponseSchema },
  errors: [404],
});

export const refreshPayoutAccountEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/vendors/{id}/payout-account/refresh",
  area: "financials",
  access: { roles: ["admin", "finance"] },
  summary: "Read the vendor's connected account from Stripe and store its status",
  params: idParams,
  success: { status: 200, description: "The account after the refresh", schema: vendorPayoutsResponseSchema },
  errors: [404, 409, 422, 502],
  invalidates: ["financials", "vendors"],
});

// --- The artist's statement (docs/product.md §15.8) ---

/** The name the CSV export of a statement is registered under (POST /api/admin/exports {kind, filters: {vendorId}}). */
export const STATEMENT_EXPORT_KIND = "statement";

export const STATEMENT_KINDS = [
  "sale",
  "refund",
  "refund_whole",
  "cancelled",
  "dispute_hold",
  "dispute_release",
  "dispute_fee",
  "payout",
  "payout_returned",
  "transfer_reversed",
  "subscription",
] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];

export const statementEntrySchema = z.object({
  /** Stable within the statement (the keyset cursor's tie-break). */
  id: z.string(),
  at: z.string(),
  kind: z.enum(STATEMENT_KINDS),
  /** What happened, as the statement says it. */
  description: z.string(),
  /** The order line, payout, refund or dispute it is about. */
  reference: z.string().nullable(),
  /** The panel's order line, for sales, refunds and disputes (opens it on the Orders screen). */
  orderId: z.string().nullable(),
  /** US dollars the entry moved the balance by (negative: taken off; 0 for a subscription fee, paid by card). */
  amount: z.number(),
  /** US dollars owed to the artist after this entry. */
  balance: z.number(),
});
export type StatementEntry = z.infer<typeof statementEntrySchema>;

export const statementFiltersSchema = z.strictObject({ vendorId: z.string().trim().min(1).max(100) });
export type StatementFilters = z.infer<typeof statementFiltersSchema>;

export const statementQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(50),
  cursor: z.string().min(1).max(300).optional(),
});

export const statementResponseSchema = z.object({
  /** Newest first; each with the balance after it. */
  entries: z.array(statementEntrySchema),
  nextCursor: z.string().nullable(),
  /** US dollars owed now: the newest entry's balance, and the balance Financials shows. */
  balance: z.number(),
});
export type StatementResponse = z.infer<typeof statementResponseSchema>;

export const getVendorStatementEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/vendors/{id}/statement",
  area: "financials",
  // Kept per data version, as the artist's other tabs: a page is computed from all of the artist's rows.
  cache: { per: "everyone" },
  access: "staff",
  summary: "An artist's statement: every sale, refund, dispute hold and release, subscription fee and payout with the running balance",
  description:
    'Newest first, keyset pages; each entry with the balance after it, the newest ending at the balance Financials shows. The same lines export as CSV (POST /api/admin/exports with kind "statement" and filters {vendorId}).',
  params: idParams,
  query: statementQuerySchema,
  success: { status: 200, description: "One page of the statement", schema: statementResponseSchema },
  errors: [400, 404],
});
