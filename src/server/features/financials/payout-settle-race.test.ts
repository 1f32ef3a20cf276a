import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkPayoutResponseSchema, type PayoutsResponse } from "../../../contract/financials.ts";
import { JobWorker } from "../../platform/jobs/job-worker.ts";
import { placeOrder } from "../../domain/ledger/orders.ts";
import { createProduct } from "../../domain/ledger/products.ts";
import { compareRollups } from "../../domain/ledger/recompute.ts";
import { createVendor } from "../../domain/ledger/vendors.ts";
import { Pacer, StripePayouts } from "../../platform/stripe/stripe-payouts.ts";
import { type FakeStripeServer, type FakeTransferFault, startFakeStripe } from "../../testing/fake-stripe-server.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { payoutJobs } from "./payout-run.job.ts";
import { settleUnknownPayouts } from "./payout-reconcile.ts";

/**
 * A decision "Stripe has no transfer, the amount is owed again" is written only on the attempt it
 * looked at (issue 31, finding 1). Before: "Check with Stripe" and the scheduled settle read the
 * payout, listed the run's transfers (up to 20 s), then wrote "failed, owed again" if the payout
 * was still `unknown`, whatever had happened meanwhile. A list answered late after a second check
 * had owed the amount again and a retry's attempt 2 had been made by Stripe (answered 500, so
 * `unknown` again) failed attempt 2 too: the amount went back into the balance, attempt 3 paid the
 * artist a second time. Now the write is conditional on the attempt and state version read
 * before the list was asked.
 */
const KEY = "sk_test_51SettleRaceKeyAbcdefghijklmnopq";
const WINDOW_MS = 300_000;

interface Setup {
  fake: FakeStripeServer;
  ctx: TestContext;
  token: string;
  artists: Array<{ id: string; account: string }>;
}

async function setUp(kind: (typeof testDatabaseKinds)[number], artists: number): Promise<Setup> {
  const fake = await startFakeStripe();
  const ctx = await createTestContext(kind, { env: { STRIPE_SECRET_KEY: KEY, STRIPE_API_BASE: fake.url, PAYOUT_UNKNOWN_WINDOW_SECONDS: String(WINDOW_MS / 1000) } });
  fake.now = () => ctx.clock.now().getTime();
  const admin = await ctx.createUser({ email: "finance@hki.global", role: "admin" });
  const made: Setup["artists"] = [];
  for (let i = 0; i < artists; i++) {
    const account = `acct_race${i}`;
    const v = await createVendor(
      ctx.database.db,
      { name: `Race Artist ${i}`, ownerName: "R", email: `race${i}@example.com`, slug: `race-${i}`, payoutAccount: { stripeAccountId: account, status: "active" } },
      ctx.clock,
    );
    const p = await createProduct(ctx.database.db, { vendorId: v.id, name: "Print", priceCents: 343_460 }, ctx.clock);
    await placeOrder(ctx.database.db, { vendorId: v.id, productId: p.id, quantity: 1, grossCents: 343_460 + i * 1000, feeRateBasisPoints: 0 }, ctx.clock);
    made.push({ id: v.id, account });
  }
  return { fake, ctx, token: admin.token, artists: made };
}

