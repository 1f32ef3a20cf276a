import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../platform/clock.ts";
import { type TestDatabase, testBackends } from "../../testing/test-databases.ts";
import { placeOrder, refundOrder } from "./orders.ts";
import { periodWindowsCurrent, rollPeriodWindows } from "./period-totals.ts";
import { createProduct } from "./products.ts";
import { compareRollups } from "./recompute.ts";
import { createVendor, deleteVendorCascade } from "./vendors.ts";

const clock = fixedClock("2026-03-10T12:00:00.000Z");
const PRODUCTS = 12;

/**
 * A window's day step runs in chunks of products with a cursor on the window row
 * (docs/decisions/0013-top-lists.md): orders written between two chunks count exactly once,
 * whether their product has been moved yet or not, and a step cut short resumes from the cursor.
 */
describe.each(testBackends())("period windows stepped in chunks on $kind", (backend) => {
  let t: TestDatabase;
  let products: Array<{ id: string; vendorId: string }>;
  let vendorIds: string[];
  beforeEach(async () => {
    t = await backend.open();
    vendorIds = [];
    products = [];
    for (let i = 0; i < 3; i++) {
      const v = await createVendor(t.db, { name: `V${i}`, ownerName: "O", email: `v${i}@x.com`, slug: `v${i}`, joinedAt: "2026-01-01T00:00:00.000Z" }, clock);
      vendorIds.push(v.id);
      for (let k = 0; k < PRODUCTS / 3; k++)
        products.push({ id: (await createProduct(t.db, { vendorId: v.id, name: `P${i}.${k}`, priceCents: 1000, createdAt: "2026-01-01T00:00:00.000Z" }, clock)).id, vendorId: v.id });
    }
    products.sort((a, b) => (a.id < b.id ? -1 : 1));
    // Sales on the day that leaves the 7 days (Mar 3) and the day that enters (Mar 10), windows ending Mar 9.
    for (const p of products) {
      await order(p, "2026-03-03T10:00:00.000Z");
      await order(p, "2026-03-05T10:00:00.000Z");
    }
    await rollPeriodWindows(t.db, "2026-03-09");
    for (const p of products) await order(p, "2026-03-10T09:00:00.000Z");
    expect(await compareRollups(t.db)).toEqual([]);
  });
  afterEach(async () => {
    await t.close();
  });

  function order(p: { id: string; vendorId: string }, createdAt: string) {
    return placeOrder(t.db, { vendorId: p.vendorId, productId: p.id, quantity: 1, feeRateBasisPoints: 150, createdAt }, clock);
  }
  const window7 = () => t.db.selectFrom("period_windows").select(["last_day", "step_to", "step_cursor"]).where("period_days", "=", 7).executeTakeFirstOrThrow();

  it("steps over many products in several chunks; orders and refunds between chunks count exactly once", async () => {
    const seen: Array<{ last_day: string; step_to: string | null; step_cursor: string | null }> = [];
    const first = products[0]!;
    const last = products[products.length - 1]!;
    await rollPeriodWindows(t.db, "2026-03-10", {
      chunkRows: 2,
      pace: "request",
      onChunk: async () => {
        const w = await window7();
        seen.push(w);
        if (w.step_to === null) return;
        // A product already moved and one not yet, on the day entering and the day leaving.
        await order(first, "2026-03-10T11:00:00.000Z");
        await order(last, "2026-03-10T11:00:00.000Z");
        await order(first, "2026-03-03T11:00:00.000Z");
        await order(last, "2026-03-03T11:00:00.000Z");
        const paid = await t.db.selectFrom("orders").select("id").where("status", "=", "paid").where("created_at", "like", "2026-03-03%").orderBy("id").executeTakeFirstOrThrow();
        await refundOrder(t.db, paid.id, clock);
        expect(await compareRollups(t.db)).toEqual([]);
      },
    });
    const midStep = seen.filter((w) => w.step_to === "2026-03-10");
    expect(midStep.length).toBeGreaterThanOrEqual(3);
    expect(new Set(midStep.map((w) => w.step_cursor)).size).toBe(midStep.length);
    expect(await window7()).toEqual({ last_day: "2026-03-10", step_to: null, step_cursor: null });
    expect(await periodWindowsCurrent(t.db, "2026-03-10")).toBe(true);
    expect(await compareRollups(t.db)).toEqual([]);
    // Mar 3 has left the 7 days: each product holds Mar 5 and its Mar 10 orders.
    const totals = await t.db.selectFrom("product_period_totals").select(["product_id", "orders"]).where("period_days", "=", 7).execute();
    const byId = new Map(totals.map((r) => [r.product_id, Number(r.orders)]));
    expect(byId.get(products[1]!.id)).toBe(2);
    expect(byId.get(first.id)).toBe(2 + midStep.length);
  });

  it("a step cut short resumes from its cursor; a vendor deleted mid-step leaves nothing behind", async () => {
    let chunks = 0;
    await expect(
      rollPeriodWindows(t.db, "2026-03-10", {
        chunkRows: 2,
        pace: "request",
        onChunk: async () => {
          if (++chunks === 2) throw new Error("crash");
        },
      }),
    ).rejects.toThrow("crash");
    const cut = await window7();
    expect(cut.last_day).toBe("2026-03-09");
    expect(cut.step_to).toBe("2026-03-10");
    expect(cut.step_cursor).not.toBeNull();
    expect(await periodWindowsCurrent(t.db, "2026-03-10")).toBe(false);
    expect(await compareRollups(t.db)).toEqual([]);
    await deleteVendorCascade(t.db, vendorIds[1]!);
    expect(await compareRollups(t.db)).toEqual([]);
    // Two rolls at once: each chunk moves the window row only if nobody moved it meanwhile.
    await Promise.all([rollPeriodWindows(t.db, "2026-03-10", { chunkRows: 2, pace: "request" }), rollPeriodWindows(t.db, "2026-03-10", { chunkRows: 3, pace: "request" })]);
    expect(await window7()).toEqual({ last_day: "2026-03-10", step_to: null, step_cursor: null });
    expect(await compareRollups(t.db)).toEqual([]);
  });
});
