import fc from "fast-check";
import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { FINANCIAL_PERIODS, type FinancialFigures } from "../../../contract/financials.ts";
import { addDays, daysBetween } from "../../domain/ledger/platform-days.queries.ts";
import { fixedClock } from "../../platform/clock.ts";
import type { DB } from "../../platform/db/schema.ts";
import { LedgerError } from "../../domain/ledger/ledger-error.ts";
import { cancelOrder, placeOrder, refundOrder } from "../../domain/ledger/orders.ts";
import { addPendingPayouts, finishPayoutRun, insertPayoutRun, markPayoutPaid, markPayoutProcessing } from "../../domain/ledger/payouts.ts";
import { createProduct } from "../../domain/ledger/products.ts";
import { cancelSubscription, startSubscription } from "../../domain/ledger/subscriptions.ts";
import { createVendor, deleteVendorCascade } from "../../domain/ledger/vendors.ts";
import { testBackends } from "../../testing/test-databases.ts";
import { computeFinancialOverview, periodRange } from "./financials.service.ts";

/**
 * The financial overview (docs/product.md §15.1) read from rollups equals the same figures computed
 * naively from the raw rows (orders, subscriptions, payouts), for every period and the previous
 * one, after any mix of sales, refunds, cancellations, subscriptions, payouts and deletions.
 */
const NOW = new Date("2026-12-02T10:00:00.000Z");
const START = Date.UTC(2025, 10, 1); // Nov 1, 2025: covers this year, and the previous ytd in part.
const SPAN = Math.floor((NOW.getTime() - START) / 60_000);
const time = (minute: number) => new Date(START + Math.min(minute, SPAN) * 60_000).toISOString();

type Command =
  | { op: "vendor"; minute: number }
  | { op: "product"; pick: number; minute: number }
  | { op: "order"; pick: number; quantity: number; rate: number; minute: number }
  | { op: "refund" | "cancel"; pick: number; later: number }
  | { op: "subscribe"; pick: number; fee: number; minute: number }
  | { op: "unsubscribe"; pick: number; later: number }
  | { op: "payout"; pick: number; later: number }
  | { op: "delete"; pick: number };

const minute = fc.oneof(fc.integer({ min: 0, max: SPAN }), { arbitrary: fc.integer({ min: SPAN - 100 * 1440, max: SPAN }), weight: 3 });
const pick = fc.nat(1000);
const later = fc.integer({ min: 0, max: 40 * 1440 });
const command: fc.Arbitrary<Command> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant("vendor" as const), minute }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant("product" as const), pick, minute }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant("order" as const), pick, quantity: fc.integer({ min: 1, max: 3 }), rate: fc.constantFrom(100, 150, 250), minute }), weight: 8 },
  { arbitrary: fc.record({ op: fc.constantFrom("refund" as const, "cancel" as const), pick, later }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant("subscribe" as const), pick, fee: fc.constantFrom(2999, 1999), minute }), weight: 2 },
  fc.record({ op: fc.constant("unsubscribe" as const), pick, later }),
  { arbitrary: fc.record({ op: fc.constant("payout" as const), pick, later }), weight: 3 },
  fc.record({ op: fc.constant("delete" as const), pick }),
);

/** A platform with sales to start from, so what follows has orders to refund and balances to pay. */
const setup: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ op: fc.constant("vendor" as const), minute }),
  fc.record({ op: fc.constant("product" as const), pick, minute }),
  { arbitrary: fc.record({ op: fc.constant("order" as const), pick, quantity: fc.integer({ min: 1, max: 3 }), rate: fc.constantFrom(100, 150, 250), minute }), weight: 3 },
  fc.record({ op: fc.constant("subscribe" as const), pick, fee: fc.constantFrom(2999, 1999), minute }),
);

const at = <T>(xs: T[], i: number): T | undefined => (xs.length ? xs[i % xs.length] : undefined);
const ids = async (db: Kysely<DB>, table: "vendors" | "products") => (await db.selectFrom(table).select("id").orderBy("id").execute()).map((r) => r.id);
/** An instant `later` minutes after `iso`, never after now. */
const after = (iso: string, minutes: number) => new Date(Math.min(NOW.getTime(), Date.parse(iso) + minutes * 60_000)).toISOString();

