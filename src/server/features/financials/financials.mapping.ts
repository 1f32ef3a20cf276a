import type { BalanceItem, PayoutAccountItem, PayoutItem, PayoutRunItem } from "../../../contract/financials.ts";
import type { Payout, PayoutAccount, PayoutRun } from "../../platform/db/schema.ts";
import { centsToDollars } from "../../domain/money.ts";
import type { BalanceRow } from "./financials.queries.ts";

/** Rows as the API shows them (docs/product.md §15): cents become dollars, flags booleans. */

export const dollars = centsToDollars;

export function toPayoutItem(p: Payout): PayoutItem {
  return {
    id: p.id,
    vendorId: p.vendor_id,
    vendorName: p.vendor_name,
    amount: dollars(p.amount_cents),
    currency: p.currency,
    status: p.status,
    stripeTransferId: p.stripe_transfer_id,
    failureReason: p.failure_reason,
    runId: p.run_id,
    createdAt: p.created_at,
    paidAt: p.paid_at,
    checkedAt: p.checked_at ?? null,
  };
}

export function toBalanceItem(b: BalanceRow): BalanceItem {
  return { vendorId: b.vendor_id, vendorName: b.vendor_name, balance: dollars(b.balance_cents), accountStatus: b.status, lastPayoutAt: b.last_payout_at };
}

/** A run with its progress; until planning is done its size is the estimate made when it started. */
export function toRunItem(r: PayoutRun): PayoutRunItem {
  const planned = r.planning_done === 1;
  return {
    id: r.id,
    status: r.status,
    dryRun: false,
    vendors: planned ? r.payouts : Math.max(r.payouts, r.expected_payouts),
    total: dollars(planned ? r.total_cents : Math.max(r.total_cents, r.expected_cents)),
    done: r.paid,
    failed: r.failed,
    unknown: Number(r.unknown ?? 0),
    canceled: r.canceled,
    paidTotal: dollars(r.paid_cents),
    skipped: r.skipped,
    skippedTotal: dollars(r.skipped_cents),
    held: Number(r.held ?? 0),
    minimum: dollars(r.minimum_cents),
    createdAt: r.created_at,
    createdBy: r.created_by,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    error: r.error,
  };
}

export function toAccountItem(a: PayoutAccount): PayoutAccountItem {
  let requirements: PayoutAccountItem["requirements"] = null;
  if (a.requirements) {
    try {
      const r = JSON.parse(a.requirements) as { currentlyDue?: unknown; pastDue?: unknown; disabledReason?: unknown };
      const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
      requirements = { currentlyDue: list(r.currentlyDue), pastDue: list(r.pastDue), disabledReason: typeof r.disabledReason === "string" ? r.disabledReason : null };
    } catch {
      requirements = null;
    }
  }
  return {
    vendorId: a.vendor_id,
    stripeAccountId: a.stripe_account_id,
    status: a.status,
    chargesEnabled: a.charges_enabled === 1,
    payoutsEnabled: a.payouts_enabled === 1,
    requirements,
    checkedAt: a.checked_at,
  };
}
