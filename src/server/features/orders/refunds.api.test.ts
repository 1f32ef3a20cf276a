import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRefundResponseSchema, orderDetailSchema } from "../../../contract/orders.ts";
import { addPendingPayouts, markPayoutPaid, markPayoutProcessing } from "../../domain/ledger/payouts.ts";
import { compareRollups } from "../../domain/ledger/recompute.ts";
import { placeOrder } from "../../domain/ledger/orders.ts";
import { RefundExceedsPaid, reserveRefund } from "../../domain/ledger/refunds.ts";
import type { Order } from "../../platform/db/schema.ts";
import { JobWorker } from "../../platform/jobs/job-worker.ts";
import { type FakeStripeServer, startFakeStripe } from "../../testing/fake-stripe-server.ts";
import { type FixtureArtist, makeArtist, makePaidOrder } from "../../testing/refund-fixtures.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { REFUND_SETTLE_JOB, refundJobs } from "./refunds.job.ts";

/**
 * Refunds from the panel over HTTP (docs/product.md "Refunds from the panel") on both databases:
 * part and whole refunds add up to what was paid and never more, at Stripe and in the ledger;
 * refunds asked at once cannot exceed it; a 500 after Stripe made the refund is settled by listing,
 * never by refunding again; a refund after a payout is netted from the next one.
 */
const KEY = "sk_test_51RefundsFromThePanelAbcdefghijkl";