async function run(db: Kysely<DB>, cmd: Command, n: number): Promise<void> {
  const clock = fixedClock(NOW);
  switch (cmd.op) {
    case "vendor":
      await createVendor(
        db,
        { name: `V${n}`, ownerName: "O", email: `v${n}@x.test`, slug: `v${n}`, joinedAt: time(cmd.minute), payoutAccount: { stripeAccountId: `acct_${n}`, status: "active" } },
        clock,
      );
      return;
    case "product": {
      const v = at(await ids(db, "vendors"), cmd.pick);
      if (v) await createProduct(db, { vendorId: v, name: `P${n}`, priceCents: 1000 + n * 7, createdAt: time(0) }, clock);
      return;
    }
    case "order": {
      const p = at(await ids(db, "products"), cmd.pick);
      if (!p) return;
      const { vendor_id } = await db.selectFrom("products").select("vendor_id").where("id", "=", p).executeTakeFirstOrThrow();
      await placeOrder(db, { vendorId: vendor_id, productId: p, quantity: cmd.quantity, feeRateBasisPoints: cmd.rate, createdAt: time(cmd.minute) }, clock);
      return;
    }
    case "refund":
    case "cancel": {
      const paid = await db.selectFrom("orders").select(["id", "created_at"]).where("status", "=", "paid").orderBy("id").execute();
      const o = at(paid, cmd.pick);
      if (o) await (cmd.op === "refund" ? refundOrder : cancelOrder)(db, o.id, fixedClock(after(o.created_at, cmd.later)));
      return;
    }
    case "subscribe": {
      const v = at(await ids(db, "vendors"), cmd.pick);
      if (v) await startSubscription(db, { vendorId: v, plan: "monthly", monthlyFeeCents: cmd.fee, startedAt: time(cmd.minute) }, clock);
      return;
    }
    case "unsubscribe": {
      const subs = await db.selectFrom("subscriptions").select(["id", "started_at"]).where("status", "=", "active").orderBy("id").execute();
      const s = at(subs, cmd.pick);
      if (s) await cancelSubscription(db, s.id, clock, after(s.started_at, cmd.later));
      return;
    }
    case "payout": {
      const owed = await db
        .selectFrom("payout_accounts")
        .innerJoin("vendors", "vendors.id", "payout_accounts.vendor_id")
        .select(["vendor_id", "name", "balance_cents"])
        .where("balance_cents", ">", 0)
        .orderBy("vendor_id")
        .execute();
      const a = at(owed, cmd.pick);
      if (!a) return;
      // Paid some time after the vendor's latest sale, never after now.
      const last = await db.selectFrom("orders").select("created_at").where("vendor_id", "=", a.vendor_id).orderBy("created_at", "desc").limit(1).executeTakeFirst();
      const paidAt = after(last?.created_at ?? time(0), cmd.later);
      for (const r of await db.selectFrom("payout_runs").select("id").where("active", "=", 1).execute()) await finishPayoutRun(db, r.id, "completed", paidAt);
      const runId = `run-${n}`;
      await insertPayoutRun(db, { id: runId, minimumCents: 0, expectedPayouts: 1, expectedCents: Number(a.balance_cents), skipped: 0, skippedCents: 0, createdBy: null, createdAt: paidAt });
      await addPendingPayouts(db, runId, [{ id: `p-${n}`, vendorId: a.vendor_id, vendorName: a.name, destination: "acct_x", amountCents: Number(a.balance_cents) }], paidAt);
      await markPayoutProcessing(db, `p-${n}`, paidAt);
      await markPayoutPaid(db, `p-${n}`, `tr_${n}`, paidAt);
      return;
    }
    case "delete": {
      const v = at(await ids(db, "vendors"), cmd.pick);
      if (v)
        await deleteVendorCascade(db, v).catch((err: unknown) => {
          if (!(err instanceof LedgerError)) throw err;
        });
      return;
    }
  }
}

