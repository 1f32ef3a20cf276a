import { ACCOUNT_STATUSES } from "../../../contract/financials.ts";
import type { Payout, PayoutAccount, PayoutAccountStatus, PayoutRun, PayoutStatus } from "../../platform/db/schema.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { normaliseAccount, normalisePayout, normaliseRun } from "../../domain/ledger/payouts.ts";

/**
 * SQL of financials and payouts (docs/product.md §15). Every request read is a primary-key or
 * index range read over rollups (daily_platform_totals, payout_accounts, payout_balance_totals,
 * payout_runs) or a keyset page of payouts; only the payout run's planning walks payout_accounts,
 * in the background, in chunks.
 */

// ---------- overview ----------

export interface FinancialDayRow {
  day: string;
  grossCents: number;
  feesCents: number;
  refundsCents: number;
  payoutsCents: number;
  mrrChangeCents: number;
}

export interface OverviewDays {
  /** Before `from`: earnings − payouts paid (what was owed at the start) and the recurring revenue then. */
  owedBeforeCents: number;
  mrrBeforeCents: number;
  /** Every stored day from `from` on, by day. */
  days: Map<string, FinancialDayRow>;
}

/**
 * The per-day rollup from `from` on, and what came before summed in the database: the table holds
 * one row per day (a few hundred a year), never orders.
 */
export async function readOverviewDays(db: Executor, from: string): Promise<OverviewDays> {
  const before = await db
    .selectFrom("daily_platform_totals")
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum(eb(eb("gross_cents", "-", eb.ref("fees_cents")), "-", eb.ref("payouts_cents"))), eb.lit(0)).as("owed"),
      eb.fn.coalesce(eb.fn.sum("mrr_change_cents"), eb.lit(0)).as("mrr"),
    ])
    .where("day", "<", from)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom("daily_platform_totals")
    .select(["day", "gross_cents", "fees_cents", "refunds_cents", "payouts_cents", "mrr_change_cents"])
    .where("day", ">=", from)
    .orderBy("day")
    .execute();
  return {
    owedBeforeCents: Number(before.owed),
    mrrBeforeCents: Number(before.mrr),
    days: new Map(
      rows.map((r) => [
        r.day,
        {
          day: r.day,
          grossCents: Number(r.gross_cents),
          feesCents: Number(r.fees_cents),
          refundsCents: Number(r.refunds_cents),
          payoutsCents: Number(r.payouts_cents),
          mrrChangeCents: Number(r.mrr_change_cents),
        },
      ]),
    ),
  };
}

// ---------- payouts ----------

export interface PayoutFilters {
  status?: PayoutStatus | undefined;
  vendorId?: string | undefined;
  runId?: string | undefined;
}

export interface PayoutKey {
  createdAt: string;
  id: string;
}

/** One page of payouts, newest first (created_at desc, id desc), each filter served by its index. */
export async function listPayoutsPage(db: Executor, filters: PayoutFilters, limit: number, after?: PayoutKey): Promise<Payout[]> {
  let query = db.selectFrom("payouts").selectAll();
  if (filters.vendorId) query = query.where("vendor_id", "=", filters.vendorId);
  if (filters.runId) query = query.where("run_id", "=", filters.runId);
  if (filters.status) query = query.where("status", "=", filters.status);
  if (after) {
    query = query.where((eb) => eb.or([eb("created_at", "<", after.createdAt), eb.and([eb("created_at", "=", after.createdAt), eb("id", "<", after.id)])]));
  }
  const rows = await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
  return rows.map(normalisePayout);
}

/**
 * How many payouts match: from the runs' counts (a small table) unless a vendor is named, then
 * from that vendor's own payouts (a handful per run it was in).
 */
