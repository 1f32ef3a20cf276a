import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ingestEventsResponseSchema, type EventResult } from "../../../contract/integrations-events.ts";
import { compareRollups } from "../../domain/ledger/recompute.ts";
import { databaseChecksum } from "../../testing/db-checksum.ts";
import type { StorefrontEvent } from "../../testing/storefront-events.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";

/**
 * A storefront's history (sign-ups, listings, edits, orders over several artists, partial and full
 * refunds, subscriptions, visits, errors, deletions), valid when sent in order, delivered shuffled,
 * duplicated and in random batches, each batch's unknown_* refusals sent again afterwards as a
 * sender would. Whatever the order: every rollup equals a recompute from the raw rows, and sending
 * the whole stream once more changes nothing.
 */
const T0 = Date.parse("2026-11-20T00:00:00.000Z");
const at = (step: number) => new Date(T0 + step * 60_000).toISOString();

type Step =
  | { kind: "artist"; a: number; rename: number }
  | { kind: "product"; p: number; a: number; status: number; price: number }
  | { kind: "order"; lines: Array<{ p: number; quantity: number; price: number }> }
  | { kind: "refund"; o: number; share: number; byLine: boolean }
  | { kind: "subscription"; a: number; s: number; amount: number; yearly: boolean }
  | { kind: "visits"; a: number; day: number; visits: number }
  | { kind: "error"; n: number }
  | { kind: "deleteProduct"; p: number }
  | { kind: "deleteArtist"; a: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("artist" as const), a: fc.nat(3), rename: fc.nat(2) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("product" as const), p: fc.nat(5), a: fc.nat(3), status: fc.nat(2), price: fc.integer({ min: 0, max: 50_000 }) }) },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("order" as const),
      lines: fc.array(fc.record({ p: fc.nat(5), quantity: fc.integer({ min: 1, max: 4 }), price: fc.integer({ min: 1, max: 30_000 }) }), { minLength: 1, maxLength: 3 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("refund" as const), o: fc.nat(20), share: fc.integer({ min: 1, max: 100 }), byLine: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("subscription" as const), a: fc.nat(3), s: fc.nat(1), amount: fc.integer({ min: 0, max: 5000 }), yearly: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("visits" as const), a: fc.nat(3), day: fc.nat(2), visits: fc.nat(500) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("error" as const), n: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("deleteProduct" as const), p: fc.nat(5) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("deleteArtist" as const), a: fc.nat(3) }) },
);

/** The events a storefront sends for `steps`, in the order it made them: each valid at its moment. */
function history(steps: Step[]): StorefrontEvent[] {
  const events: StorefrontEvent[] = [];
  const artists = new Set<number>();
  const gone = new Set<string>();
  const products = new Map<number, number>();
  const orders: Array<{ id: string; lines: Array<{ lineId: string; left: number }> }> = [];
  const push = (type: string, data: unknown) => events.push({ id: `e${events.length}`, type, occurredAt: at(events.length + 1), data });
  const artistData = (a: number, rename: number) => ({ artistId: `a${a}`, name: `Studio ${a} v${rename}`, ownerName: `Owner ${a}`, email: `a${a}@example.com`, slug: `studio-${a}` });
  for (const s of steps) {
    switch (s.kind) {
      case "artist":
        if (gone.has(`a${s.a}`)) break;
        push(artists.has(s.a) ? "artist.updated" : "artist.created", artistData(s.a, s.rename));
        artists.add(s.a);
        break;
      case "product": {
        const owner = products.get(s.p) ?? s.a;
        if (!artists.has(owner) || gone.has(`p${s.p}`)) break;
        push(products.has(s.p) ? "product.updated" : "product.created", {
          productId: `p${s.p}`,
          artistId: `a${owner}`,
          name: `Print ${s.p}`,
          priceCents: s.price,
          inventory: 3,
          status: ["active", "draft", "archived"][s.status],
        });
        products.set(s.p, owner);
        break;
      }
      case "order": {
        const lines = s.lines
          .filter((l) => products.has(l.p))
          .map((l, i) => ({ lineId: `l${i}`, productId: `p${l.p}`, artistId: `a${products.get(l.p)}`, quantity: l.quantity, unitPriceCents: l.price }));
        if (lines.length === 0) break;
        const id = `o${orders.length}`;
        push("order.paid", { orderId: id, customerEmail: "buyer@example.com", paidAt: at(events.length + 1), lines });
        orders.push({ id, lines: lines.map((l) => ({ lineId: l.lineId, left: l.quantity * l.unitPriceCents })) });
        break;
      }
      case "refund": {
        const o = orders[s.o % Math.max(1, orders.length)];
        if (!o) break;
        const line = o.lines.find((l) => l.left > 0);
        if (!line) break;
        const amount = Math.max(1, Math.floor((line.left * s.share) / 100));
        line.left -= amount;
        push("order.refunded", { orderId: o.id, refundId: `r${events.length}`, amountCents: amount, ...(s.byLine ? { lines: [{ lineId: line.lineId, amountCents: amount }] } : {}) });
        // Without lines the refund fills the lines in order: the model follows the same rule.
        if (!s.byLine) {
          line.left += amount;
          let rest = amount;
          for (const l of o.lines) {
            const take = Math.min(rest, l.left);
            l.left -= take;
            rest -= take;
          }
        }
        break;
      }
      case "subscription":
        if (!artists.has(s.a)) break;
        push("subscription.paid", {
          subscriptionId: `s${s.a}-${s.s}`,
          artistId: `a${s.a}`,
          periodStart: at(events.length + 1),
          periodEnd: new Date(T0 + (events.length + 1) * 60_000 + (s.yearly ? 365 : 30) * 86_400_000).toISOString(),
          amountCents: s.amount,
        });
        break;
      case "visits":
        if (!artists.has(s.a)) break;
        push("store.visits", { artistId: `a${s.a}`, day: at(s.day * 1440).slice(0, 10), visits: s.visits });
        break;
      case "error":
        push("error.reported", { level: "warning", message: `Storefront hiccup ${s.n}` });
        break;
      case "deleteProduct":
        if (!products.has(s.p) || gone.has(`p${s.p}`)) break;
        push("product.deleted", { productId: `p${s.p}` });
        gone.add(`p${s.p}`);
        products.delete(s.p);
        break;
      case "deleteArtist":
        if (!artists.has(s.a)) break;
        push("artist.deleted", { artistId: `a${s.a}` });
        artists.delete(s.a);
        gone.add(`a${s.a}`);
        for (const [p, owner] of products) if (owner === s.a) products.delete(p);
        break;
    }
  }
  return events;
}

