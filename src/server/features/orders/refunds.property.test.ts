import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareRollups } from "../../domain/ledger/recompute.ts";
import { reserveRefund } from "../../domain/ledger/refunds.ts";
import { newId } from "../../platform/db/ids.ts";
import type { Actor } from "../../platform/identity/actor.ts";
import { StripeRefunds } from "../../platform/stripe/stripe-refunds.ts";
import { type FakeRefundFault, type FakeStripeServer, startFakeStripe } from "../../testing/fake-stripe-server.ts";
import { type FixtureArtist, makeArtist, makePaidOrder } from "../../testing/refund-fixtures.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { settleRefunds } from "./refund-settle.ts";
import { RefundsService } from "./refunds.service.ts";

/**
 * An unknown refund outcome is settled and never refunded twice (docs/reliability.md "Refunds and
 * disputes"): random asks of whole orders and lines, each meeting a random fault at Stripe (a 500
 * with or without the refund made, an answer that never comes with or without it, a refusal) or a
 * crash of the panel right after Stripe was asked (nothing recorded). Once the scheduled settle has
 * run past the window, for every payment intent the fake Stripe's refunds equal the ledger's, no
 * refund id was refunded twice, nothing is held, and no line gave back more than was paid.
 */
const KEY = "sk_test_51RefundPropertyAbcdefghijklmnopq";
const WINDOW_MS = 300_000;
const FAULTS = [null, null, "500", "500-after-create", "timeout-after-create", "hang", "refuse"] as const;

interface Ask {
  /** Which lines (by index, wrapped); empty: the whole order. */
  lines: number[];
  /** Share of what a line has left, in tenths (10: all of it). */
  tenths: number;
  fault: FakeRefundFault | null;
  /** The panel dies right after asking Stripe: nothing of the answer is recorded. */
  crash: boolean;
}

const askArb: fc.Arbitrary<Ask> = fc.record({
  lines: fc.array(fc.nat(2), { maxLength: 2 }),
  tenths: fc.integer({ min: 1, max: 10 }),
  fault: fc.constantFrom(...FAULTS),
  crash: fc.boolean(),
});

