import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JobWorker } from "../../platform/jobs/job-worker.ts";
import { placeOrder } from "../../domain/ledger/orders.ts";
import { createProduct } from "../../domain/ledger/products.ts";
import { compareRollups } from "../../domain/ledger/recompute.ts";
import { createVendor } from "../../domain/ledger/vendors.ts";
import { type PayoutProvider, StripePayouts } from "../../platform/stripe/stripe-payouts.ts";
import { type FakeTransferFault, startFakeStripe } from "../../testing/fake-stripe-server.ts";
import { createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { payoutJobs } from "./payout-run.job.ts";

/**
 * Payout runs against a Stripe that answers at random with 500s (before or after making the
 * transfer, kept under the key), timeouts (before or after making it), refusals, and workers that
 * crash mid-run (before or after Stripe made the transfer), followed by further runs and checks
 * with Stripe (docs/product.md §15.3). Whatever happens, for every connected account the sum of
 * the transfers Stripe made equals what the ledger records as paid out to it, no payout has two
 * transfers, every transfer is a paid payout of the ledger with its amount, and the rollups equal
 * a recomputation. Issue 18, finding 1.
 */
const KEY = "sk_test_51PayoutsPropertyKeyAbcdefghijklm";
const WINDOW_MS = 120_000;
const FAULTS: Array<FakeTransferFault | null> = [null, null, null, "500-after-create", "500", "timeout-after-create", "hang", "refuse"];

interface Round {
  /** What the fake does with each transfer request of the round, in turn (cycled). */
  faults: Array<FakeTransferFault | null>;
  /** The first worker dies after this many transfer calls, the last one reaching Stripe or not. */
  crash: { afterCalls: number; made: boolean } | null;
  /** New sales before the run: artists are owed more while earlier payouts may be unknown. */
  moreSales: boolean;
  /** The scheduled check with Stripe runs after the run, once the safe window has passed. */
  settleAfter: boolean;
}

const round: fc.Arbitrary<Round> = fc.record({
  faults: fc.array(fc.constantFrom(...FAULTS), { minLength: 1, maxLength: 10 }),
  crash: fc.option(fc.record({ afterCalls: fc.nat(4), made: fc.boolean() }), { nil: null }),
  moreSales: fc.boolean(),
  settleAfter: fc.boolean(),
});
const scenario = fc.record({
  grosses: fc.array(fc.integer({ min: 3_000, max: 60_000 }), { minLength: 2, maxLength: 5 }),
  rounds: fc.array(round, { minLength: 1, maxLength: 3 }),
});

describe.each(testDatabaseKinds)("payouts under faults (%s)", (kind) => {
  it("Stripe's transfers to every account equal the ledger's paid out, and no account gets two transfers for one balance", { timeout: 240_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ grosses, rounds }) => {
        const fake = await startFakeStripe();
        const ctx = await createTestContext(kind, { env: { STRIPE_SECRET_KEY: KEY, STRIPE_API_BASE: fake.url } });
        fake.now = () => ctx.clock.now().getTime();
        try {
          const { db } = ctx.database;
          const real = new StripePayouts({ secretKey: KEY, apiBase: fake.url, timeoutMs: 150 });
          const options = { maxRps: 1000, backoffBaseMs: 1, maxCallsPerPayout: 3, unknownWindowMs: WINDOW_MS };
          const worker = (provider: PayoutProvider = real) => {
            const w = new JobWorker(ctx.database, ctx.clock, { leaseMs: 30_000, retryBaseMs: 1_000 });
            payoutJobs(w, ctx.deps, { provider, ...options });
            return w;
          };
          const drain = async (w: JobWorker) => {
            while (await w.runOnce()) {
              /* next job */
            }
          };
          /** Moves time on and lets a healthy worker finish whatever is due (a crashed run resumes). */
          const settleDown = async () => {
            for (let i = 0; i < 6; i++) {
              ctx.clock.advance(40_000);
              const w = worker();
              await w.enqueueDueSchedules();
              await drain(w);
            }
          };
          const vendors: Array<{ id: string; account: string; productId: string }> = [];
          for (const [i, gross] of grosses.entries()) {
            const v = await createVendor(
              db,
              { name: `Artist ${i}`, ownerName: "A", email: `a${i}@example.com`, slug: `artist-${i}`, payoutAccount: { stripeAccountId: `acct_prop${i}`, status: "active" } },
              ctx.clock,
            );
            const p = await createProduct(db, { vendorId: v.id, name: "Print", priceCents: gross }, ctx.clock);
            await placeOrder(db, { vendorId: v.id, productId: p.id, quantity: 1, grossCents: gross, feeRateBasisPoints: 150 }, ctx.clock);
            vendors.push({ id: v.id, account: `acct_prop${i}`, productId: p.id });
          }
          const startRun = async () => {
            const admin = await ctx.createUser({ email: `finance-${Math.random().toString(36).slice(2)}@hki.global`, role: "admin" });
            const res = await ctx.request("/api/admin/financial/payouts/runs", { method: "POST", token: admin.token, json: {} });
            expect(res.status, await res.clone().text()).toBe(201);
          };

          for (const r of rounds) {
            if (r.moreSales) for (const v of vendors) await placeOrder(db, { vendorId: v.id, productId: v.productId, quantity: 1, feeRateBasisPoints: 150 }, ctx.clock);
            let call = 0;
            fake.transferFault = () => r.faults[call++ % r.faults.length] ?? null;
            await startRun();
            let calls = 0;
            const crashing: PayoutProvider = {
              retrieveAccount: (id) => real.retrieveAccount(id),
              listTransfers: (request) => real.listTransfers(request),
              createTransfer: async (request) => {
                calls += 1;
                if (r.crash && calls > r.crash.afterCalls) {
                  // The process dies while this call is out: Stripe got it (or not), nobody hears back.
                  if (r.crash.made) await real.createTransfer(request);
                  throw new Error("worker killed");
                }
                return real.createTransfer(request);
              },
            };
            await drain(worker(crashing));
            await settleDown();
            fake.transferFault = null;
            if (r.settleAfter) {
              ctx.clock.advance(WINDOW_MS + 1_000);
              await settleDown();
            }
          }
          // The end: Stripe healthy, every unknown outcome checked after the window, then one more run.
          ctx.clock.advance(WINDOW_MS + 1_000);
          await settleDown();
          expect(await db.selectFrom("payouts").select("id").where("status", "in", ["unknown", "processing", "pending"]).execute()).toEqual([]);
          await startRun();
          await settleDown();

          // Stripe and the ledger agree, account by account, transfer by transfer.
          const payouts = await db.selectFrom("payouts").select(["id", "status", "amount_cents", "stripe_transfer_id"]).execute();
          const paidByTransfer = new Map(payouts.filter((p) => p.status === "paid").map((p) => [p.stripe_transfer_id, p]));
          for (const t of fake.transfers) {
            const p = paidByTransfer.get(t.id);
            expect(p, `transfer ${t.id} to ${t.destination} is no paid payout of the ledger`).toBeDefined();
            expect(Number(p!.amount_cents)).toBe(t.amount);
            expect(t.metadata.payout_id).toBe(p!.id);
          }
          expect(new Set(fake.transfers.map((t) => t.metadata.payout_id)).size).toBe(fake.transfers.length);
          for (const v of vendors) {
            const a = await db.selectFrom("payout_accounts").select(["earned_cents", "paid_out_cents", "in_flight_cents", "balance_cents"]).where("vendor_id", "=", v.id).executeTakeFirstOrThrow();
            expect(fake.paidTo(v.account), v.account).toBe(Number(a.paid_out_cents));
            // Everything earned was paid exactly once: never more, and after the healthy last run, nothing left.
            expect(Number(a.paid_out_cents)).toBe(Number(a.earned_cents));
            expect(Number(a.in_flight_cents)).toBe(0);
          }
          expect(await compareRollups(db)).toEqual([]);
        } finally {
          await ctx.close();
          await fake.close();
        }
      }),
      { numRuns: kind === "sqlite" ? 12 : 4 },
    );
  });
});
