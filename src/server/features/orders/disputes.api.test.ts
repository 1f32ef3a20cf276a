import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { attentionResponseSchema } from "../../../contract/dashboard.ts";
import { orderDetailSchema, ordersResponseSchema } from "../../../contract/orders.ts";
import { compareRollups } from "../../domain/ledger/recompute.ts";
import type { Order } from "../../platform/db/schema.ts";
import { JobWorker } from "../../platform/jobs/job-worker.ts";
import { startFakeStripe } from "../../testing/fake-stripe-server.ts";
import { deliverStripe, stripeDispute, stripeEvent, TEST_STRIPE_WEBHOOK_SECRET, WEBHOOK_ENV } from "../../testing/provider-webhooks.ts";
import { type FixtureArtist, makeArtist, makePaidOrder } from "../../testing/refund-fixtures.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { incomingEventsJobs } from "../integrations/incoming-events.job.ts";

/**
 * Stripe disputes through the incoming Stripe webhook (docs/product.md §19.7) on both databases:
 * while open the artists' shares of the disputed order are held out of their balances (so out of
 * payouts), won releases exactly that, lost takes the disputed amount off through the refund path
 * and Stripe's fee off the artists when the setting says so; repeated and older events change
 * nothing; the attention inbox names the open disputes by evidence due date.
 */
