import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkPayoutResponseSchema, type PayoutRunResponse, type PayoutsResponse } from "../../../contract/financials.ts";
import { debugResponseSchema } from "../../../contract/system-debug.ts";
import { type Clock, fixedClock } from "../../platform/clock.ts";
import { JobWorker } from "../../platform/jobs/job-worker.ts";
import { placeOrder } from "../../domain/ledger/orders.ts";
import { createProduct } from "../../domain/ledger/products.ts";
import { compareRollups } from "../../domain/ledger/recompute.ts";
import { createVendor, deleteVendorCascade } from "../../domain/ledger/vendors.ts";
import { type PayoutProvider, StripePayouts } from "../../platform/stripe/stripe-payouts.ts";
import { type FakeStripeServer, startFakeStripe } from "../../testing/fake-stripe-server.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { PAYOUT_RECONCILE_JOB, PAYOUT_SETTLE_JOB, payoutJobs, type PayoutJobOptions } from "./payout-run.job.ts";

/**
 * Issue 18, finding 1: a payout whose outcome is unknown is never paid twice (docs/product.md
 * §15.3). Stripe keeps a request's answer under its idempotency key, a 500 included, so a transfer
 * that Stripe made but answered with a 5xx (or never answered) cannot be settled by replaying the
 * key. Before: the payout was failed after the retries, its amount went back into the balance and
 * the next run paid the artist again under a new key. Now it is `unknown`, stays in flight, and is
 * settled only by listing the run's transfers at Stripe. Also finding 9's concurrent cancels.
 */
const KEY = "sk_test_51UnknownOutcomesKeyAbcdefghijklmn";
const WINDOW_S = 300;
const json = async <T>(res: Response) => (await res.json()) as T;

interface Artist {
  id: string;
  name: string;
  account: string;
  owedCents: number;
}