describe.each(testDatabaseKinds)("refunds under faults and crashes (%s)", (kind) => {
  let fake: FakeStripeServer;
  let ctx: TestContext;
  let artists: FixtureArtist[];
  let actor: Actor;
  let provider: StripeRefunds;
  let service: RefundsService;
  let n = 0;

  beforeAll(async () => {
    fake = await startFakeStripe();
    ctx = await createTestContext(kind, { now: "2026-11-20T12:00:00.000Z", env: { STRIPE_SECRET_KEY: KEY, STRIPE_API_BASE: fake.url, PAYOUT_UNKNOWN_WINDOW_SECONDS: String(WINDOW_MS / 1000) } });
    fake.now = () => ctx.clock.now().getTime();
    const admin = await ctx.createUser({ email: "property-admin@hki.global", role: "admin" });
    actor = { user: { id: admin.id, email: admin.email, name: null, role: "admin", isAdmin: true }, clientIp: "127.0.0.1", userAgent: null, requestId: "property" };
    artists = [];
    for (const name of ["Ava Atelier", "Ben Prints", "Cleo Clay"]) artists.push(await makeArtist(ctx.database.db, ctx.clock, name));
    provider = new StripeRefunds({ secretKey: KEY, apiBase: fake.url, timeoutMs: 150 });
    service = new RefundsService(ctx.deps, provider);
  });
  afterAll(async () => {
    await ctx.close();
    await fake.close();
  });

  it("for every payment intent, Stripe's refunds equal the ledger's; none twice; never more than paid", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 500, max: 20_000 }), { minLength: 1, maxLength: 3 }), fc.array(askArb, { minLength: 1, maxLength: 5 }), async (grosses, asks) => {
        const orderId = `ord_p${++n}`;
        const pi = `pi_${orderId}`;
        const lines = await makePaidOrder(
          ctx.database.db,
          ctx.clock,
          orderId,
          grosses.map((g, i) => ({ artist: artists[i % artists.length]!, grossCents: g })),
        );
        const charged = grosses.reduce((s, g) => s + g, 0);
        fake.paymentIntents.set(pi, charged);
        for (const ask of asks) {
          const left = new Map(
            (await ctx.database.db.selectFrom("orders").select(["id", "gross_cents", "refund_reserved_cents", "status"]).where("external_order_id", "=", orderId).execute()).map((r) => [
              r.id,
              r.status === "paid" ? Number(r.gross_cents) - Number(r.refund_reserved_cents) : 0,
            ]),
          );
          const chosen = [...new Set(ask.lines.map((i) => lines[i % lines.length]!.id))].filter((id) => (left.get(id) ?? 0) > 0);
          const asked = chosen.map((id) => ({ orderId: id, amountCents: Math.max(1, Math.floor(((left.get(id) ?? 0) * ask.tenths) / 10)) }));
          let faultUsed = false;
          fake.refundFault = ({ replay }) => (!replay && !faultUsed ? ((faultUsed = true), ask.fault) : null);
          if (ask.crash) {
            if (asked.length === 0) continue;
            // Reserved and asked, then the process is gone: no answer recorded.
            const id = newId();
            await reserveRefund(ctx.database.db, {
              id,
              paymentIntentId: pi,
              externalOrderId: orderId,
              reason: "crash",
              createdBy: null,
              createdByEmail: actor.user.email,
              createdAt: ctx.clock.now().toISOString(),
              lines: asked,
            });
            await provider.createRefund({ paymentIntentId: pi, amountCents: asked.reduce((s, l) => s + l.amountCents, 0), refundId: id, metadata: {} });
          } else {
            await service.create(actor, lines[0]!.id, { ...(asked.length > 0 ? { lines: asked } : {}), reason: "property" }).catch((err: unknown) => {
              // Nothing left to refund (whole order asked twice) or too much: refused before Stripe.
              if (!(err instanceof Error && "status" in err && (err as { status: number }).status === 409)) throw err;
            });
          }
          ctx.clock.advance(1_000);
        }
        fake.refundFault = null;
        ctx.clock.advance(WINDOW_MS + 1_000);
        await settleRefunds(ctx.deps, provider, { windowMs: WINDOW_MS });

        const lineIds = lines.map((l) => l.id);
        const ledger = await ctx.database.db.selectFrom("order_refunds").select(["amount_cents", "external_refund_id"]).where("order_id", "in", lineIds).execute();
        expect(ledger.reduce((s, r) => s + Number(r.amount_cents), 0)).toBe(fake.refundedOf(pi));
        expect(fake.refundedOf(pi)).toBeLessThanOrEqual(charged);
        const ids = fake.refunds.filter((r) => r.payment_intent === pi).map((r) => r.metadata.refund_id);
        expect(new Set(ids).size).toBe(ids.length);
        const open = await ctx.database.db.selectFrom("refunds").select("id").where("payment_intent_id", "=", pi).where("status", "in", ["pending", "unknown"]).execute();
        expect(open).toEqual([]);
        const held = await ctx.database.db.selectFrom("orders").select("refund_reserved_cents").where("id", "in", lineIds).execute();
        expect(held.map((h) => Number(h.refund_reserved_cents))).toEqual(lineIds.map(() => 0));
        const succeeded = await ctx.database.db.selectFrom("refunds").select(["id", "stripe_refund_id"]).where("payment_intent_id", "=", pi).where("status", "=", "succeeded").execute();
        for (const r of succeeded) expect(fake.refunds.find((f) => f.metadata.refund_id === r.id)?.id).toBe(r.stripe_refund_id);
      }),
      { numRuns: 12 },
    );
    expect(await compareRollups(ctx.database.db)).toEqual([]);
  }, 120_000);
});
