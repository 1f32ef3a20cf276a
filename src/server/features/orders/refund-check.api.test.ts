import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkRefundResponseSchema, createRefundResponseSchema, orderDetailSchema } from "../../../contract/orders.ts";
import { compareRollups } from "../../domain/ledger/recompute.ts";
import type { Order } from "../../platform/db/schema.ts";
import { type FakeStripeServer, startFakeStripe } from "../../testing/fake-stripe-server.ts";
import { type FixtureArtist, makeArtist, makePaidOrder } from "../../testing/refund-fixtures.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";

/**
 * 'Check with Stripe' on a refund whose outcome is not recorded (docs/product.md "Refunds from the
 * panel") over HTTP, on both databases, against the fake Stripe: the refund becomes what Stripe
 * lists (succeeded or failed), none past the window fails it and frees the amount, Stripe is never
 * asked to refund again, each check writes one audit row, and a refund already settled is a 409.
 */
const KEY = "sk_test_51RefundCheckWithStripeAbcdefghij";

describe.each(testDatabaseKinds)("'Check with Stripe' on a refund (%s)", (kind) => {
  let fake: FakeStripeServer;
  let ctx: TestContext;
  let admin: { token: string; email: string };
  let ava: FixtureArtist;
  let line: Order;

  beforeEach(async () => {
    fake = await startFakeStripe();
    ctx = await createTestContext(kind, { now: "2026-11-20T12:00:00.000Z", env: { STRIPE_SECRET_KEY: KEY, STRIPE_API_BASE: fake.url, PAYOUT_UNKNOWN_WINDOW_SECONDS: "300" } });
    fake.now = () => ctx.clock.now().getTime();
    admin = await ctx.createUser({ email: "check-admin@hki.global", role: "admin" });
    ava = await makeArtist(ctx.database.db, ctx.clock, "Ava Atelier");
    line = (await makePaidOrder(ctx.database.db, ctx.clock, "ord_c1", [{ artist: ava, grossCents: 10_000 }]))[0]!;
    fake.paymentIntents.set("pi_ord_c1", 10_000);
  });
  afterEach(async () => {
    await ctx.close();
    await fake.close();
  });

  const check = (refundId: string, token = admin.token) => ctx.request(`/api/admin/orders/refunds/${refundId}/check`, { method: "POST", token });
  const held = async () => Number((await ctx.database.db.selectFrom("orders").select("refund_reserved_cents").where("id", "=", line.id).executeTakeFirstOrThrow()).refund_reserved_cents);
  const ledgerRefunded = async () =>
    (await ctx.database.db.selectFrom("order_refunds").select("amount_cents").where("order_id", "=", line.id).execute()).reduce((s, r) => s + Number(r.amount_cents), 0);
  const checks = () => ctx.database.db.selectFrom("audit_log").select(["actor_email", "before_value", "after_value", "details"]).where("action", "=", "refund.check").execute();

  /** A refund of $30 whose outcome stays unknown: Stripe answers 500 (`made`: after making it), and its list fails for the settle at once. */
  async function anUnknownRefund(made: boolean): Promise<string> {
    let faults = 1;
    fake.refundFault = ({ replay }) => (!replay && faults-- > 0 ? (made ? "500-after-create" : "500") : null);
    fake.refundListFailNext = 1;
    const res = await ctx.request(`/api/admin/orders/${line.id}/refunds`, {
      method: "POST",
      token: admin.token,
      json: { lines: [{ orderId: line.id, amountCents: 3_000 }], reason: "Arrived broken" },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const { refund } = createRefundResponseSchema.parse(await res.json());
    expect(refund.status).toBe("unknown");
    expect(fake.refundCalls).toBe(1);
    return refund.id;
  }

  it("Stripe made the refund: the check records it as succeeded with Stripe's id, without asking for another; a second check is a 409", async () => {
    const id = await anUnknownRefund(true);
    const before = orderDetailSchema.parse(await (await ctx.request(`/api/admin/orders/${line.id}`, { token: admin.token })).json());
    expect(before.timeline.find((e) => e.kind === "refund_requested")).toMatchObject({ panelRefundId: id, amount: 30 });
    expect(before.panelRefunds).toMatchObject([{ id, status: "unknown", checkedAt: null }]);
    expect(await ledgerRefunded()).toBe(0);

    const res = await check(id);
    expect(res.status, await res.clone().text()).toBe(200);
    const answer = checkRefundResponseSchema.parse(await res.json());
    expect(answer.outcome).toBe("succeeded");
    expect(answer.refund).toMatchObject({ id, status: "succeeded", stripeRefundId: fake.refunds[0]!.id, amount: 30, lines: [{ orderId: line.id, amount: 30 }] });
    expect(answer.message).toContain(fake.refunds[0]!.id);
    expect(fake.refundCalls).toBe(1);
    expect(fake.refunds).toHaveLength(1);
    expect(fake.refundedOf("pi_ord_c1")).toBe(3_000);
    expect(await ledgerRefunded()).toBe(3_000);
    expect(await held()).toBe(0);
    expect(await checks()).toMatchObject([{ actor_email: admin.email }]);
    const row = (await checks())[0]!;
    expect([JSON.parse(row.before_value!), JSON.parse(row.after_value!)]).toEqual([{ status: "unknown" }, { status: "succeeded", stripeRefundId: fake.refunds[0]!.id }]);

    const again = await check(id);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: "refund_settled", message: expect.stringContaining("succeeded") });
    expect(await checks()).toHaveLength(1);
    expect(fake.refundCalls).toBe(1);
    expect(await ledgerRefunded()).toBe(3_000);
    expect(await compareRollups(ctx.database.db)).toEqual([]);
  });

  it("Stripe's refund failed: the check records it as failed with Stripe's reason and frees the amount held", async () => {
    fake.refundStatus = "failed";
    const id = await anUnknownRefund(true);
    expect(await held()).toBe(3_000);
    const answer = checkRefundResponseSchema.parse(await (await check(id)).json());
    expect(answer.outcome).toBe("failed");
    expect(answer.refund.status).toBe("failed");
    expect(answer.refund.failureReason).toContain(fake.refunds[0]!.id);
    expect(await held()).toBe(0);
    expect(await ledgerRefunded()).toBe(0);
    expect(fake.refundCalls).toBe(1);
    expect(await checks()).toHaveLength(1);
  });

  it("Stripe has no refund: within the window it stays unknown (the check noted), past it the check fails it and frees the amount; one audit row per check", async () => {
    const id = await anUnknownRefund(false);
    const first = checkRefundResponseSchema.parse(await (await check(id)).json());
    expect(first.outcome).toBe("unsettled");
    expect(first.refund).toMatchObject({ status: "unknown", checkedAt: "2026-11-20T12:00:00.000Z" });
    expect(first.message).toContain("no refund for this request yet");
    expect(await held()).toBe(3_000);

    ctx.clock.advance(301_000);
    const second = checkRefundResponseSchema.parse(await (await check(id)).json());
    expect(second.outcome).toBe("failed");
    expect(second.refund.status).toBe("failed");
    expect(second.message).toContain("nothing went back");
    expect(await held()).toBe(0);
    expect(fake.refundCalls).toBe(1);
    expect(fake.refunds).toHaveLength(0);
    expect((await checks()).map((c) => (JSON.parse(c.details) as { outcome: string }).outcome)).toEqual(["unsettled", "failed"]);
    // Freed: the line can be refunded again, by a new request (a new idempotency key).
    const detail = orderDetailSchema.parse(await (await ctx.request(`/api/admin/orders/${line.id}`, { token: admin.token })).json());
    expect(detail.refundable).toEqual([{ orderId: line.id, amount: 100 }]);
    expect(detail.timeline.find((e) => e.kind === "refund_failed")).toMatchObject({ panelRefundId: id });
  });

  it("Stripe cannot answer: 502 and nothing changes; an unknown refund id is a 404; finance may check, a viewer may not", async () => {
    const id = await anUnknownRefund(true);
    fake.refundListFailNext = 1;
    const down = await check(id);
    expect(down.status).toBe(502);
    expect(((await down.json()) as { error: { message: string } }).error.message).toContain("nothing changed");
    expect((await ctx.database.db.selectFrom("refunds").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status).toBe("unknown");
    expect(await checks()).toHaveLength(0);
    expect((await check("no-such-refund")).status).toBe(404);

    const viewer = await ctx.createUser({ email: "check-viewer@example.com", role: "viewer" });
    expect((await check(id, viewer.token)).status).toBe(403);
    const finance = await ctx.createUser({ email: "check-finance@example.com", role: "finance" });
    const res = await check(id, finance.token);
    expect(checkRefundResponseSchema.parse(await res.json()).outcome).toBe("succeeded");
    expect(await checks()).toMatchObject([{ actor_email: "check-finance@example.com" }]);
    expect(fake.refundCalls).toBe(1);
  });
});