/** The harness's moves: the admin's buttons over the API, the worker, the scheduled settle, and Stripe's behaviour. */
function moves(s: Setup) {
  const { fake, ctx, token } = s;
  const provider = new StripePayouts({ secretKey: KEY, apiBase: fake.url, timeoutMs: 5_000 });
  const worker = () => {
    const w = new JobWorker(ctx.database, ctx.clock, { leaseMs: 30_000, retryBaseMs: 1_000 });
    payoutJobs(w, ctx.deps, { provider, maxRps: 1000, backoffBaseMs: 1, maxCallsPerPayout: 2, unknownWindowMs: WINDOW_MS });
    return w;
  };
  const post = (path: string) => ctx.request(path, { method: "POST", token, json: {} });
  const payouts = async () => (await ((await ctx.request("/api/admin/financial/payouts", { token })).json() as Promise<PayoutsResponse>)).payouts;
  /** Starts `act` with the next list of transfers held at the fake (taken when asked, answered on release), once Stripe got the list request. */
  const withHeldList = async (act: () => Promise<unknown>) => {
    const release = fake.holdNextList();
    const asked = fake.listCalls;
    const done = act();
    const settled = done.then(() => true);
    while (fake.listCalls === asked && !(await Promise.race([settled, new Promise((r) => setTimeout(() => r(false), 5))]))) {
      /* wait for the list request (or for an act that had nothing to ask) */
    }
    return { release, done };
  };
  return {
    payouts,
    startRun: async () => expect((await post("/api/admin/financial/payouts/runs")).status).toBe(201),
    drain: async () => {
      const w = worker();
      while (await w.runOnce()) {
        /* next job */
      }
    },
    check: (id: string) => post(`/api/admin/financial/payouts/${id}/check`),
    retry: (id: string) => post(`/api/admin/financial/payouts/${id}/retry`),
    scheduledSettle: () => settleUnknownPayouts(ctx.deps, provider, new Pacer(1000), { windowMs: WINDOW_MS }),
    withHeldList,
    /** What Stripe sent each account equals the ledger's paid out, and no payout has two transfers. */
    assertPaidOnce: async () => {
      const perPayout = new Map<string, number>();
      for (const t of fake.transfers) perPayout.set(t.metadata.payout_id ?? "", (perPayout.get(t.metadata.payout_id ?? "") ?? 0) + 1);
      for (const [payoutId, n] of perPayout) expect(n, `transfers for payout ${payoutId}`).toBe(1);
      for (const a of s.artists) {
        const row = await ctx.database.db.selectFrom("payout_accounts").select(["paid_out_cents"]).where("vendor_id", "=", a.id).executeTakeFirstOrThrow();
        expect(fake.paidTo(a.account), a.account).toBe(Number(row.paid_out_cents));
      }
      expect(await compareRollups(ctx.database.db)).toEqual([]);
    },
  };
}

describe.each(testDatabaseKinds)("settling an unknown payout on the attempt it looked at (%s)", (kind) => {
  let s: Setup;
  beforeEach(async () => {
    s = await setUp(kind, 1);
  });
  afterEach(async () => {
    await s.ctx.close();
    await s.fake.close();
  });

  it("a check whose list is answered after a later attempt does not owe the amount again: the artist is paid once", async () => {
    const m = moves(s);
    const { fake, ctx } = s;
    // Attempt 1: Stripe answers 500 without making the transfer (kept under the key) → unknown.
    fake.transferFault = () => "500";
    await m.startRun();
    await m.drain();
    fake.transferFault = null;
    const [payout] = await m.payouts();
    expect(payout?.status).toBe("unknown");
    ctx.clock.advance(WINDOW_MS + 1_000);

    // A first check asks for the list; Stripe lists nothing, but answers it late.
    const slow = await m.withHeldList(() => m.check(payout!.id));
    // Meanwhile a second check is answered at once: nothing listed after the window → owed again.
    const second = checkPayoutResponseSchema.parse(await (await m.check(payout!.id)).json());
    expect(second.outcome).toBe("owed_again");
    // Retry: attempt 2 is made by Stripe, which answers 500 → unknown again.
    expect((await m.retry(payout!.id)).status).toBe(200);
    fake.transferFault = () => "500-after-create";
    await m.drain();
    fake.transferFault = null;
    expect(fake.transfers).toHaveLength(1);
    expect((await m.payouts())[0]).toMatchObject({ status: "unknown" });

    // The first check's empty list arrives now: it was about attempt 1, so it changes nothing.
    slow.release();
    const late = checkPayoutResponseSchema.parse(await ((await slow.done) as Response).json());
    expect(late.outcome).toBe("unknown");
    expect(late.payout.status).toBe("unknown");
    expect((await m.retry(payout!.id)).status).toBe(409);
    await m.drain();

    // Once Stripe lists attempt 2's transfer, the payout is paid: one transfer, as the ledger says.
    const found = checkPayoutResponseSchema.parse(await (await m.check(payout!.id)).json());
    expect(found.outcome).toBe("paid");
    expect(fake.transfers).toHaveLength(1);
    await m.assertPaidOnce();
  });

  it("the scheduled settle answered late after a retry's attempt leaves the payout to the next check", async () => {
    const m = moves(s);
    const { fake, ctx } = s;
    fake.transferFault = () => "500";
    await m.startRun();
    await m.drain();
    fake.transferFault = null;
    const [payout] = await m.payouts();
    ctx.clock.advance(WINDOW_MS + 1_000);
    const slow = await m.withHeldList(() => m.scheduledSettle());
    expect(checkPayoutResponseSchema.parse(await (await m.check(payout!.id)).json()).outcome).toBe("owed_again");
    expect((await m.retry(payout!.id)).status).toBe(200);
    fake.transferFault = () => "500-after-create";
    await m.drain();
    fake.transferFault = null;
    slow.release();
    expect(await slow.done).toMatchObject({ owedAgain: 0 });
    expect((await m.payouts())[0]).toMatchObject({ status: "unknown" });
    ctx.clock.advance(WINDOW_MS + 1_000);
    await m.scheduledSettle();
    expect((await m.payouts())[0]).toMatchObject({ status: "paid" });
    await m.assertPaidOnce();
  });
});

