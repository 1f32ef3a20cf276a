import type { AppDeps } from "../../platform/request/app-env.ts";
import type { JobWorker } from "../../platform/jobs/job-worker.ts";
import type { RefundProvider } from "../../platform/stripe/stripe-refunds.ts";
import { refundProviderFor } from "./refund-provider.ts";
import { settleRefunds } from "./refund-settle.ts";

/** Settles refunds from the panel whose outcome is not recorded (pending or unknown), by listing at Stripe (refund-settle.ts). */
export const REFUND_SETTLE_JOB = "refunds.settle";

/** How often: the unknown-outcome window (PAYOUT_UNKNOWN_WINDOW_SECONDS), between 5 s and 5 minutes, as payouts. */
export function refundSettleEveryMs(windowMs: number): number {
  return Math.min(5 * 60_000, Math.max(5_000, windowMs));
}

export function refundJobs(worker: JobWorker, deps: AppDeps, options: { provider?: RefundProvider | null; windowMs?: number } = {}): void {
  const provider = options.provider === undefined ? refundProviderFor(deps) : options.provider;
  const windowMs = options.windowMs ?? deps.config.payoutUnknownWindowMs;
  worker.register(REFUND_SETTLE_JOB, async (ctx) => {
    if (!provider) return { skipped: "Payment provider not configured" };
    return settleRefunds(deps, provider, { windowMs, shouldStop: () => ctx.shouldStop() });
  });
  if (provider) worker.schedule(REFUND_SETTLE_JOB, refundSettleEveryMs(windowMs));
}