export async function countPayouts(db: Executor, filters: PayoutFilters): Promise<number> {
  if (filters.vendorId) {
    let query = db
      .selectFrom("payouts")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("vendor_id", "=", filters.vendorId);
    if (filters.runId) query = query.where("run_id", "=", filters.runId);
    if (filters.status) query = query.where("status", "=", filters.status);
    return Number((await query.executeTakeFirstOrThrow()).n);
  }
  const column = filters.status ?? "payouts";
  let query = db.selectFrom("payout_runs").select((eb) => eb.fn.coalesce(eb.fn.sum(column), eb.lit(0)).as("n"));
  if (filters.runId) query = query.where("id", "=", filters.runId);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

export function findPayout(db: Executor, id: string): Promise<Payout | undefined> {
  return db
    .selectFrom("payouts")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirst()
    .then((p) => (p ? normalisePayout(p) : undefined));
}

/** The vendor's latest payouts (vendor detail). */
export async function recentVendorPayouts(db: Executor, vendorId: string, limit: number): Promise<Payout[]> {
  return listPayoutsPage(db, { vendorId }, limit);
}

// ---------- balances ----------

export interface BalanceRow {
  vendor_id: string;
  vendor_name: string;
  balance_cents: number;
  status: PayoutAccountStatus;
  last_payout_at: string | null;
}

export interface BalanceKey {
  balanceCents: number;
  vendorId: string;
}

/** Vendors owed money, largest balance first: a backwards walk of a balance index (per status when filtered). */
export async function listBalancesPage(db: Executor, status: PayoutAccountStatus | undefined, limit: number, after?: BalanceKey): Promise<BalanceRow[]> {
  let query = db
    .selectFrom("payout_accounts")
    .innerJoin("vendors", "vendors.id", "payout_accounts.vendor_id")
    .select(["payout_accounts.vendor_id", "vendors.name as vendor_name", "payout_accounts.balance_cents", "payout_accounts.status", "payout_accounts.last_payout_at"])
    .where("payout_accounts.balance_cents", ">", 0);
  if (status) query = query.where("payout_accounts.status", "=", status);
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb("payout_accounts.balance_cents", "<", after.balanceCents),
        eb.and([eb("payout_accounts.balance_cents", "=", after.balanceCents), eb("payout_accounts.vendor_id", "<", after.vendorId)]),
      ]),
    );
  }
  const rows = await query.orderBy("payout_accounts.balance_cents", "desc").orderBy("payout_accounts.vendor_id", "desc").limit(limit).execute();
  return rows.map((r) => ({ ...r, balance_cents: Number(r.balance_cents) }));
}

/** Vendors owed money and the sum owed, from the per-status rollup. */
export async function readBalanceTotals(db: Executor, status?: PayoutAccountStatus): Promise<{ vendors: number; cents: number }> {
  let query = db.selectFrom("payout_balance_totals").select((eb) => [eb.fn.coalesce(eb.fn.sum("vendors_owed"), eb.lit(0)).as("v"), eb.fn.coalesce(eb.fn.sum("owed_cents"), eb.lit(0)).as("c")]);
  if (status) query = query.where("account_status", "=", status);
  const row = await query.executeTakeFirstOrThrow();
  return { vendors: Number(row.v), cents: Number(row.c) };
}

// ---------- accounts ----------

export async function findPayoutAccount(db: Executor, vendorId: string): Promise<PayoutAccount | undefined> {
  const row = await db.selectFrom("payout_accounts").selectAll().where("vendor_id", "=", vendorId).executeTakeFirst();
  return row ? normaliseAccount(row) : undefined;
}

export async function findVendorName(db: Executor, vendorId: string): Promise<string | undefined> {
  return (await db.selectFrom("vendors").select("name").where("id", "=", vendorId).executeTakeFirst())?.name;
}

/** Payout states that hold a vendor out of a new run: the transfer is being sent, or may exist. */
export const HOLDING_STATUSES = ["processing", "unknown"] as const;

