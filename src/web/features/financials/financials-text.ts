import type { CheckPayoutResponse, FinancialPeriod, PayoutRunItem } from "@contract/financials";
import { countOf } from "@web/lib/format";

/**
 * The screen's words (docs/product.md §15.4), kept in one place so tests and the page agree. The
 * statuses' labels and badges are the domain's (lib/labels.ts).
 */

export const PERIOD_OPTIONS: ReadonlyArray<{ value: FinancialPeriod; label: string }> = [
  { value: "7", label: "7 days" },
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "mtd", label: "Month to date" },
  { value: "ytd", label: "Year to date" },
];

export function periodFromParam(value: string | null): FinancialPeriod {
  return PERIOD_OPTIONS.find((p) => p.value === value)?.value ?? "30";
}

/** What an unknown outcome means, beside its badge (docs/product.md §15.3). */
export const UNKNOWN_EXPLANATION =
  "Stripe never gave a definite answer, so the transfer may or may not exist. The amount stays in flight (it is not owed again or paid in another run) until Stripe has been asked; this happens on its own every few minutes.";

/** A run's state as the run card says it. */
export function runStatusText(status: PayoutRunItem["status"]): string {
  switch (status) {
    case "completed":
      return "Completed";
    case "unresolved":
      return "Unresolved";
    case "canceled":
      return "Canceled";
    case "failed":
      return "Stopped";
    case "queued":
      return "Queued";
    case "running":
      return "Running";
  }
}

/** The toast when a run ends: how it ended and what it paid (docs/product.md §15.4). */
export function runEndToast(run: PayoutRunItem): { title: string; description: string; variant: "destructive" | "default" | "success" } {
  const endings: Partial<Record<PayoutRunItem["status"], string>> = {
    completed: "Payout run completed",
    unresolved: "Payout run ended with unknown outcomes",
    canceled: "Payout run canceled",
  };
  return {
    title: endings[run.status] ?? "Payout run stopped",
    description: `${countOf(run.done, "artist")} paid, ${run.failed} failed${run.unknown ? `, ${run.unknown} unknown` : ""}${run.canceled ? `, ${run.canceled} canceled` : ""}.`,
    variant: run.failed > 0 || run.status === "failed" ? "destructive" : run.unknown > 0 ? "default" : "success",
  };
}

/** The toast title of 'Check with Stripe' on a payout to `vendorName`, by what Stripe said. */
export function checkOutcomeTitle(outcome: CheckPayoutResponse["outcome"], vendorName: string): string {
  switch (outcome) {
    case "paid":
      return `Payout to ${vendorName} is paid`;
    case "owed_again":
      return `Payout to ${vendorName} was not sent: the amount is owed again`;
    default:
      return `Still unknown: Stripe lists no transfer for ${vendorName} yet`;
  }
}

/**
 * The change from the previous period as the cards show it: '+12.5% vs previous period', or null
 * when the previous period had nothing to compare with.
 */
export function changeText(current: number, previous: number): { text: string; up: boolean } | null {
  if (previous === 0) return null;
  const pct = ((current - previous) / Math.abs(previous)) * 100;
  const rounded = Math.round(pct * 10) / 10;
  return { text: `${rounded >= 0 ? "+" : ""}${rounded.toFixed(1)}% vs previous period`, up: rounded >= 0 };
}