/** Every figure of a period computed from the raw rows. */
async function naive(db: Kysely<DB>) {
  const orders = await db.selectFrom("orders").select(["status", "gross_cents", "fee_cents", "created_at", "updated_at"]).execute();
  const subs = await db.selectFrom("subscriptions").select(["monthly_fee_cents", "started_at", "cancelled_at"]).execute();
  const payouts = await db.selectFrom("payouts").select(["status", "amount_cents", "paid_at"]).where("status", "=", "paid").execute();
  const day = (iso: string) => iso.slice(0, 10);
  const paid = orders.filter((o) => o.status === "paid");
  const within = (d: string, from: string, to: string) => d >= from && d <= to;
  const figures = (from: string, to: string): FinancialFigures => {
    const sales = paid.filter((o) => within(day(o.created_at), from, to));
    const gross = sales.reduce((s, o) => s + Number(o.gross_cents), 0);
    const fees = sales.reduce((s, o) => s + Number(o.fee_cents), 0);
    let mrrDays = 0;
    for (const d of daysBetween(from, to)) {
      for (const s of subs) if (day(s.started_at) <= d && (s.cancelled_at === null || day(s.cancelled_at) > d)) mrrDays += Number(s.monthly_fee_cents);
    }
    const earnedBy = paid.filter((o) => day(o.created_at) <= to).reduce((s, o) => s + Number(o.gross_cents) - Number(o.fee_cents), 0);
    const paidBy = payouts.filter((p) => day(p.paid_at!) <= to).reduce((s, p) => s + Number(p.amount_cents), 0);
    return {
      from,
      to,
      grossSales: gross / 100,
      platformFees: fees / 100,
      subscriptionRevenue: Math.round((mrrDays * 12) / 365) / 100,
      refunds: orders.filter((o) => o.status === "refunded" && within(day(o.updated_at), from, to)).reduce((s, o) => s + Number(o.gross_cents), 0) / 100,
      vendorEarnings: (gross - fees) / 100,
      paidOut: payouts.filter((p) => within(day(p.paid_at!), from, to)).reduce((s, p) => s + Number(p.amount_cents), 0) / 100,
      outstandingBalance: (earnedBy - paidBy) / 100,
    };
  };
  const series = (from: string, to: string) =>
    daysBetween(from, to).map((d) => {
      const f = figures(d, d);
      return { date: d, grossSales: f.grossSales, platformFees: f.platformFees, refunds: f.refunds, paidOut: f.paidOut };
    });
  return { figures, series };
}

describe.each(testBackends())("financial overview equals a naive computation ($kind)", (backend) => {
  it("for every period and the one before, after any mix of sales, refunds, subscriptions, payouts and deletions", { timeout: 180_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(setup, { minLength: 6, maxLength: 20 }), fc.array(command, { minLength: 1, maxLength: 40 }), async (prefix, rest) => {
        const commands = [{ op: "vendor", minute: 0 } as Command, { op: "product", pick: 0, minute: 0 } as Command, ...prefix, ...rest];
        const t = await backend.open();
        try {
          for (const [n, cmd] of commands.entries()) await run(t.db, cmd, n);
          const expected = await naive(t.db);
          const today = NOW.toISOString().slice(0, 10);
          for (const period of FINANCIAL_PERIODS) {
            const overview = await computeFinancialOverview(t.db, NOW, period);
            const r = periodRange(period, today);
            const { from: _from, to: _to, ...current } = expected.figures(r.from, r.to);
            expect(overview).toMatchObject({ period, from: r.from, to: r.to, ...current });
            expect(overview.previous).toEqual(expected.figures(r.prevFrom, r.prevTo));
            expect(overview.series).toEqual(expected.series(r.from, r.to));
            expect(r.prevTo).toBe(addDays(r.from, -1));
          }
        } finally {
          await t.close();
        }
      }),
      { numRuns: backend.kind === "sqlite" ? 25 : 8 },
    );
  });
});
