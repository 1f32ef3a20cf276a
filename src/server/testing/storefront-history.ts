import fc from "fast-check";
import type { StorefrontEvent } from "./storefront-events.ts";

/**
 * Random storefront histories (the property test and the crash rounds): steps picked by number
 * become the events a storefront sends, each valid at its moment when sent in order.
 */
const T0 = Date.parse("2026-11-20T00:00:00.000Z");
const at = (step: number) => new Date(T0 + step * 60_000).toISOString();

export type Step =
  | { kind: "artist"; a: number; rename: number }
  | { kind: "product"; p: number; a: number; status: number; price: number }
  | { kind: "order"; lines: Array<{ p: number; quantity: number; price: number }> }
  | { kind: "refund"; o: number; share: number; byLine: boolean }
  | { kind: "subscription"; a: number; s: number; amount: number; yearly: boolean }
  | { kind: "visits"; a: number; day: number; visits: number }
  | { kind: "error"; n: number }
  | { kind: "deleteProduct"; p: number }
  | { kind: "deleteArtist"; a: number };

/** One step of a storefront's history (which artist, product, order… it is about is picked by number). */
export const storefrontStep: fc.Arbitrary<Step> = fc.oneof(
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
export function history(steps: Step[]): StorefrontEvent[] {
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