describe.each(testDatabaseKinds)("refunds from the panel (%s)", (kind) => {
  let fake: FakeStripeServer;
  let ctx: TestContext;
  let admin: { token: string; email: string };
  let ava: FixtureArtist;
  let ben: FixtureArtist;
  let lines: Order[];

  beforeEach(async () => {
    fake = await startFakeStripe();
    ctx = await createTestContext(kind, { now: "2026-11-20T12:00:00.000Z", env: { STRIPE_SECRET_KEY: KEY, STRIPE_API_BASE: fake.url, PAYOUT_UNKNOWN_WINDOW_SECONDS: "300" } });
    fake.now = () => ctx.clock.now().getTime();
    admin = await ctx.createUser({ email: "refunds-admin@hki.global", role: "admin" });
    ava = await makeArtist(ctx.database.db, ctx.clock, "Ava Atelier");
    ben = await makeArtist(ctx.database.db, ctx.clock, "Ben Prints");
    lines = await makePaidOrder(ctx.database.db, ctx.clock, "ord_1", [
      { artist: ava, grossCents: 10_000 },
      { artist: ben, grossCents: 5_000 },
    ]);
    fake.paymentIntents.set("pi_ord_1", 15_000);
  });
  afterEach(async () => {
    await ctx.close();
    await fake.close();
  });

  const refund = (lineId: string, body: unknown) => ctx.request(`/api/admin/orders/${lineId}/refunds`, { method: "POST", token: admin.token, json: body });
  const detail = async (lineId: string) => orderDetailSchema.parse(await (await ctx.request(`/api/admin/orders/${lineId}`, { token: admin.token })).json());
  const order = async (id: string) => {
    const o = await ctx.database.db.selectFrom("orders").select(["status", "gross_cents", "fee_cents", "refund_reserved_cents"]).where("id", "=", id).executeTakeFirstOrThrow();
    return { status: o.status, gross: Number(o.gross_cents), fee: Number(o.fee_cents), reserved: Number(o.refund_reserved_cents) };
  };
  const balance = async (vendorId: string) =>
    Number((await ctx.database.db.selectFrom("payout_accounts").select("balance_cents").where("vendor_id", "=", vendorId).executeTakeFirstOrThrow()).balance_cents);
  const ledgerRefunded = async () =>
    (await ctx.database.db.selectFrom("order_refunds").select("amount_cents").where("panel_refund_id", "is not", null).execute()).reduce((s, r) => s + Number(r.amount_cents), 0);

  it("a part refund of one line, then the rest of the order: they add up to what was paid, the fee pro rata, and nothing more can be refunded", async () => {
    const res = await refund(lines[0]!.id, { lines: [{ orderId: lines[0]!.id, amountCents: 2_500 }], reason: "Arrived broken: the buyer sent a photo" });
    expect(res.status, await res.clone().text()).toBe(201);
    const first = createRefundResponseSchema.parse(await res.json());
    expect(first.refund).toMatchObject({ status: "succeeded", amount: 25, reason: "Arrived broken: the buyer sent a photo", createdByEmail: admin.email });
    expect(fake.refunds).toHaveLength(1);
    expect(fake.refunds[0]).toMatchObject({ amount: 2_500, payment_intent: "pi_ord_1", idempotencyKey: first.refund.id, metadata: { refund_id: first.refund.id, order_id: "ord_1" } });
    expect(first.refund.stripeRefundId).toBe(fake.refunds[0]!.id);
    // The fee is the rate on what stays paid (7,500 × 1.5 % = 112.5 → 113): 150 − 113 = 37 of it went back with the refund.
    expect(await order(lines[0]!.id)).toEqual({ status: "paid", gross: 7_500, fee: 113, reserved: 0 });
    expect(await balance(ava.vendorId)).toBe(7_500 - 113);
    const shown = await detail(lines[0]!.id);
    expect(shown.amounts).toMatchObject({ charged: 100, refunded: 25, platformFee: 1.13, artistNet: 73.87 });
    expect(shown.timeline.find((e) => e.kind === "refunded")).toMatchObject({
      amount: 25,
      refundId: fake.refunds[0]!.id,
      reason: "Arrived broken: the buyer sent a photo",
      by: admin.email,
      nettedFromNextPayout: false,
    });
    expect(shown.refundable).toEqual([
      { orderId: lines[0]!.id, amount: 75 },
      { orderId: lines[1]!.id, amount: 50 },
    ]);

    const whole = await refund(lines[1]!.id, { reason: "The buyer cancelled the whole order" });
    expect(whole.status, await whole.clone().text()).toBe(201);
    expect(createRefundResponseSchema.parse(await whole.json()).refund).toMatchObject({ status: "succeeded", amount: 125 });
    expect(fake.refundedOf("pi_ord_1")).toBe(15_000);
    expect(await ledgerRefunded()).toBe(15_000);
    expect(await order(lines[0]!.id)).toEqual({ status: "refunded", gross: 0, fee: 0, reserved: 0 });
    expect(await order(lines[1]!.id)).toEqual({ status: "refunded", gross: 0, fee: 0, reserved: 0 });
    expect(await balance(ava.vendorId)).toBe(0);
    expect(await balance(ben.vendorId)).toBe(0);

    const again = await refund(lines[0]!.id, { reason: "Once more" });
    expect(again.status).toBe(409);
    expect(fake.refundCalls).toBe(2);
    expect(await compareRollups(ctx.database.db)).toEqual([]);
    const events = await ctx.database.db.selectFrom("webhook_events").select("body").where("type", "=", "order.refunded").execute();
    expect(events.map((e) => (JSON.parse(e.body) as { data: { amountCents: number } }).data.amountCents).sort()).toEqual([12_500, 2_500]);
    const audits = await ctx.database.db.selectFrom("audit_log").select(["action", "actor_email"]).where("action", "=", "order.refund").execute();
    expect(audits).toEqual([
      { action: "order.refund", actor_email: admin.email },
      { action: "order.refund", actor_email: admin.email },
    ]);
  });

  it("a line asked for more than it has left is a 409 naming the field, and nothing is asked of Stripe; a reason is required", async () => {
    const over = await refund(lines[0]!.id, { lines: [{ orderId: lines[0]!.id, amountCents: 10_001 }], reason: "Too much" });
    expect(over.status).toBe(409);
    expect(((await over.json()) as { error: { fields: Record<string, string> } }).error.fields).toEqual({ "lines.0.amountCents": "exceeds the $100.00 left to refund" });
    const noReason = await refund(lines[0]!.id, { lines: [{ orderId: lines[0]!.id }], reason: "  " });
    expect(noReason.status).toBe(400);
    const stranger = await refund(lines[0]!.id, { lines: [{ orderId: "not-a-line" }], reason: "Wrong line" });
    expect(stranger.status).toBe(400);
    expect(fake.refundCalls).toBe(0);
    expect(await order(lines[0]!.id)).toEqual({ status: "paid", gross: 10_000, fee: 150, reserved: 0 });
  });

  it("refunds of one line asked at once never add up to more than was paid", async () => {
    // Stripe's own check is off for this payment: the panel's reservation alone must hold.
    fake.paymentIntents.delete("pi_ord_1");
    fake.latencyMs = 20;
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => refund(lines[0]!.id, { lines: [{ orderId: lines[0]!.id, amountCents: 4_000 }], reason: `Ask ${i}` })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 201, 409, 409, 409, 409]);
    expect(fake.refundedOf("pi_ord_1")).toBe(8_000);
    expect(await ledgerRefunded()).toBe(8_000);
    expect(await order(lines[0]!.id)).toMatchObject({ gross: 2_000, reserved: 0 });

    // The guard is the conditional write itself: reservations that all read 2,000 left before any wrote.
    const at = ctx.clock.now().toISOString();
    const asks = await Promise.allSettled(
      Array.from({ length: 4 }, (_, i) =>
        reserveRefund(ctx.database.db, {
          id: `r-${i}`,
          paymentIntentId: "pi_ord_1",
          externalOrderId: "ord_1",
          reason: "At once",
          createdBy: null,
          createdByEmail: admin.email,
          createdAt: at,
          lines: [{ orderId: lines[0]!.id, amountCents: 900 }],
        }),
      ),
    );
    expect(asks.filter((a) => a.status === "fulfilled")).toHaveLength(2);
    expect(asks.filter((a) => a.status === "rejected").map((a) => (a as PromiseRejectedResult).reason)).toEqual([expect.any(RefundExceedsPaid), expect.any(RefundExceedsPaid)]);
    expect(await order(lines[0]!.id)).toMatchObject({ gross: 2_000, reserved: 1_800 });
    expect(await ctx.database.db.selectFrom("refunds").select("id").where("id", "like", "r-%").execute()).toHaveLength(2);
  });

  it("a 500 after Stripe made the refund is settled at once by listing the payment's refunds: one refund, recorded once", async () => {
    let faults = 1;
    fake.refundFault = ({ replay }) => (!replay && faults-- > 0 ? "500-after-create" : null);
    const res = await refund(lines[0]!.id, { lines: [{ orderId: lines[0]!.id }], reason: "Damaged in transit" });
    expect(res.status).toBe(201);
    const body = createRefundResponseSchema.parse(await res.json());
    expect(body.refund.status).toBe("succeeded");
    expect(body.message).toContain("lists the refund");
    expect(fake.refundCalls).toBe(1);
    expect(fake.refunds).toHaveLength(1);
    expect(await ledgerRefunded()).toBe(10_000);
    expect(await order(lines[0]!.id)).toEqual({ status: "refunded", gross: 0, fee: 0, reserved: 0 });
  });

  it("a 500 without a refund stays unknown with the amount held; past the window the scheduled settle finds none, fails it and frees the amount", async () => {
    fake.refundFault = () => "500";
    const res = await refund(lines[0]!.id, { lines: [{ orderId: lines[0]!.id, amountCents: 3_000 }], reason: "Wrong size" });
    const body = createRefundResponseSchema.parse(await res.json());
    expect(body.refund.status).toBe("unknown");
    expect(await order(lines[0]!.id)).toMatchObject({ gross: 10_000, reserved: 3_000 });
    expect((await detail(lines[0]!.id)).timeline.map((e) => e.kind)).toEqual(["placed", "refund_requested"]);
    const worker = new JobWorker(ctx.database, ctx.clock, { leaseMs: 30_000, retryBaseMs: 1_000 });
    refundJobs(worker, ctx.deps);
    await ctx.deps.jobs.enqueue(REFUND_SETTLE_JOB, {});
    while (await worker.runOnce()) {
      /* within the window: still unknown */
    }
    expect((await ctx.database.db.selectFrom("refunds").select("status").executeTakeFirstOrThrow()).status).toBe("unknown");
    ctx.clock.advance(301_000);
    await ctx.deps.jobs.enqueue(REFUND_SETTLE_JOB, {});
    while (await worker.runOnce()) {
      /* past the window: Stripe has none */
    }
    expect((await ctx.database.db.selectFrom("refunds").select("status").executeTakeFirstOrThrow()).status).toBe("failed");
    expect(await order(lines[0]!.id)).toMatchObject({ gross: 10_000, reserved: 0 });
    expect(fake.refundCalls).toBe(1);
    expect(fake.refunds).toHaveLength(0);
    expect((await detail(lines[0]!.id)).timeline.map((e) => e.kind)).toEqual(["placed", "refund_failed"]);
    const settled = await ctx.database.db.selectFrom("audit_log").select(["action", "actor_email"]).where("action", "=", "refund.settle").execute();
    expect(settled).toHaveLength(1);
  });

  it("a refund after the artist was paid for the line comes off their next payout, shown as netted", async () => {
    const now = ctx.clock.now().toISOString();
    const run = await ctx.database.db
      .insertInto("payout_runs")
      .values({ id: "run-1", status: "running", active: null, minimum_cents: 0, plan_cursor: null, error: null, created_by: null, created_at: now, started_at: now, finished_at: null })
      .returning("id")
      .executeTakeFirstOrThrow();
    const owed = await balance(ava.vendorId);
    await addPendingPayouts(ctx.database.db, run.id, [{ id: "po-ava", vendorId: ava.vendorId, vendorName: "Ava Atelier", destination: ava.account, amountCents: owed }], now);
    await markPayoutProcessing(ctx.database.db, "po-ava", now);
    await markPayoutPaid(ctx.database.db, "po-ava", "tr_ava", now);
    expect(await balance(ava.vendorId)).toBe(0);

    const res = await refund(lines[0]!.id, { lines: [{ orderId: lines[0]!.id, amountCents: 4_000 }], reason: "Print faded" });
    expect(createRefundResponseSchema.parse(await res.json()).refund.status).toBe("succeeded");
    // 10,000 − 150 was paid; 6,000 − 90 is earned now: the 3,940 difference is owed back, netted from the next payout.
    expect(await balance(ava.vendorId)).toBe(-3_940);
    const shown = await detail(lines[0]!.id);
    expect(shown.carriedBy).toMatchObject({ payoutId: "po-ava", transferId: "tr_ava", status: "paid" });
    expect(shown.timeline.find((e) => e.kind === "refunded")).toMatchObject({ amount: 40, nettedFromNextPayout: true });
    const event = await ctx.database.db.selectFrom("webhook_events").select("body").where("type", "=", "order.refunded").executeTakeFirstOrThrow();
    expect((JSON.parse(event.body) as { data: { lines: Array<{ nettedFromNextPayout: boolean; artistId: string }> } }).data.lines).toMatchObject([
      { nettedFromNextPayout: true, artistId: "art_ava-atelier" },
    ]);

    // The next sale first pays back what is owed: the next payout is the sale's net less the 3,940.
    await placeOrder(ctx.database.db, { vendorId: ava.vendorId, productId: ava.productId, quantity: 1, grossCents: 20_000, feeRateBasisPoints: 150 }, ctx.clock);
    expect(await balance(ava.vendorId)).toBe(20_000 - 300 - 3_940);
    expect(await compareRollups(ctx.database.db)).toEqual([]);
  });
});
