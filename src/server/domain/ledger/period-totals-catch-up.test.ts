import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../platform/clock.ts";
import { type TestDatabase, testBackends } from "../../testing/test-databases.ts";
import { placeOrder, refundOrder } from "./orders.ts";
import { PERIOD_WINDOW_DAYS, periodWindowsCurrent, rollPeriodWindows, shiftDay } from "./period-totals.ts";
import { createProduct } from "./products.ts";
import { compareRollups } from "./recompute.ts";
import { createVendor } from "./vendors.ts";

const clock = fixedClock("2026-06-30T12:00:00.000Z");
const FIRST_DAY = "2026-01-01";
const DAYS = 120;

/**
 * A window far behind (an outage longer than the window) or missing (first start) is no longer
 * rebuilt in one transaction (docs/decisions/0013-top-lists.md): it jumps in one chunk when its days
 * are few, else steps day by day in chunks, skipping days that change nothing. Between any two chunks the totals are exact for the days the
 * window row names; cut short and resumed, it ends equal to a computation from the raw orders.
 */
describe.each(testBackends())("windows catching up in chunks on $kind", (backend) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await backend.open();
    const products: Array<{ id: string; vendorId: string }> = [];
    for (let i = 0; i < 3; i++) {
      const v = await createVendor(t.db, { name: `V${i}`, ownerName: "O", email: `v${i}@x.com`, slug: `v${i}`, isInternal: i === 2, joinedAt: "2025-12-01T00:00:00.000Z" }, clock);
      for (let k = 0; k < 3; k++)
        products.push({ id: (await createProduct(t.db, { vendorId: v.id, name: `P${i}.${k}`, priceCents: 100 * (k + 1), createdAt: "2025-12-01T00:00:00.000Z" }, clock)).id, vendorId: v.id });
    }
    // Sales on most days of 120 (a quiet stretch of 30 days in the middle), one refunded now and then.
    for (let d = 0; d < DAYS; d++) {
      if (d >= 50 && d < 80) continue;
      const p = products[(d * 7) % products.length]!;
      const q = products[(d * 5 + 1) % products.length]!;
      for (const x of d % 3 === 0 ? [p, q] : [p]) {
        const o = await placeOrder(t.db, { vendorId: x.vendorId, productId: x.id, quantity: 1 + (d % 4), feeRateBasisPoints: 150, createdAt: `${shiftDay(FIRST_DAY, d)}T10:00:00.000Z` }, clock);
        if (d % 11 === 0) await refundOrder(t.db, o.id, clock);
      }
    }
  });
  afterEach(async () => {
    await t.close();
  });

  const windows = () => t.db.selectFrom("period_windows").select(["period_days", "last_day", "step_to", "step_cursor"]).orderBy("period_days").execute();

  /** Rolls to `today` in chunks of `chunkRows`, checking the totals after every chunk; stops after `stopAfter` chunks. */
  async function rollChecked(today: string, stopAfter: number): Promise<number> {
    let chunks = 0;
    await rollPeriodWindows(t.db, today, {
      chunkRows: 2,
      // The day steps of windows too large to jump (a jump has its own test below).
      jumpMaxRows: 0,
      pace: "request",
      onChunk: async () => {
        chunks++;
        // Never a wrong answer between chunks: exact for the days each window row names (its cursor included).
        expect(await compareRollups(t.db)).toEqual([]);
      },
      shouldStop: async () => chunks >= stopAfter,
    });
    return chunks;
  }

  it("from nothing: starts empty before the first sale, steps to today; cut short and resumed it equals the raw orders", { timeout: 120_000 }, async () => {
    await t.db.deleteFrom("period_windows").execute();
    await t.db.deleteFrom("product_period_totals").execute();
    await t.db.deleteFrom("vendor_period_totals").execute();
    const today = shiftDay(FIRST_DAY, DAYS - 1);
    expect(await rollChecked(today, 25)).toBe(25);
    expect(await periodWindowsCurrent(t.db, today)).toBe(false);
    // The first window started on the day before the first sale, and is on its way.
    const mid = await windows();
    expect(mid[0]!.last_day >= shiftDay(FIRST_DAY, -1)).toBe(true);
    expect(mid[0]!.last_day < today).toBe(true);
    await rollChecked(today, Number.POSITIVE_INFINITY);
    expect(await periodWindowsCurrent(t.db, today)).toBe(true);
    expect(await compareRollups(t.db)).toEqual([]);
    expect((await t.db.selectFrom("product_period_totals").select("product_id").where("period_days", "=", 90).execute()).length).toBeGreaterThan(0);
  });

  it("a window holding none of the days it moves to, small enough, jumps there in one chunk: from nothing and after a long gap", { timeout: 120_000 }, async () => {
    await t.db.deleteFrom("period_windows").execute();
    await t.db.deleteFrom("product_period_totals").execute();
    await t.db.deleteFrom("vendor_period_totals").execute();
    const today = shiftDay(FIRST_DAY, DAYS - 1);
    let chunks = 0;
    const roll = (to: string) =>
      rollPeriodWindows(t.db, to, {
        pace: "request",
        onChunk: async () => {
          chunks++;
          expect(await compareRollups(t.db)).toEqual([]);
        },
      });
    await roll(today);
    expect(await periodWindowsCurrent(t.db, today)).toBe(true);
    // Each window: started empty before the first sale, then one jump to today (not a step per day that sold).
    expect(chunks).toBe(2 * PERIOD_WINDOW_DAYS.length);
    expect((await t.db.selectFrom("product_period_totals").select("product_id").where("period_days", "=", 90).execute()).length).toBeGreaterThan(0);
    // Days later than every window: one jump each, the old days taken out.
    chunks = 0;
    const later = shiftDay(today, 95);
    await roll(later);
    expect(chunks).toBe(PERIOD_WINDOW_DAYS.length);
    expect(await periodWindowsCurrent(t.db, later)).toBe(true);
    expect(await compareRollups(t.db)).toEqual([]);
    expect(await t.db.selectFrom("product_period_totals").select("product_id").execute()).toEqual([]);
    expect(await t.db.selectFrom("vendor_period_totals").select("vendor_id").execute()).toEqual([]);
  });

  it("a gap longer than every window: skips the quiet stretch, steps the rest, resumable at any chunk", { timeout: 120_000 }, async () => {
    await rollPeriodWindows(t.db, shiftDay(FIRST_DAY, 40));
    expect(await compareRollups(t.db)).toEqual([]);
    const today = shiftDay(FIRST_DAY, DAYS + 100);
    let total = 0;
    // Cut short every 7 chunks, resumed each time, until it is done.
    for (let run = 0; run < 500 && !(await periodWindowsCurrent(t.db, today)); run++) total += await rollChecked(today, 7);
    expect(await periodWindowsCurrent(t.db, today)).toBe(true);
    expect(await compareRollups(t.db)).toEqual([]);
    // Every window ends on today, and none holds a sale any more (the last was 101 days ago).
    expect((await windows()).map((w) => [Number(w.period_days), w.last_day, w.step_to])).toEqual(PERIOD_WINDOW_DAYS.map((p) => [p, today, null]));
    expect(await t.db.selectFrom("product_period_totals").select("product_id").execute()).toEqual([]);
    // Quiet days were skipped, not stepped one by one: far fewer chunks than days times windows.
    expect(total).toBeLessThan(3 * (DAYS + 100 - 40));
  });
});
