import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type BalancesResponse,
  balancesResponseSchema,
  financialOverviewResponseSchema,
  type PayoutRunResponse,
  payoutRunResponseSchema,
  payoutRunsResponseSchema,
  type PayoutsResponse,
  payoutsResponseSchema,
  type VendorPayoutsResponse,
  vendorPayoutsResponseSchema,
} from "../../../contract/financials.ts";
import { type Clock, fixedClock } from "../../platform/clock.ts";
import { JobWorker } from "../../platform/jobs/job-worker.ts";
import { placeOrder } from "../../domain/ledger/orders.ts";
import { createProduct } from "../../domain/ledger/products.ts";
import { compareRollups } from "../../domain/ledger/recompute.ts";
import { createVendor } from "../../domain/ledger/vendors.ts";
import { deleteVendorCascade } from "../../domain/ledger/vendors.ts";
import { type PayoutProvider, StripePayouts, type TransferRequest } from "../../platform/stripe/stripe-payouts.ts";
import { type FakeStripeServer, startFakeStripe } from "../../testing/fake-stripe-server.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { payoutJobs, type PayoutJobOptions } from "./payout-run.job.ts";

/**
 * Payouts end to end (docs/product.md §15) against the fake Stripe server, on both databases: the
 * API starts and follows runs, a JobWorker driven by hand (runOnce) sends the transfers.
 */
const KEY = "sk_test_51PayoutsTestKeyAbcdefghijklmnop";
const json = async <T>(res: Response) => (await res.json()) as T;

interface Artist {
  id: string;
  name: string;
  account: string | null;
  /** What the artist is owed, cents. */
  owedCents: number;
}

