import type { AccountStatusName, FinancialPeriod, PayoutRunItem, PayoutStatusName } from "@contract/financials";

/** The screen's words (docs/product.md §15.4), kept in one place so tests and the page agree. */

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

export const ACCOUNT_STATUS_LABELS: Record<AccountStatusName, string> = {
  active: "Active",
  pending: "Pending",
  restricted: "Restricted",
  not_connected: "Not connected",
};

export const PAYOUT_STATUS_LABELS: Record<PayoutStatusName, string> = {
  pending: "Pending",
  processing: "Processing",
  unknown: "Unknown",
  paid: "Paid",
  failed: "Failed",
  canceled: "Canceled",
};

export const ACCOUNT_BADGE: Record<AccountStatusName, "success" | "warning" | "destructive" | "secondary"> = {
  active: "success",
  pending: "warning",
  restricted: "destructive",
  not_connected: "secondary",
};

export const PAYOUT_BADGE: Record<PayoutStatusName, "success" | "warning" | "destructive" | "secondary" | "info"> = {
  pending: "secondary",
  processing: "info",
  unknown: "warning",
  paid: "success",
  failed: "destructive",
  canceled: "warning",
};

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

/** 'artist' or 'artists'. */
export const artists = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "artist" : "artists"}`;