type Step =
  | { op: "slowCheck" | "slowSettle" | "check" | "settle" | "retry" | "advance" }
  | { op: "release"; pick: number }
  /** The worker sends what is pending, Stripe answering each transfer request as said. */
  | { op: "send"; fault: FakeTransferFault | null };

const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.constantFrom<Step>({ op: "slowCheck" }, { op: "slowSettle" }, { op: "check" }, { op: "settle" }, { op: "retry" }), weight: 5 },
  { arbitrary: fc.constant<Step>({ op: "advance" }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant("release" as const), pick: fc.nat(3) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant("send" as const), fault: fc.constantFrom<FakeTransferFault | null>(null, "500", "500-after-create") }), weight: 2 },
);

/** The interleavings the issue reproduced, always among the runs: a late list after a second check, a retry made by Stripe and answered 500. */
const reproduced: Step[][] = [
  [{ op: "advance" }, { op: "slowCheck" }, { op: "check" }, { op: "retry" }, { op: "send", fault: "500-after-create" }, { op: "release", pick: 0 }],
  [{ op: "advance" }, { op: "slowSettle" }, { op: "check" }, { op: "retry" }, { op: "send", fault: "500-after-create" }, { op: "release", pick: 0 }],
];

describe.each(testDatabaseKinds)("interleavings of checks, scheduled settles, retries, slow lists and 500s (%s)", (kind) => {
  it("for every payout Stripe made at most one transfer, and what it sent equals the ledger", { timeout: 240_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 30 }), async (steps) => {
        const s = await setUp(kind, 2);
        const m = moves(s);
        const held: Array<{ release: () => void; done: Promise<unknown> }> = [];
        const open = async (status: string) => (await m.payouts()).filter((p) => p.status === status);
        try {
          s.fake.transferFault = () => "500";
          await m.startRun();
          await m.drain();
          s.fake.transferFault = null;
          for (const st of steps) {
            if (st.op === "advance") s.ctx.clock.advance(WINDOW_MS + 1_000);
            else if (st.op === "send") {
              const fault = st.fault;
              s.fake.transferFault = () => fault;
              await m.drain();
              s.fake.transferFault = null;
            } else if (st.op === "settle") await m.scheduledSettle();
            else if (st.op === "slowSettle") held.push(await m.withHeldList(() => m.scheduledSettle()));
            else if (st.op === "release") {
              const h = held.splice(st.pick % Math.max(1, held.length), 1)[0];
              h?.release();
              await h?.done;
            } else {
              const target = (await open(st.op === "retry" ? "failed" : "unknown"))[0];
              if (!target) continue;
              if (st.op === "retry") await m.retry(target.id);
              else if (st.op === "check") await m.check(target.id);
              else held.push(await m.withHeldList(() => m.check(target.id)));
            }
          }
          // The end: every late list answered, Stripe healthy, everything settled and retried.
          for (const h of held.splice(0)) {
            h.release();
            await h.done;
          }
          s.fake.transferFault = null;
          for (let i = 0; i < 4; i++) {
            s.ctx.clock.advance(WINDOW_MS + 1_000);
            await m.scheduledSettle();
            for (const p of await open("failed")) await m.retry(p.id);
            await m.drain();
          }
          await m.assertPaidOnce();
        } finally {
          for (const h of held) h.release();
          await Promise.allSettled(held.map((h) => h.done));
          await s.ctx.close();
          await s.fake.close();
        }
      }),
      { numRuns: kind === "sqlite" ? 25 : 8, examples: reproduced.map((steps) => [steps] as [Step[]]) },
    );
  });
});