/**
 * Who a run with this minimum would pay (active accounts owed at least it, without a payout being
 * sent or of unknown outcome), who it would skip (owed at least it, account not active) and who it
 * holds back (active, owed at least it, a payout to them being sent or unknown): ranges of the
 * (status, balance) index, and the few payouts in those states.
 */
export async function countEligible(db: Executor, minimumCents: number): Promise<{ payouts: number; cents: number; skipped: number; skippedCents: number; held: number }> {
  const floor = Math.max(1, minimumCents);
  const rows = await db
    .selectFrom("payout_accounts")
    .select((eb) => ["status", eb.fn.countAll().as("n"), eb.fn.coalesce(eb.fn.sum("balance_cents"), eb.lit(0)).as("c")])
    .where("status", "in", [...ACCOUNT_STATUSES])
    .where("balance_cents", ">=", floor)
    .groupBy("status")
    .execute();
  const out = { payouts: 0, cents: 0, skipped: 0, skippedCents: 0, held: 0 };
  for (const r of rows) {
    if (r.status === "active") {
      out.payouts += Number(r.n);
      out.cents += Number(r.c);
    } else {
      out.skipped += Number(r.n);
      out.skippedCents += Number(r.c);
    }
  }
  const held = await db
    .selectFrom("payout_accounts")
    .select((eb) => [eb.fn.countAll().as("n"), eb.fn.coalesce(eb.fn.sum("balance_cents"), eb.lit(0)).as("c")])
    .where("status", "=", "active")
    .where("balance_cents", ">=", floor)
    .where("vendor_id", "in", (eb) =>
      eb
        .selectFrom("payouts")
        .select("payouts.vendor_id")
        .where("payouts.status", "in", [...HOLDING_STATUSES]),
    )
    .executeTakeFirstOrThrow();
  out.held = Number(held.n);
  out.payouts -= out.held;
  out.cents -= Number(held.c);
  return out;
}

export interface EligibleAccount {
  vendorId: string;
  vendorName: string;
  destination: string;
  balanceCents: number;
}

/**
 * The next vendors (by id, after `afterVendorId`) a run pays: admitted artist, active account, balance ≥ the
 * minimum, and no payout to them being sent or of unknown outcome (paying them now could pay the
 * same money twice if that transfer exists).
 */
export async function nextEligibleAccounts(
  db: Executor,
  minimumCents: number,
  afterVendorId: string | null,
  limit: number,
): Promise<{ accounts: EligibleAccount[]; lastVendorId: string | null; exhausted: boolean }> {
  let query = db
    .selectFrom("payout_accounts")
    .innerJoin("vendors", "vendors.id", "payout_accounts.vendor_id")
    .select(["payout_accounts.vendor_id", "vendors.name", "vendors.approval_status", "payout_accounts.stripe_account_id", "payout_accounts.balance_cents", "payout_accounts.status"]);
  if (afterVendorId) query = query.where("payout_accounts.vendor_id", ">", afterVendorId);
  // Walk by vendor id (the primary key): a vendor is planned at most once whatever its balance does meanwhile.
  const rows = await query.orderBy("payout_accounts.vendor_id").limit(limit).execute();
  const floor = Math.max(1, minimumCents);
  // An artist not admitted (its application pending, changes asked for, or rejected) is never paid.
  const candidates = rows.filter((r) => r.status === "active" && r.approval_status === "approved" && r.stripe_account_id !== null && Number(r.balance_cents) >= floor);
  const held = new Set(
    candidates.length === 0
      ? []
      : (
          await db
            .selectFrom("payouts")
            .select("vendor_id")
            .where(
              "vendor_id",
              "in",
              candidates.map((r) => r.vendor_id),
            )
            .where("status", "in", [...HOLDING_STATUSES])
            .execute()
        ).map((r) => r.vendor_id),
  );
  const accounts = candidates
    .filter((r) => !held.has(r.vendor_id))
    .map((r) => ({ vendorId: r.vendor_id, vendorName: r.name, destination: r.stripe_account_id!, balanceCents: Number(r.balance_cents) }));
  return { accounts, lastVendorId: rows.at(-1)?.vendor_id ?? afterVendorId, exhausted: rows.length < limit };
}