async function post(ctx: TestContext, key: string, events: StorefrontEvent[]): Promise<EventResult[]> {
  const res = await ctx.request("/api/events", { method: "POST", token: key, json: { events } });
  expect(res.status, await res.clone().text()).toBe(200);
  return ingestEventsResponseSchema.parse(await res.json()).results;
}

const RETRYABLE = new Set(["unknown_artist", "unknown_product", "unknown_order"]);

describe.each(testDatabaseKinds)("storefront streams in any order (%s)", (kind) => {
  it("keep every rollup equal to a recompute, and a re-sent stream changes nothing", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 5, maxLength: 45 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 120, maxLength: 120 }),
        fc.array(fc.nat(200), { maxLength: 15 }),
        fc.integer({ min: 1, max: 25 }),
        async (steps, order, duplicates, batch) => {
          const stream = history(steps);
          // Shuffled (each event its random key), with some events sent twice.
          const delivery = [...stream, ...duplicates.filter((d) => d < stream.length).map((d) => stream[d]!)]
            .map((e, i) => ({ e, k: order[i % order.length]! + i * 1e-9 }))
            .sort((x, y) => x.k - y.k)
            .map((x) => x.e);
          const ctx = await createTestContext(kind, { now: "2026-11-22T12:00:00.000Z" });
          try {
            const { key } = await ctx.createApiKey();
            let pending: StorefrontEvent[] = [];
            for (let i = 0; i < delivery.length; i += batch) {
              const chunk = delivery.slice(i, i + batch);
              const results = await post(ctx, key, chunk);
              results.forEach((r, j) => {
                expect(r.error?.code === "invalid_input" || r.error?.code === "id_reused", JSON.stringify(r)).toBe(false);
                if (r.status === "rejected" && RETRYABLE.has(r.error!.code)) pending.push(chunk[j]!);
              });
            }
            // The sender sends the refused ones again after the missing ones arrived, until nothing moves.
            for (let round = 0; round < 6 && pending.length > 0; round++) {
              const results = await post(ctx, key, pending);
              const still = pending.filter((_, j) => results[j]!.status === "rejected");
              if (still.length === pending.length) break;
              pending = still;
            }
            expect(await compareRollups(ctx.database.db)).toEqual([]);
            const settled = await databaseChecksum(ctx.database.db, { exclude: ["rate_limits", "api_keys"] });
            for (let i = 0; i < stream.length; i += 100) {
              for (const r of await post(ctx, key, stream.slice(i, i + 100))) expect(["duplicate", "stale", "rejected"]).toContain(r.status);
            }
            expect(await databaseChecksum(ctx.database.db, { exclude: ["rate_limits", "api_keys"] })).toEqual(settled);
          } finally {
            await ctx.close();
          }
        },
      ),
      { numRuns: kind === "sqlite" ? 40 : 12 },
    );
  }, 600_000);
});