describe.each(testDatabaseKinds)("payouts with unknown outcomes on %s", (kind) => {
  let fake: FakeStripeServer;
  let ctx: TestContext;
  let admin: { token: string; email: string };
  let ava: Artist;
  let ben: Artist;

  /** `leaseClock`: the clock the worker's lease is held by (the test's clock unless said). */
  const worker = (options: PayoutJobOptions = {}, leaseClock: Clock = ctx.clock) => {
    const w = new JobWorker(ctx.database, leaseClock, { leaseMs: 30_000, retryBaseMs: 1_000 });
    payoutJobs(w, ctx.deps, { provider: new StripePayouts({ secretKey: KEY, apiBase: fake.url, timeoutMs: 300 }), maxRps: 1000, backoffBaseMs: 1, maxCallsPerPayout: 3, ...options });
    return w;
  };
  const drain = async (w: JobWorker) => {
    while (await w.runOnce()) {
      /* next job */
    }
  };

  beforeEach(async () => {
    fake = await startFakeStripe();
    ctx = await createTestContext(kind, { env: { STRIPE_SECRET_KEY: KEY, STRIPE_API_BASE: fake.url, PAYOUT_UNKNOWN_WINDOW_SECONDS: String(WINDOW_S) } });
    fake.now = () => ctx.clock.now().getTime();
    admin = await ctx.createUser({ email: "finance@hki.global", role: "admin" });
    const { db } = ctx.database;
    const make = async (name: string, gross: number): Promise<Artist> => {
      const slug = name.toLowerCase().replace(/\W+/g, "-");
      const account = `acct_${slug.replace(/-/g, "")}`;
      const v = await createVendor(
        db,
        { name, ownerName: name, email: `${slug}@example.com`, slug, joinedAt: "2026-09-01T00:00:00Z", payoutAccount: { stripeAccountId: account, status: "active" } },
        ctx.clock,
      );
      const p = await createProduct(db, { vendorId: v.id, name: `${name} print`, priceCents: 1000, createdAt: "2026-09-02T00:00:00Z" }, ctx.clock);
      const o = await placeOrder(db, { vendorId: v.id, productId: p.id, quantity: 1, grossCents: gross, feeRateBasisPoints: 150, createdAt: "2026-11-01T10:00:00Z" }, ctx.clock);
      return { id: v.id, name, account, owedCents: o.gross_cents - o.fee_cents };
    };
    ava = await make("Ava Atelier", 10_000);
    ben = await make("Ben Prints", 20_000);
  });
  afterEach(async () => {
    await ctx.close();
    await fake.close();
  });

  const post = (path: string, body: unknown = {}) => ctx.request(path, { method: "POST", token: admin.token, json: body });
  const get = (path: string) => ctx.request(path, { token: admin.token });
  const startRun = async () => {
    const res = await post("/api/admin/financial/payouts/runs", {});
    expect(res.status).toBe(201);
    return (await json<PayoutRunResponse>(res)).run;
  };
  const runOf = async (id: string) => (await json<PayoutRunResponse>(await get(`/api/admin/financial/payouts/runs/${id}`))).run;
  const payoutOf = async (a: Artist) => (await json<PayoutsResponse>(await get(`/api/admin/financial/payouts?vendorId=${a.id}`))).payouts;
  const account = (a: Artist) => ctx.database.db.selectFrom("payout_accounts").selectAll().where("vendor_id", "=", a.id).executeTakeFirstOrThrow();
  const check = async (payoutId: string) => {
    const res = await post(`/api/admin/financial/payouts/${payoutId}/check`);
    expect(res.status, await res.clone().text()).toBe(200);
    return checkPayoutResponseSchema.parse(await res.json());
  };
  /** What the fake Stripe sent each account equals what the ledger records as paid out to it. */
  /**
   * Ava's first transfer request answers 500: with "500-after-create" the transfer is made and the
   * answer kept under its key (every replay answers 500); with "500" nothing is made. Aimed at Ava
   * whichever payout the worker sends first: the two go out concurrently.
   */
  const failAvasFirstTransfer = (fault: "500-after-create" | "500") => {
    let failed = false;
    fake.transferFault = ({ destination, replay }) => {
      if (destination !== ava.account || replay || failed) return null;
      failed = true;
      return fault;
    };
  };
  const ledgerMatchesStripe = async () => {
    for (const a of [ava, ben]) expect(fake.paidTo(a.account), a.name).toBe(Number((await account(a)).paid_out_cents));
    expect(await compareRollups(ctx.database.db)).toEqual([]);
  };

  for (const [how, arrange] of [
    ["answers 500 after making the transfer (kept under the key)", () => failAvasFirstTransfer("500-after-create")],
    ["times out on every call after making the transfer", () => void (fake.timeoutAfterCreateNext = 100)],
  ] as const) {
    it(`the finding: when Stripe ${how}, the next run does not pay the artist a second time`, async () => {
      arrange();
      await startRun();
      await drain(worker({ maxCallsPerPayout: 2 }));
      fake.timeoutAfterCreateNext = 0;
      // The next run (the old code planned Ava again: her amount was back in the balance).
      ctx.clock.advance(60_000);
      await startRun();
      await drain(worker({ maxCallsPerPayout: 2 }));
      expect(fake.transfers.filter((t) => t.destination === ava.account)).toHaveLength(1);
      expect(fake.transfers.filter((t) => t.destination === ben.account)).toHaveLength(1);
      await ledgerMatchesStripe();
    });
  }

  it("Stripe makes the transfer and answers 500 under the key: the payout is unknown, never owed again, the next run skips the artist, and the check finds the transfer", async () => {
    // Ava's first request: the transfer is made, the answer is a 500 kept under the key (every
    // replay answers 500). The list lags (Stripe lists it only later), so the end of the run cannot see it yet.
    failAvasFirstTransfer("500-after-create");
    fake.listLagMs = 60_000;
    const run = await startRun();
    await drain(worker());
    expect(fake.transfers.map((t) => t.destination).sort()).toEqual([ava.account, ben.account]);
    const [unknown] = await payoutOf(ava);
    expect(unknown).toMatchObject({ status: "unknown", failureReason: expect.stringContaining("Outcome unknown") });
    expect(unknown!.checkedAt).not.toBeNull();
    // The run says what is open instead of "completed".
    expect(await runOf(run.id)).toMatchObject({ status: "unresolved", done: 1, unknown: 1, failed: 0 });
    // Still in flight: not back in Ava's balance, so nothing can plan it again.
    expect(await account(ava)).toMatchObject({ balance_cents: 0, in_flight_cents: ava.owedCents, paid_out_cents: 0 });
    const retry = await post(`/api/admin/financial/payouts/${unknown!.id}/retry`);
    expect(retry.status).toBe(409);
    expect(await retry.json()).toMatchObject({ error: { message: expect.stringContaining("outcome is unknown") } });
    await expect(deleteVendorCascade(ctx.database.db, ava.id)).rejects.toMatchObject({ code: "invalid_state" });

    // More sales: Ava is owed again, but a new run leaves her out while the first payout is unknown.
    const p = await createProduct(ctx.database.db, { vendorId: ava.id, name: "Another print", priceCents: 5000 }, ctx.clock);
    await placeOrder(ctx.database.db, { vendorId: ava.id, productId: p.id, quantity: 1, feeRateBasisPoints: 150 }, ctx.clock);
    const dry = (await json<PayoutRunResponse>(await post("/api/admin/financial/payouts/runs", { dryRun: true }))).run;
    expect(dry).toMatchObject({ vendors: 0, held: 1 });
    const second = await startRun();
    expect(second.held).toBe(1);
    await drain(worker());
    expect(await runOf(second.id)).toMatchObject({ status: "completed", vendors: 0 });
    expect(fake.transfers).toHaveLength(2);

    // Within the window a list without the transfer does not make it owed again.
    const early = await check(unknown!.id);
    expect(early).toMatchObject({ outcome: "unknown", payout: { status: "unknown" } });
    expect(early.message).toContain("stays unknown");
    ctx.clock.advance((WINDOW_S + 1) * 1000);
    // ... and later, once Stripe lists it, the payout is paid with Stripe's transfer.
    fake.listLagMs = 0;
    const found = await check(unknown!.id);
    const made = fake.transfers.find((t) => t.destination === ava.account)!;
    expect(found).toMatchObject({ outcome: "paid", payout: { status: "paid", stripeTransferId: made.id, amount: ava.owedCents / 100 } });
    expect(await runOf(run.id)).toMatchObject({ status: "completed", done: 2, unknown: 0 });
    expect((await post(`/api/admin/financial/payouts/${unknown!.id}/check`)).status).toBe(409);
    await ledgerMatchesStripe();
    const audit = await ctx.database.db.selectFrom("audit_log").select(["action", "actor_email", "after_value"]).where("action", "=", "payout.check").orderBy("created_at").execute();
    expect(audit.map((a) => [a.action, a.actor_email, (JSON.parse(a.after_value!) as { status: string }).status])).toEqual([
      ["payout.check", admin.email, "unknown"],
      ["payout.check", admin.email, "paid"],
    ]);
  });

  it("every call times out after Stripe made the transfer: unknown, then the scheduled check pays it", async () => {
    fake.timeoutAfterCreateNext = 100;
    fake.listLagMs = 60_000;
    const run = await startRun();
    const w = worker({ maxCallsPerPayout: 2 });
    await drain(w);
    expect(fake.transfers).toHaveLength(2);
    expect(await runOf(run.id)).toMatchObject({ status: "unresolved", unknown: 2, done: 0, failed: 0 });
    expect((await json<PayoutsResponse>(await get("/api/admin/financial/payouts?status=unknown"))).total).toBe(2);
    // The next scheduled check (a new period) lists the transfers and pays both.
    fake.listLagMs = 0;
    fake.timeoutAfterCreateNext = 0;
    ctx.clock.advance(WINDOW_S * 1000);
    await w.enqueueDueSchedules();
    await drain(w);
    const settle = await ctx.database.db.selectFrom("jobs").select(["kind", "status"]).where("kind", "=", PAYOUT_SETTLE_JOB).execute();
    expect(settle).toEqual([{ kind: PAYOUT_SETTLE_JOB, status: "completed" }]);
    expect(await runOf(run.id)).toMatchObject({ status: "completed", unknown: 0, done: 2 });
    expect(fake.transfers).toHaveLength(2);
    await ledgerMatchesStripe();
    const settled = await ctx.database.db.selectFrom("audit_log").select(["action", "actor_email"]).where("action", "=", "payout.settle").execute();
    expect(settled).toEqual([
      { action: "payout.settle", actor_email: "system" },
      { action: "payout.settle", actor_email: "system" },
    ]);
  });

  it("Stripe answers 500 without making the transfer: unknown until the safe window has passed, then owed again, and a retry pays it once under a new key", async () => {
    failAvasFirstTransfer("500");
    const run = await startRun();
    await drain(worker());
    const [unknown] = await payoutOf(ava);
    expect(unknown?.status).toBe("unknown");
    expect(fake.transfers.map((t) => t.destination)).toEqual([ben.account]);
    // Stripe lists nothing, but the last attempt is recent: still unknown.
    expect(await check(unknown!.id)).toMatchObject({ outcome: "unknown" });
    expect(await account(ava)).toMatchObject({ balance_cents: 0, in_flight_cents: ava.owedCents });
    ctx.clock.advance((WINDOW_S + 1) * 1000);
    const absent = await check(unknown!.id);
    expect(absent).toMatchObject({ outcome: "owed_again", payout: { status: "failed", failureReason: expect.stringContaining("Stripe has no transfer") } });
    expect(await account(ava)).toMatchObject({ balance_cents: ava.owedCents, in_flight_cents: 0 });
    expect(await runOf(run.id)).toMatchObject({ status: "completed", done: 1, failed: 1, unknown: 0 });
    // The old key holds Stripe's 500: the retry asks under the next attempt's key.
    expect((await post(`/api/admin/financial/payouts/${unknown!.id}/retry`)).status).toBe(200);
    await drain(worker());
    expect((await payoutOf(ava))[0]).toMatchObject({ status: "paid" });
    const toAva = fake.transfers.filter((t) => t.destination === ava.account);
    expect(toAva).toHaveLength(1);
    expect(toAva[0]!.idempotencyKey).toBe(`payout_${unknown!.id}_2`);
    await ledgerMatchesStripe();
  });

  it("a worker dies after Stripe made the transfer, the next one only gets 429s: unknown, not owed again, and the transfer is found", async () => {
    const real = new StripePayouts({ secretKey: KEY, apiBase: fake.url, timeoutMs: 300 });
    let calls = 0;
    // The first worker's first call reaches Stripe (the transfer is made), then the process is gone.
    const dying: PayoutProvider = {
      retrieveAccount: (id) => real.retrieveAccount(id),
      listTransfers: (request) => real.listTransfers(request),
      createTransfer: async (request) => {
        calls += 1;
        if (calls === 1) await real.createTransfer(request);
        return new Promise(() => undefined);
      },
    };
    const run = await startRun();
    // A dead process renews nothing. This one is only stuck in memory: its lease clock stays at the
    // moment it died, so a progress report or heartbeat it still makes cannot keep its lease past
    // the takeover (it did, now and then, on a loaded machine).
    void worker({ provider: dying }, fixedClock(ctx.clock.now())).runOnce();
    await expect.poll(() => fake.transfers.length, { timeout: 5_000, interval: 20 }).toBe(1);
    // It is gone once it has reported launching both payouts: a takeover racing that last write
    // (its row locked for the update) would find nothing to claim.
    const reported = async () => (await ctx.database.db.selectFrom("jobs").select("progress").where("id", "=", run.id).executeTakeFirst())?.progress ?? null;
    await expect.poll(reported, { timeout: 5_000, interval: 20 }).not.toBeNull();
    const sent = fake.transfers[0]!;
    // The survivor takes the run over; Stripe rate-limits every one of its calls (2 payouts × 2 calls).
    ctx.clock.advance(31_000);
    fake.rateLimitNext = 4;
    fake.listLagMs = 60_000;
    await drain(worker({ maxCallsPerPayout: 2 }));
    const [resumed] = await payoutOf(sent.destination === ava.account ? ava : ben);
    // Before: failed after the 429s, its amount owed again, and the next run paid it a second time.
    expect(resumed).toMatchObject({ status: "unknown" });
    expect(await runOf(run.id)).toMatchObject({ status: "unresolved", unknown: 2 });
    fake.listLagMs = 0;
    expect(await check(resumed!.id)).toMatchObject({ outcome: "paid", payout: { stripeTransferId: sent.id } });
    // The other payout's first call never reached Stripe: confirmed absent after the window, paid by the next run.
    ctx.clock.advance((WINDOW_S + 1) * 1000);
    const other = (await payoutOf(sent.destination === ava.account ? ben : ava))[0]!;
    expect(await check(other.id)).toMatchObject({ outcome: "owed_again" });
    await startRun();
    await drain(worker());
    expect(fake.transfers.filter((t) => t.destination === ava.account)).toHaveLength(1);
    expect(fake.transfers.filter((t) => t.destination === ben.account)).toHaveLength(1);
    await ledgerMatchesStripe();
  });

  it("answers 404, 409 and 502 as the definition says, and nothing changes on a 502", async () => {
    expect((await post("/api/admin/financial/payouts/nope/check")).status).toBe(404);
    failAvasFirstTransfer("500-after-create");
    fake.listLagMs = 60_000;
    await startRun();
    await drain(worker());
    const [paid] = await payoutOf(ben);
    expect((await post(`/api/admin/financial/payouts/${paid!.id}/check`)).status).toBe(409);
    const [unknown] = await payoutOf(ava);
    fake.listFailNext = 1;
    const res = await post(`/api/admin/financial/payouts/${unknown!.id}/check`);
    expect(res.status).toBe(502);
    expect((await payoutOf(ava))[0]?.status).toBe("unknown");
    expect(await ctx.database.db.selectFrom("audit_log").select("id").where("action", "=", "payout.check").execute()).toEqual([]);
  });

  it("two cancels of one run at once: one 200, one 409, one audit row", async () => {
    const run = await startRun();
    const answers = await Promise.all([post(`/api/admin/financial/payouts/runs/${run.id}/cancel`), post(`/api/admin/financial/payouts/runs/${run.id}/cancel`)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const refused = answers.find((r) => r.status === 409)!;
    expect(await refused.json()).toMatchObject({ error: { message: "This payout run is already being canceled" } });
    expect(await ctx.database.db.selectFrom("audit_log").select("id").where("action", "=", "payouts.run.cancel").execute()).toHaveLength(1);
    await drain(worker());
    expect(await runOf(run.id)).toMatchObject({ status: "canceled" });
  });

  it("the daily reconciliation records a transfer the ledger does not know and an amount that differs, on System Debug and in the audit log", async () => {
    const run = await startRun();
    const w = worker();
    await drain(w);
    expect(await runOf(run.id)).toMatchObject({ status: "completed", done: 2 });
    const [avaPayout] = await payoutOf(ava);
    // A second transfer to Ava for the same payout (what paying twice looks like at Stripe), and
    // Ben's transfer made for another amount than the ledger records.
    const stray = await new StripePayouts({ secretKey: KEY, apiBase: fake.url }).createTransfer({
      amountCents: ava.owedCents,
      currency: "usd",
      destination: ava.account,
      transferGroup: run.id,
      idempotencyKey: "someone-else",
      metadata: { payout_id: avaPayout!.id },
    });
    expect(stray.kind).toBe("paid");
    const benTransfer = fake.transfers.find((t) => t.destination === ben.account)!;
    benTransfer.amount += 100;

    ctx.clock.advance(86_400_000);
    await w.enqueueDueSchedules();
    await drain(w);
    admin = await ctx.createUser({ email: "finance-next-day@hki.global", role: "admin" });
    const debug = debugResponseSchema.parse(await json(await get("/api/debug/admin")));
    expect(debug.stripeReconciliation.last).toMatchObject({ runs: 1, transfers: 3, payouts: 2, differences: 2, error: null });
    expect(debug.stripeReconciliation.openDifferences).toBe(2);
    const kinds = Object.fromEntries(debug.stripeReconciliation.differences.map((d) => [d.kind, d]));
    expect(kinds.unknown_transfer).toMatchObject({ destination: ava.account, stripeAmount: ava.owedCents / 100, vendorName: "Ava Atelier", detail: expect.stringContaining("paid twice") });
    expect(kinds.amount_differs).toMatchObject({ stripeTransferId: benTransfer.id, stripeAmount: (ben.owedCents + 100) / 100, ledgerAmount: ben.owedCents / 100 });
    const audit = async () => ctx.database.db.selectFrom("audit_log").select(["actor_email", "details"]).where("action", "=", "payouts.reconcile.difference").execute();
    expect((await audit()).map((a) => [a.actor_email, (JSON.parse(a.details) as { kind: string }).kind]).sort()).toEqual([
      ["system", "amount_differs"],
      ["system", "unknown_transfer"],
    ]);

    // The next day the same differences are seen again (no new audit rows); one fixed at Stripe's side closes.
    benTransfer.amount -= 100;
    ctx.clock.advance(86_400_000);
    await w.enqueueDueSchedules();
    await drain(w);
    admin = await ctx.createUser({ email: "finance-day-three@hki.global", role: "admin" });
    expect(await audit()).toHaveLength(2);
    const after = debugResponseSchema.parse(await json(await get("/api/debug/admin")));
    expect(after.stripeReconciliation.openDifferences).toBe(1);
    expect(after.stripeReconciliation.differences.map((d) => d.kind)).toEqual(["unknown_transfer"]);
    const jobs = await ctx.database.db.selectFrom("jobs").select("status").where("kind", "=", PAYOUT_RECONCILE_JOB).execute();
    expect(jobs.map((j) => j.status)).toEqual(["completed", "completed"]);
  });

  it("the daily reconciliation compares every transfer of its days whatever the run's age: a retry of an old run's payout paid twice is found", async () => {
    const run = await startRun();
    const w = worker();
    await drain(w);
    const [avaPayout] = await payoutOf(ava);
    expect(avaPayout?.status).toBe("paid");
    // Ten days later someone pays Ava again under the old run's group, and sends Ben money under no run at all.
    ctx.clock.advance(10 * 86_400_000);
    const stripe = new StripePayouts({ secretKey: KEY, apiBase: fake.url });
    const again = await stripe.createTransfer({
      amountCents: ava.owedCents,
      currency: "usd",
      destination: ava.account,
      transferGroup: run.id,
      idempotencyKey: "old-run-again",
      metadata: { payout_id: avaPayout!.id },
    });
    expect(again.kind).toBe("paid");
    ctx.clock.advance(86_400_000);
    await w.enqueueDueSchedules();
    await drain(w);
    admin = await ctx.createUser({ email: "finance-later@hki.global", role: "admin" });
    const debug = debugResponseSchema.parse(await json(await get("/api/debug/admin")));
    // The run is eleven days old (the comparison looked back at runs of the last three days only before).
    expect(debug.stripeReconciliation.last).toMatchObject({ runs: 1, transfers: 1, differences: 1, error: null });
    expect(debug.stripeReconciliation.differences).toEqual([
      expect.objectContaining({ kind: "unknown_transfer", destination: ava.account, detail: expect.stringContaining("paid twice"), stripeTransferId: (again as { transferId: string }).transferId }),
    ]);
  });

  it("refuses the check to a viewer", async () => {
    const viewer = await ctx.createUser({ email: "viewer@example.com", role: "viewer" });
    expect((await ctx.request("/api/admin/financial/payouts/any/check", { method: "POST", token: viewer.token })).status).toBe(403);
  });
});