describe.each(testDatabaseKinds)("payouts on %s", (kind) => {
  let fake: FakeStripeServer;
  let ctx: TestContext;
  let admin: { token: string; email: string };
  let artists: Record<"ava" | "ben" | "cleo" | "dan" | "eve", Artist>;

  /** A worker as a server process runs it, against the fake Stripe, without real waiting. */
  /** `leaseClock`: the clock the worker's lease is held by (the test's clock unless said). */
  const worker = (options: PayoutJobOptions = {}, leaseClock: Clock = ctx.clock) => {
    const w = new JobWorker(ctx.database, leaseClock, { leaseMs: 30_000, retryBaseMs: 1_000 });
    payoutJobs(w, ctx.deps, { provider: new StripePayouts({ secretKey: KEY, apiBase: fake.url, timeoutMs: 400 }), maxRps: 1000, backoffBaseMs: 1, ...options });
    return w;
  };
  const drain = async (w: JobWorker) => {
    while (await w.runOnce()) {
      /* next job */
    }
  };

  beforeEach(async () => {
    fake = await startFakeStripe();
    ctx = await createTestContext(kind, { env: { STRIPE_SECRET_KEY: KEY, STRIPE_API_BASE: fake.url } });
    admin = await ctx.createUser({ email: "finance@hki.global", role: "admin" });
    const { db } = ctx.database;
    const make = async (name: string, status: "active" | "restricted" | "not_connected", orders: number[]): Promise<Artist> => {
      const slug = name.toLowerCase().replace(/\W+/g, "-");
      const account = status === "not_connected" ? null : `acct_${slug.replace(/-/g, "")}`;
      const v = await createVendor(db, { name, ownerName: name, email: `${slug}@example.com`, slug, joinedAt: "2026-09-01T00:00:00Z", payoutAccount: { stripeAccountId: account, status } }, ctx.clock);
      const p = await createProduct(db, { vendorId: v.id, name: `${name} print`, priceCents: 1000, createdAt: "2026-09-02T00:00:00Z" }, ctx.clock);
      let owed = 0;
      for (const [i, gross] of orders.entries()) {
        const o = await placeOrder(db, { vendorId: v.id, productId: p.id, quantity: 1, grossCents: gross, feeRateBasisPoints: 150, createdAt: `2026-11-0${i + 1}T10:00:00Z` }, ctx.clock);
        owed += o.gross_cents - o.fee_cents;
      }
      return { id: v.id, name, account, owedCents: owed };
    };
    artists = {
      ava: await make("Ava Atelier", "active", [10_000, 5_000]),
      ben: await make("Ben Prints", "active", [20_000]),
      cleo: await make("Cleo Ceramics", "restricted", [30_000]),
      dan: await make("Dan Drawings", "not_connected", [8_000]),
      // Owed less than the $25 minimum: not paid.
      eve: await make("Eve Etchings", "active", [2_000]),
    };
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
  const payoutsOf = async (query = "") => json<PayoutsResponse>(await get(`/api/admin/financial/payouts${query}`));
  const balances = async (query = "") => json<BalancesResponse>(await get(`/api/admin/financial/balances${query}`));
  const transfersTo = (a: Artist) => fake.transfers.filter((t) => t.destination === a.account);

  it("a dry run counts who would be paid and how much, and stores nothing", async () => {
    const res = await post("/api/admin/financial/payouts/runs", { dryRun: true });
    expect(res.status).toBe(201);
    const { run } = await json<PayoutRunResponse>(res);
    const paid = artists.ava.owedCents + artists.ben.owedCents;
    expect(run).toMatchObject({ id: "dry-run", dryRun: true, vendors: 2, total: paid / 100, skipped: 2, skippedTotal: (artists.cleo.owedCents + artists.dan.owedCents) / 100, minimum: 25 });
    expect(await ctx.database.db.selectFrom("payout_runs").select("id").execute()).toEqual([]);
    expect(await ctx.database.db.selectFrom("payouts").select("id").execute()).toEqual([]);
  });

  it("a run pays each eligible vendor once, skips accounts that are not active, and shows them", async () => {
    const run = await startRun();
    expect(run).toMatchObject({ status: "queued", dryRun: false, vendors: 2, skipped: 2, done: 0 });
    // One run at a time.
    const again = await post("/api/admin/financial/payouts/runs", {});
    expect(again.status).toBe(409);

    await drain(worker());
    const finished = await runOf(run.id);
    expect(finished).toMatchObject({ status: "completed", vendors: 2, done: 2, failed: 0, total: (artists.ava.owedCents + artists.ben.owedCents) / 100 });
    expect(transfersTo(artists.ava)).toHaveLength(1);
    expect(transfersTo(artists.ava)[0]).toMatchObject({ amount: artists.ava.owedCents, currency: "usd", transfer_group: run.id });
    expect(transfersTo(artists.ben)).toHaveLength(1);
    expect(fake.transfers).toHaveLength(2);
    expect(new Set(fake.transfers.map((t) => t.idempotencyKey)).size).toBe(2);

    const paid = await payoutsOf("?status=paid");
    expect(paid.total).toBe(2);
    expect(paid.payouts.map((p) => p.vendorName).sort()).toEqual(["Ava Atelier", "Ben Prints"]);
    expect(paid.payouts[0]!.stripeTransferId).toMatch(/^tr_fake/);

    // Balances: the paid are at zero; the restricted and unconnected still owed, shown with their status.
    const owed = await balances();
    expect(owed.balances.map((b) => [b.vendorName, b.accountStatus])).toEqual([
      ["Cleo Ceramics", "restricted"],
      ["Dan Drawings", "not_connected"],
      ["Eve Etchings", "active"],
    ]);
    expect(owed.total).toBe(3);
    expect(owed.totalOwed).toBe((artists.cleo.owedCents + artists.dan.owedCents + artists.eve.owedCents) / 100);
    expect((await balances("?accountStatus=restricted")).balances.map((b) => b.vendorName)).toEqual(["Cleo Ceramics"]);

    // A second run pays nobody twice.
    const second = await startRun();
    expect(second.vendors).toBe(0);
    await drain(worker());
    expect(fake.transfers).toHaveLength(2);
    expect(await compareRollups(ctx.database.db)).toEqual([]);

    const audit = await ctx.database.db.selectFrom("audit_log").select(["action", "actor_email", "target_id"]).where("action", "=", "payouts.run").execute();
    expect(audit).toEqual([
      { action: "payouts.run", actor_email: admin.email, target_id: run.id },
      { action: "payouts.run", actor_email: admin.email, target_id: second.id },
    ]);
  });

  it("a refused transfer fails with Stripe's message and a retry pays it once", async () => {
    fake.failDestinations.set(artists.ben.account!, "Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments");
    const run = await startRun();
    await drain(worker());
    expect(await runOf(run.id)).toMatchObject({ status: "completed", done: 1, failed: 1 });
    const [failed] = (await payoutsOf("?status=failed")).payouts;
    expect(failed).toMatchObject({ vendorName: "Ben Prints", failureReason: expect.stringContaining("capabilities enabled: transfers") });
    // The failed amount is owed again (and not paid by anyone meanwhile).
    expect((await balances()).balances.find((b) => b.vendorName === "Ben Prints")?.balance).toBe(artists.ben.owedCents / 100);

    fake.failDestinations.clear();
    const retry = await post(`/api/admin/financial/payouts/${failed!.id}/retry`);
    expect(retry.status).toBe(200);
    expect((await retry.json()) as unknown).toMatchObject({ payout: { id: failed!.id, status: "pending" } });
    expect((await post(`/api/admin/financial/payouts/${failed!.id}/retry`)).status).toBe(409);
    await drain(worker());
    expect((await payoutsOf(`?vendorId=${artists.ben.id}`)).payouts).toMatchObject([{ status: "paid", failureReason: null }]);
    expect(transfersTo(artists.ben)).toHaveLength(1);
    expect(await runOf(run.id)).toMatchObject({ done: 2, failed: 0 });
    expect(await compareRollups(ctx.database.db)).toEqual([]);
    const audit = await ctx.database.db.selectFrom("audit_log").select(["action", "target_id"]).where("action", "=", "payout.retry").execute();
    expect(audit).toEqual([{ action: "payout.retry", target_id: failed!.id }]);
  });

  it("rides out 429s and a timeout after Stripe made the transfer: still one transfer each", async () => {
    fake.rateLimitNext = 3;
    fake.timeoutAfterCreateNext = 1;
    const run = await startRun();
    await drain(worker({ maxRps: 1000, backoffBaseMs: 1 }));
    expect(await runOf(run.id)).toMatchObject({ status: "completed", done: 2, failed: 0 });
    expect(transfersTo(artists.ava)).toHaveLength(1);
    expect(transfersTo(artists.ben)).toHaveLength(1);
    expect(fake.transferCalls).toBeGreaterThanOrEqual(2 + 3 + 1);
  });

  it("timeouts on every call after Stripe made the transfers never fail the payouts: the end of the run finds the transfers and pays them", async () => {
    fake.timeoutAfterCreateNext = 10;
    const run = await startRun();
    await drain(worker({ maxCallsPerPayout: 2 }));
    // Stripe made the transfers; we only never heard back. Listing the run's transfers says so.
    expect(fake.transfers.length).toBe(2);
    expect((await payoutsOf("?status=failed")).total).toBe(0);
    expect(await runOf(run.id)).toMatchObject({ status: "completed", done: 2, failed: 0, unknown: 0 });
    expect(fake.requests.some((r) => r.method === "GET" && r.path.startsWith("/v1/transfers?"))).toBe(true);
    expect(fake.paidTo(artists.ava.account!)).toBe(artists.ava.owedCents);
    expect(await compareRollups(ctx.database.db)).toEqual([]);
  });

  it("cancel stops the rest: started transfers finish, the others go back into the balances", async () => {
    // Six more artists, paced at 4 calls a second, so the run is still sending when canceled.
    const { db } = ctx.database;
    for (let i = 0; i < 6; i++) {
      const v = await createVendor(
        db,
        { name: `Extra ${i}`, ownerName: "X", email: `x${i}@example.com`, slug: `extra-${i}`, payoutAccount: { stripeAccountId: `acct_extra${i}`, status: "active" } },
        ctx.clock,
      );
      const p = await createProduct(db, { vendorId: v.id, name: "Print", priceCents: 5000 }, ctx.clock);
      await placeOrder(db, { vendorId: v.id, productId: p.id, quantity: 1, feeRateBasisPoints: 150 }, ctx.clock);
    }
    const run = await startRun();
    expect(run.vendors).toBe(8);
    const w = worker({ maxRps: 4 });
    const working = w.runOnce();
    await expect.poll(async () => (await runOf(run.id)).done, { timeout: 5_000, interval: 50 }).toBeGreaterThanOrEqual(1);
    const res = await post(`/api/admin/financial/payouts/runs/${run.id}/cancel`);
    expect(res.status).toBe(200);
    await working;
    const ended = await runOf(run.id);
    expect(ended.status).toBe("canceled");
    expect(ended.canceled).toBeGreaterThan(0);
    expect(ended.done + ended.canceled + ended.failed).toBe(8);
    expect(fake.transfers).toHaveLength(ended.done);
    expect((await post(`/api/admin/financial/payouts/runs/${run.id}/cancel`)).status).toBe(409);
    // A new run may start and pays the canceled ones.
    const next = await startRun();
    expect(next.vendors).toBe(ended.canceled);
    await drain(worker());
    expect(fake.transfers).toHaveLength(8);
    expect(new Set(fake.transfers.map((t) => t.destination)).size).toBe(8);
    expect(await compareRollups(ctx.database.db)).toEqual([]);
    expect(await db.selectFrom("audit_log").select("action").where("action", "=", "payouts.run.cancel").execute()).toHaveLength(1);
  });

  it("a crash mid-run (a worker dies holding the lease) is resolved exactly once by another worker", async () => {
    const real = new StripePayouts({ secretKey: KEY, apiBase: fake.url, timeoutMs: 400 });
    let calls = 0;
    // The first worker makes one transfer, then "dies": its second transfer reaches Stripe but the
    // answer never comes back, and it never calls again (its payouts stay in processing).
    const dying: PayoutProvider = {
      retrieveAccount: (id) => real.retrieveAccount(id),
      listTransfers: (request) => real.listTransfers(request),
      createTransfer: async (request: TransferRequest) => {
        calls += 1;
        if (calls === 1) return real.createTransfer(request);
        if (calls === 2) await real.createTransfer(request);
        return new Promise(() => undefined);
      },
    };
    const run = await startRun();
    // A dead process renews nothing; this one is only stuck in memory, so its lease clock stays
    // where it died and the takeover waits for its last progress write (which locks the job's row).
    const doomed = worker({ provider: dying, maxRps: 1000 }, fixedClock(ctx.clock.now()));
    void doomed.runOnce();
    await expect.poll(() => fake.transfers.length, { timeout: 5_000, interval: 20 }).toBe(2);
    const reported = async () => (await ctx.database.db.selectFrom("jobs").select("progress").where("id", "=", run.id).executeTakeFirst())?.progress ?? null;
    await expect.poll(reported, { timeout: 5_000, interval: 20 }).not.toBeNull();
    expect(await runOf(run.id)).toMatchObject({ status: "running", done: 1 });
    const stuck = await payoutsOf("?status=processing");
    expect(stuck.total).toBe(1);

    const survivor = worker();
    expect(await survivor.runOnce()).toBe(false); // the lease still holds
    ctx.clock.advance(31_000);
    await drain(survivor);
    expect(await runOf(run.id)).toMatchObject({ status: "completed", done: 2, failed: 0 });
    expect(transfersTo(artists.ava)).toHaveLength(1);
    expect(transfersTo(artists.ben)).toHaveLength(1);
    expect((await payoutsOf("?status=processing")).total).toBe(0);
    expect((await balances()).balances.map((b) => b.vendorName)).not.toContain("Ava Atelier");
    expect(await compareRollups(ctx.database.db)).toEqual([]);
  });

  it("a vendor cannot be deleted while a payout to it is being sent", async () => {
    const run = await startRun();
    const ids = await ctx.database.db.selectFrom("payouts").select("id").execute();
    expect(ids).toEqual([]); // planning happens in the worker
    // Stripe holds the transfer until the test has looked; then it fails, so the run ends before the database closes.
    let answerTransfer!: (err: Error) => void;
    const transfer = new Promise<never>((_, reject) => (answerTransfer = reject));
    const w = worker({ provider: { retrieveAccount: () => Promise.reject(new Error("x")), listTransfers: () => Promise.reject(new Error("x")), createTransfer: () => transfer } });
    const running = w.runOnce();
    await expect.poll(async () => (await payoutsOf("?status=processing")).total, { timeout: 5_000, interval: 20 }).toBeGreaterThan(0);
    const [sending] = (await payoutsOf("?status=processing")).payouts;
    await expect(deleteVendorCascade(ctx.database.db, sending!.vendorId)).rejects.toMatchObject({ code: "invalid_state" });
    expect(run.status).toBe("queued");
    answerTransfer(new Error("Stripe is unreachable"));
    await running;
  });

  it("without STRIPE_SECRET_KEY a real run answers 422 and a dry run still works", async () => {
    const bare = await createTestContext(kind);
    try {
      const boss = await bare.createUser({ email: "boss@hki.global", role: "admin" });
      const res = await bare.request("/api/admin/financial/payouts/runs", { method: "POST", token: boss.token, json: {} });
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({ error: { code: "payment_provider_not_configured", message: "Payment provider not configured" } });
      const dry = await bare.request("/api/admin/financial/payouts/runs", { method: "POST", token: boss.token, json: { dryRun: true } });
      expect(dry.status).toBe(201);
    } finally {
      await bare.close();
    }
  });

  it("refreshes a payout account from Stripe and audits it", async () => {
    fake.accounts.set(artists.ava.account!, {
      id: artists.ava.account!,
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: true,
      requirements: { currently_due: ["external_account"], past_due: ["external_account"], disabled_reason: "requirements.past_due" },
    });
    const res = await post(`/api/admin/vendors/${artists.ava.id}/payout-account/refresh`);
    expect(res.status).toBe(200);
    const body = await json<VendorPayoutsResponse>(res);
    expect(body.account).toMatchObject({ status: "restricted", chargesEnabled: false, requirements: { pastDue: ["external_account"], disabledReason: "requirements.past_due" } });
    expect(body.money.balance).toBe(artists.ava.owedCents / 100);
    expect((await balances("?accountStatus=restricted")).balances.map((b) => b.vendorName)).toEqual(["Cleo Ceramics", "Ava Atelier"]);
    // Now restricted: the next run skips Ava.
    const dry = (await json<PayoutRunResponse>(await post("/api/admin/financial/payouts/runs", { dryRun: true }))).run;
    expect(dry.vendors).toBe(1);

    fake.accounts.set(artists.ava.account!, {
      id: artists.ava.account!,
      charges_enabled: true,
      payouts_enabled: true,
      details_submitted: true,
      requirements: { currently_due: [], past_due: [], disabled_reason: null },
    });
    expect((await json<VendorPayoutsResponse>(await post(`/api/admin/vendors/${artists.ava.id}/payout-account/refresh`))).account.status).toBe("active");
    // Refreshed again with nothing changed at Stripe: the check is recorded, with no before and after.
    expect((await json<VendorPayoutsResponse>(await post(`/api/admin/vendors/${artists.ava.id}/payout-account/refresh`))).account.status).toBe("active");

    expect((await post(`/api/admin/vendors/${artists.dan.id}/payout-account/refresh`)).status).toBe(409);
    expect((await post(`/api/admin/vendors/${artists.ben.id}/payout-account/refresh`)).status).toBe(502);
    expect((await post(`/api/admin/vendors/nope/payout-account/refresh`)).status).toBe(404);
    const audit = await ctx.database.db.selectFrom("audit_log").select(["action", "before_value", "after_value"]).where("action", "=", "payout_account.refresh").orderBy("created_at").execute();
    expect(audit).toHaveLength(3);
    expect(JSON.parse(audit[0]!.before_value!)).toMatchObject({ status: "active" });
    expect(JSON.parse(audit[0]!.after_value!)).toMatchObject({ status: "restricted" });
    expect(audit[2]).toMatchObject({ before_value: null, after_value: null });
    expect(await compareRollups(ctx.database.db)).toEqual([]);
  });

  it("lists payouts by keyset pages with filters, and runs newest first", async () => {
    for (let i = 0; i < 4; i++) {
      const v = await createVendor(
        ctx.database.db,
        { name: `Page ${i}`, ownerName: "P", email: `p${i}@example.com`, slug: `page-${i}`, payoutAccount: { stripeAccountId: `acct_page${i}`, status: "active" } },
        ctx.clock,
      );
      const p = await createProduct(ctx.database.db, { vendorId: v.id, name: "Print", priceCents: 5000 }, ctx.clock);
      await placeOrder(ctx.database.db, { vendorId: v.id, productId: p.id, quantity: 1, feeRateBasisPoints: 150 }, ctx.clock);
    }
    const run = await startRun();
    await drain(worker());
    const first = payoutsResponseSchema.parse(await payoutsOf("?limit=4"));
    expect(first.total).toBe(6);
    expect(first.payouts).toHaveLength(4);
    expect(first.nextCursor).not.toBeNull();
    const second = await payoutsOf(`?limit=4&cursor=${first.nextCursor}`);
    expect(second.payouts).toHaveLength(2);
    expect(second.nextCursor).toBeNull();
    expect(new Set([...first.payouts, ...second.payouts].map((p) => p.id)).size).toBe(6);
    expect((await payoutsOf(`?runId=${run.id}&status=paid`)).total).toBe(6);
    expect((await payoutsOf(`?vendorId=${artists.ava.id}`)).total).toBe(1);
    expect((await get("/api/admin/financial/payouts?cursor=garbage")).status).toBe(400);
    expect((await get("/api/admin/financial/payouts?status=lost")).status).toBe(400);
    const runs = payoutRunsResponseSchema.parse(await json(await get("/api/admin/financial/payouts/runs")));
    payoutRunResponseSchema.parse(await json(await get(`/api/admin/financial/payouts/runs/${run.id}`)));
    balancesResponseSchema.parse(await balances());
    expect(runs.runs.map((r) => r.id)).toEqual([run.id]);
    expect((await get("/api/admin/financial/payouts/runs/nope")).status).toBe(404);

    const vendor = vendorPayoutsResponseSchema.parse(await json(await get(`/api/admin/vendors/${artists.ava.id}/payout-account`)));
    expect(vendor.money).toMatchObject({ earned: artists.ava.owedCents / 100, paidOut: artists.ava.owedCents / 100, inFlight: 0, balance: 0 });
    expect(vendor.recentPayouts).toMatchObject([{ status: "paid", runId: run.id }]);

    // CSV export of the payouts with the screen's filter.
    const link = await json<{ url: string }>(await post("/api/admin/exports", { kind: "payouts", filters: { status: "paid" } }));
    const csv = (await (await ctx.request(link.url)).text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(csv[0]).toBe("Date,Artist,Amount,Currency,Status,Stripe transfer,Failure,Paid at,Run");
    expect(csv).toHaveLength(7);
    const balancesLink = await json<{ url: string }>(await post("/api/admin/exports", { kind: "balances", filters: {} }));
    const balancesCsv = (await (await ctx.request(balancesLink.url)).text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(balancesCsv[0]).toBe("Artist,Balance,Account status,Last payout");
    expect(balancesCsv[1]).toBe(`Cleo Ceramics,${artists.cleo.owedCents / 100},restricted,`);
  });

  it("answers the overview of every period in the contract's shape, paid payouts included", async () => {
    await startRun();
    await drain(worker());
    for (const period of ["7", "30", "90", "mtd", "ytd"]) {
      const res = await get(`/api/admin/financial/overview?period=${period}`);
      expect(res.status).toBe(200);
      const overview = financialOverviewResponseSchema.parse(await res.json());
      expect(overview.paidOut).toBe((artists.ava.owedCents + artists.ben.owedCents) / 100);
      // The fixture's orders (Nov 1–2, $750 gross) are older than the last 7 days (now is Nov 22).
      expect(overview.grossSales).toBe(period === "7" ? 0 : 750);
      expect(overview.outstandingBalance).toBe((artists.cleo.owedCents + artists.dan.owedCents + artists.eve.owedCents) / 100);
    }
    expect((await get("/api/admin/financial/overview")).status).toBe(200);
    const bad = await get("/api/admin/financial/overview?period=365");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { fields: { period: "must be 7, 30, 90, mtd or ytd" } } });
  });

  it("is admin-only", async () => {
    const user = await ctx.createUser({ email: "someone@example.com" });
    for (const path of ["/api/admin/financial/overview", "/api/admin/financial/payouts", "/api/admin/financial/balances", "/api/admin/financial/payouts/runs"]) {
      expect((await ctx.request(path)).status).toBe(401);
      expect((await ctx.request(path, { token: user.token })).status).toBe(403);
    }
    expect((await ctx.request("/api/admin/financial/payouts/runs", { method: "POST", token: user.token, json: {} })).status).toBe(403);
  });
});
