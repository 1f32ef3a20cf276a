import { z } from "zod";
import { ACCOUNT_STATUSES, PAYOUT_STATUSES } from "../../../contract/financials.ts";
import { centsToDollars } from "../../domain/money.ts";
import type { Payout } from "../../platform/db/schema.ts";
import { defineExport } from "../../platform/exports/export-kind.ts";
import { type BalanceKey, type BalanceRow, type PayoutKey, listBalancesPage, listPayoutsPage } from "./financials.queries.ts";

// ---------- CSV exports (docs/product.md §15.5) ----------

export const payoutsExport = defineExport({
  kind: "payouts",
  fileStem: "payouts",
  filters: z.object({
    status: z.enum(PAYOUT_STATUSES).optional(),
    vendorId: z.string().max(64).optional(),
    runId: z.string().max(64).optional(),
  }),
  columns: [
    { header: "Date", value: (p: Payout) => p.created_at },
    { header: "Artist", value: (p) => p.vendor_name },
    { header: "Amount", value: (p) => centsToDollars(p.amount_cents) },
    { header: "Currency", value: (p) => p.currency.toUpperCase() },
    { header: "Status", value: (p) => p.status },
    { header: "Stripe transfer", value: (p) => p.stripe_transfer_id },
    { header: "Failure", value: (p) => p.failure_reason },
    { header: "Paid at", value: (p) => p.paid_at },
    { header: "Run", value: (p) => p.run_id },
  ],
  async readPage(db, filters, cursor: PayoutKey | undefined, limit) {
    const rows = await listPayoutsPage(db, filters, limit, cursor);
    const last = rows.at(-1);
    return { rows, next: last ? { createdAt: last.created_at, id: last.id } : undefined };
  },
});

export const balancesExport = defineExport({
  kind: "balances",
  fileStem: "balances",
  filters: z.object({ accountStatus: z.enum(ACCOUNT_STATUSES).optional() }),
  columns: [
    { header: "Artist", value: (b: BalanceRow) => b.vendor_name },
    { header: "Balance", value: (b) => centsToDollars(b.balance_cents) },
    { header: "Account status", value: (b) => b.status },
    { header: "Last payout", value: (b) => b.last_payout_at },
  ],
  async readPage(db, filters, cursor: BalanceKey | undefined, limit) {
    const rows = await listBalancesPage(db, filters.accountStatus, limit, cursor);
    const last = rows.at(-1);
    return { rows, next: last ? { balanceCents: last.balance_cents, vendorId: last.vendor_id } : undefined };
  },
});
