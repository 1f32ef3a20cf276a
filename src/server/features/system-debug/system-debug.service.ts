import type { DebugResponse } from "../../../contract/system-debug.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { DatabaseKind } from "../../platform/db/connect.ts";
import type { ActingUser } from "../../platform/identity/actor.ts";
import { HttpError } from "../../platform/http/http-error.ts";
import { StripeHealthCheck, secretPrefix } from "../../platform/stripe/stripe-check.ts";
import { readStripeReconciliation } from "../../domain/ledger/stripe-reconciliation.ts";
import { readLocalUserRole } from "./system-debug.queries.ts";
import { centsToDollars } from "../../domain/money.ts";

/** Status of the test answer: an error status that the app's logging middleware does not log itself. */
export const TEST_ERROR_STATUS = 418;

/** The health page shows error-log entries dropped over the last day. */
const ERROR_LOG_DROP_HOURS = 24;
/** Open differences between Stripe and the ledger listed on the page (the count covers all). */
const STRIPE_DIFFERENCES_SHOWN = 20;

/** Truthful names of the engines this build runs on (docs/decisions/0004). */
export function databaseLabel(kind: DatabaseKind): string {
  return kind === "sqlite" ? "SQLite (embedded)" : "PostgreSQL";
}

/** The System Debug page and the hidden test-error page (docs/product.md §8 System debug). */
export class DebugService {
  /** One checker per app: its cache is what keeps a refreshing health page from hammering Stripe. */
  private readonly stripe: StripeHealthCheck;

  constructor(private readonly deps: Pick<AppDeps, "config" | "clock" | "fetchImpl" | "database" | "auth" | "errors">) {
    this.stripe = new StripeHealthCheck({
      secretKey: deps.config.stripeSecretKey,
      apiBase: deps.config.stripeApiBase,
      clock: deps.clock,
      fetchImpl: deps.fetchImpl,
    });
  }

  async adminFacts(user: ActingUser, apiUrl: string): Promise<DebugResponse> {
    const { config, database, auth, clock } = this.deps;
    const [payment, localUserRole, drops, reconciliation] = await Promise.all([
      this.stripe.check(),
      readLocalUserRole(database.db, user.id),
      this.deps.errors.droppedSince(ERROR_LOG_DROP_HOURS),
      readStripeReconciliation(database.db, STRIPE_DIFFERENCES_SHOWN),
    ]);
    const dollars = (cents: number | null) => (cents === null ? null : centsToDollars(cents));
    return {
      userId: user.id,
      email: user.email,
      isAdmin: user.isAdmin,
      jwtRole: user.role,
      clerkSecretKeyExists: config.clerkSecretKey !== undefined,
      clerkKeyPrefix: secretPrefix(config.clerkSecretKey),
      stripeSecretKeyExists: config.stripeSecretKey !== undefined,
      stripeKeyPrefix: secretPrefix(config.stripeSecretKey),
      stripeWorks: payment.works,
      stripeError: payment.error,
      stripeCheckedAt: payment.checkedAt,
      authProvider: config.authProvider,
      authProviderName: auth.displayName,
      authSecretKeyRequired: config.authProvider === "clerk",
      localUserRole,
      environment: config.production ? "production" : "development",
      apiUrl,
      database: { kind: database.kind, label: databaseLabel(database.kind) },
      errorLogDrops: { hours: ERROR_LOG_DROP_HOURS, ...drops },
      stripeReconciliation: {
        last: reconciliation.last,
        openDifferences: reconciliation.openDifferences,
        differences: reconciliation.differences.map(({ stripeAmountCents, ledgerAmountCents, ...d }) => ({ ...d, stripeAmount: dollars(stripeAmountCents), ledgerAmount: dollars(ledgerAmountCents) })),
      },
      checkedAt: clock.now().toISOString(),
    };
  }

  /**
   * The hidden /test-error page's "Test Error Logging". It writes ONE 'info' row to error_logs on
   * purpose (the level rule in error-recorder.ts) and answers with an error, so the page can show
   * both sides of the pipe. The status is 418, not 500: a 5xx would also be logged by the
   * middleware in app.ts as an 'error' row, making one click look like a real server failure.
   */
  async logTestError(report: { endpoint: string; method: string; user: ActingUser; clientIp: string; userAgent: string | null }): Promise<never> {
    const logged = await this.deps.errors.record({
      level: "info",
      message: "Test error logged from the admin panel",
      endpoint: report.endpoint,
      method: report.method,
      statusCode: TEST_ERROR_STATUS,
      userEmail: report.user.email,
      ipAddress: report.clientIp,
      userAgent: report.userAgent,
      context: { source: "test-error page" },
    });
    // The recorder caps repeats per minute; say so rather than claim a row that was not written.
    throw new HttpError(TEST_ERROR_STATUS, "test_error", logged ? "Test error logged" : "Test error not logged: the error-log rate cap was reached");
  }
}