describe.each(testDatabaseKinds)("disputes (%s)", (kind) => {
  let ctx: TestContext;
  let admin: { token: string };
  let ava: FixtureArtist;
  let ben: FixtureArtist;
  let lines: Order[];

  beforeEach(async () => {
    ctx = await createTestContext(kind, { now: "2026-11-25T12:00:00.000Z", env: { ...WEBHOOK_ENV, STRIPE_SECRET_KEY: "sk_test_51DisputesKeyAbcdefghijklmnop" } });
    admin = await ctx.createUser({ email: "disputes-admin@hki.global", role: "admin" });
    ava = await makeArtist(ctx.database.db, ctx.clock, "Ava Atelier");
    ben = await makeArtist(ctx.database.db, ctx.clock, "Ben Prints");
    lines = await makePaidOrder(ctx.database.db, ctx.clock, "ord_1", [
      { artist: ava, grossCents: 10_000 },
      { artist: ben, grossCents: 5_000 },
    ]);
  });
  afterEach(async () => {
    await ctx.close();
  });

  /** Delivers one state of dispute `id` as Stripe sends it, then runs the incoming events' jobs. */
  const send = async (type: "created" | "updated" | "closed", id: string, state: Omit<Parameters<typeof stripeDispute>[1], "charge" | "created">, at: string, eventId?: string) => {
    const event = stripeEvent(`charge.dispute.${type}`, stripeDispute(id, { charge: "ch_ord_1", paymentIntent: "pi_ord_1", created: "2026-11-20T09:00:00.000Z", ...state }), {
      created: at,
      ...(eventId ? { id: eventId } : {}),
    });
    const res = await deliverStripe(ctx, event);
    expect(res.status, await res.clone().text()).toBe(200);
    const worker = new JobWorker(ctx.database, ctx.clock, { retryBaseMs: 1_000 });
    incomingEventsJobs(worker, ctx.deps);
    while (await worker.runOnce()) {
      /* next job */
    }
  };
  const balance = async (v: FixtureArtist) => {
    const a = await ctx.database.db.selectFrom("payout_accounts").select(["balance_cents", "held_cents", "charged_cents"]).where("vendor_id", "=", v.vendorId).executeTakeFirstOrThrow();
    return { balance: Number(a.balance_cents), held: Number(a.held_cents), charged: Number(a.charged_cents) };
  };
  const attention = async () => attentionResponseSchema.parse(await (await ctx.request("/api/admin/dashboard/attention", { token: admin.token })).json()).items.find((i) => i.key === "disputes_open");

  it("while open the artists' whole shares are held out of their balances; won releases exactly that", async () => {
    await send("created", "dp_1", { amountCents: 15_000, status: "needs_response", evidenceDueBy: "2026-12-02T23:59:59.000Z" }, "2026-11-20T09:00:00.000Z");
    // 10,000 − 150 and 5,000 − 75 earned: all of it held.
    expect(await balance(ava)).toEqual({ balance: 0, held: 9_850, charged: 0 });
    expect(await balance(ben)).toEqual({ balance: 0, held: 4_925, charged: 0 });
    expect(await attention()).toMatchObject({ label: "1 dispute needs a response, first by Dec 2", count: 1, severity: "critical", href: `/orders?order=${[lines[0]!.id, lines[1]!.id].sort()[0]}` });
    const detail = orderDetailSchema.parse(await (await ctx.request(`/api/admin/orders/${lines[0]!.id}`, { token: admin.token })).json());
    expect(detail.disputes).toEqual([
      expect.objectContaining({
        id: "dp_1",
        outcome: "open",
        amount: 150,
        lineAmount: 100,
        heldForArtist: 98.5,
        evidenceDueBy: "2026-12-02T23:59:59.000Z",
        dashboardUrl: "https://dashboard.stripe.com/test/disputes/dp_1",
      }),
    ]);
    expect(detail.timeline.map((e) => e.kind)).toEqual(["placed", "dispute_opened"]);
    const disputed = async () =>
      ordersResponseSchema
        .parse(await (await ctx.request("/api/admin/orders?status=disputed", { token: admin.token })).json())
        .orders.map((o) => o.id)
        .sort();
    expect(await disputed()).toEqual([lines[0]!.id, lines[1]!.id].sort());

    await send("updated", "dp_1", { amountCents: 15_000, status: "under_review", evidenceDueBy: "2026-12-02T23:59:59.000Z" }, "2026-11-22T09:00:00.000Z");
    expect(await balance(ava)).toEqual({ balance: 0, held: 9_850, charged: 0 });
    await send("closed", "dp_1", { amountCents: 15_000, status: "won" }, "2026-11-24T09:00:00.000Z");
    expect(await balance(ava)).toEqual({ balance: 9_850, held: 0, charged: 0 });
    expect(await balance(ben)).toEqual({ balance: 4_925, held: 0, charged: 0 });
    expect(await attention()).toBeUndefined();
    expect(await disputed()).toEqual([]);
    // The same event again, or an older state arriving late (sent by the fake Stripe), changes nothing.
    const fake = await startFakeStripe();
    try {
      const late = stripeDispute("dp_1", { charge: "ch_ord_1", paymentIntent: "pi_ord_1", amountCents: 15_000, status: "needs_response", created: "2026-11-20T09:00:00.000Z" });
      const res = await fake.sendDisputeEvent(
        (body, headers) => ctx.request("/api/webhooks/stripe", { method: "POST", headers, body }),
        TEST_STRIPE_WEBHOOK_SECRET,
        "updated",
        late,
        "2026-11-21T09:00:00.000Z",
      );
      expect(res.status).toBe(200);
    } finally {
      await fake.close();
    }
    await send("closed", "dp_1", { amountCents: 15_000, status: "won" }, "2026-11-24T09:00:00.000Z");
    expect(await balance(ava)).toEqual({ balance: 9_850, held: 0, charged: 0 });
    expect(await compareRollups(ctx.database.db)).toEqual([]);
    const audits = await ctx.database.db.selectFrom("audit_log").select("action").where("target_type", "=", "dispute").orderBy("created_at").execute();
    expect(audits.map((a) => a.action)).toEqual(["dispute.open", "dispute.won"]);
  });

  it("lost: the disputed part comes off through the refund path (fee pro rata), and Stripe's fee off the artists when the setting says artist", async () => {
    await ctx.database.db.updateTable("platform_settings").set({ value: "artist" }).where("key", "=", "dispute_fee_paid_by").execute();
    await send("created", "dp_2", { amountCents: 6_000, status: "needs_response", evidenceDueBy: "2026-12-02T23:59:59.000Z" }, "2026-11-20T09:00:00.000Z");
    // 6,000 over 10,000 : 5,000 is 4,000 and 2,000; held: what each artist's earnings lose if it goes back.
    expect(await balance(ava)).toEqual({ balance: 9_850 - 3_940, held: 3_940, charged: 0 });
    expect(await balance(ben)).toEqual({ balance: 4_925 - 1_970, held: 1_970, charged: 0 });
    await send("closed", "dp_2", { amountCents: 6_000, status: "lost", feeCents: 1_500 }, "2026-12-05T09:00:00.000Z");
    // Released, taken off through the ledger (6,000 − 90 earned on ava's line now), and the $15 fee split as the amount: $10 and $5.
    expect(await balance(ava)).toEqual({ balance: 9_850 - 3_940 - 1_000, held: 0, charged: 1_000 });
    expect(await balance(ben)).toEqual({ balance: 4_925 - 1_970 - 500, held: 0, charged: 500 });
    const orders = await ctx.database.db.selectFrom("orders").select(["gross_cents", "fee_cents"]).orderBy("gross_cents", "desc").execute();
    expect(orders.map((o) => [Number(o.gross_cents), Number(o.fee_cents)])).toEqual([
      [6_000, 90],
      [3_000, 45],
    ]);
    const refunds = await ctx.database.db.selectFrom("order_refunds").select(["external_refund_id", "amount_cents"]).orderBy("amount_cents", "desc").execute();
    expect(refunds.map((r) => [r.external_refund_id, Number(r.amount_cents)])).toEqual([
      ["dp_2", 4_000],
      ["dp_2", 2_000],
    ]);
    // Closed again (a re-delivery under a new id): nothing moves twice.
    await send("closed", "dp_2", { amountCents: 6_000, status: "lost", feeCents: 1_500 }, "2026-12-05T09:00:00.000Z");
    expect(await balance(ava)).toEqual({ balance: 9_850 - 3_940 - 1_000, held: 0, charged: 1_000 });
    expect(await compareRollups(ctx.database.db)).toEqual([]);
  });

  it("lost with the platform paying the fee (the default): only the disputed part comes off; a dispute of an unknown charge is ignored", async () => {
    await send("created", "dp_3", { amountCents: 15_000, status: "needs_response" }, "2026-11-20T09:00:00.000Z");
    await send("closed", "dp_3", { amountCents: 15_000, status: "lost", feeCents: 1_500 }, "2026-11-30T09:00:00.000Z");
    expect(await balance(ava)).toEqual({ balance: 0, held: 0, charged: 0 });
    expect(await balance(ben)).toEqual({ balance: 0, held: 0, charged: 0 });
    expect((await ctx.database.db.selectFrom("disputes").select("fee_paid_by").executeTakeFirstOrThrow()).fee_paid_by).toBe("platform");
    const stranger = stripeEvent("charge.dispute.created", stripeDispute("dp_9", { charge: "ch_elsewhere", amountCents: 500, status: "needs_response", created: "2026-11-20T09:00:00.000Z" }), {
      created: "2026-11-20T09:00:00.000Z",
    });
    expect((await deliverStripe(ctx, stranger)).status).toBe(200);
    const worker = new JobWorker(ctx.database, ctx.clock, { retryBaseMs: 1_000 });
    incomingEventsJobs(worker, ctx.deps);
    while (await worker.runOnce()) {
      /* next job */
    }
    const stored = await ctx.database.db.selectFrom("incoming_events").select(["status", "outcome"]).where("event_id", "=", String(stranger.id)).executeTakeFirstOrThrow();
    expect(stored.status).toBe("ignored");
    expect(await compareRollups(ctx.database.db)).toEqual([]);
  });
});