// ---------- runs ----------

export async function findPayoutRun(db: Executor, id: string): Promise<PayoutRun | undefined> {
  const row = await db.selectFrom("payout_runs").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? normaliseRun(row) : undefined;
}

export async function findActivePayoutRun(db: Executor): Promise<PayoutRun | undefined> {
  const row = await db.selectFrom("payout_runs").selectAll().where("active", "=", 1).executeTakeFirst();
  return row ? normaliseRun(row) : undefined;
}

export async function listPayoutRunsPage(db: Executor, limit: number, after?: PayoutKey): Promise<PayoutRun[]> {
  let query = db.selectFrom("payout_runs").selectAll();
  if (after) query = query.where((eb) => eb.or([eb("created_at", "<", after.createdAt), eb.and([eb("created_at", "=", after.createdAt), eb("id", "<", after.id)])]));
  const rows = await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
  return rows.map(normaliseRun);
}

/** A run's payouts in one status, by id after `afterId` (the worker's walk). */
export async function runPayoutsInStatus(db: Executor, runId: string, status: PayoutStatus, afterId: string | null, limit: number): Promise<Payout[]> {
  let query = db.selectFrom("payouts").selectAll().where("run_id", "=", runId).where("status", "=", status);
  if (afterId) query = query.where("id", ">", afterId);
  return (await query.orderBy("id").limit(limit).execute()).map(normalisePayout);
}

/** Pending payouts left behind by runs that are no longer active (a run that failed on its own). */
export async function orphanPendingPayouts(db: Executor, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom("payouts")
    .innerJoin("payout_runs", "payout_runs.id", "payouts.run_id")
    .select("payouts.id")
    .where("payouts.status", "=", "pending")
    .where("payout_runs.active", "is", null)
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Payouts whose outcome is unknown, by id after `afterId`, of one run or all. */
export async function unknownPayouts(db: Executor, runId: string | null, afterId: string | null, limit: number): Promise<Payout[]> {
  let query = db.selectFrom("payouts").selectAll().where("status", "=", "unknown");
  if (runId) query = query.where("run_id", "=", runId);
  if (afterId) query = query.where("id", ">", afterId);
  return (await query.orderBy("id").limit(limit).execute()).map(normalisePayout);
}

/** Payouts paid at or after `since`, whatever their run's age, in (paid_at, id) order after `after` (reconciliation's walk). */
export async function paidPayoutsPage(db: Executor, since: string, after: { paidAt: string; id: string } | null, limit: number): Promise<Payout[]> {
  let query = db.selectFrom("payouts").selectAll().where("status", "=", "paid").where("paid_at", ">=", since);
  if (after) query = query.where((eb) => eb.or([eb("paid_at", ">", after.paidAt), eb.and([eb("paid_at", "=", after.paidAt), eb("id", ">", after.id)])]));
  return (await query.orderBy("paid_at").orderBy("id").limit(limit).execute()).map(normalisePayout);
}

/** Which of these ids are payout runs of the panel. */
export async function knownRunIds(db: Executor, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom("payout_runs").select("id").where("id", "in", ids).execute();
  return new Set(rows.map((r) => r.id));
}

export async function findPayoutsByIds(db: Executor, ids: string[]): Promise<Payout[]> {
  if (ids.length === 0) return [];
  return (await db.selectFrom("payouts").selectAll().where("id", "in", ids).execute()).map(normalisePayout);
}

export async function isRunCancelRequested(db: Executor, runId: string): Promise<boolean> {
  const row = await db.selectFrom("payout_runs").select("cancel_requested").where("id", "=", runId).executeTakeFirst();
  return row?.cancel_requested === 1;
}
