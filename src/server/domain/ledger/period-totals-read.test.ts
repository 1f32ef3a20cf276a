import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../platform/clock.ts";
import { type TestDatabase, testBackends } from "../../testing/test-databases.ts";
import { placeOrder } from "./orders.ts";
import { PERIOD_WINDOW_DAYS, periodWindowsCurrent, shiftDay } from "./period-totals.ts";
import { buildSettled, periodTotalsEndForRead } from "./period-totals-read.ts";
import { createProduct } from "./products.ts";
import { compareRollups } from "./recompute.ts";
import { createVendor } from "./vendors.ts";

const clock = fixedClock("2026-06-30T12:00:00.000Z");
const TODAY = "2026-06-30";
const DAYS = 120;

/**
 * What a top-list read answers for while the windows are being built (period-totals-read.ts):
 * the day the totals end on only when they hold the period asked, else nothing (the API's 503);
 * every read moves the build forward while it waits, and what it names is exact.
 */
describe.each(testBackends())("top-list reads while the windows are built, on $kind", (backend) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await backend.open();
    for (let i = 0; i < 3; i++) {
      const v = await createVendor(t.db, { name: `V${i}`, ownerName: "O", email: `v${i}@x.com`, slug: `v${i}`, isInternal: false, joinedAt: "2025-12-01T00:00:00.000Z" }, clock);
      const p = await createProduct(t.db, { vendorId: v.id, name: `P${i}`, priceCents: 100 * (i + 1), createdAt: "2025-12-01T00:00:00.000Z" }, clock);
      for (let d = i; d < DAYS; d += 3) {
        await placeOrder(t.db, { vendorId: v.id, productId: p.id, quantity: 1, feeRateBasisPoints: 150, createdAt: `${shiftDay(TODAY, -d)}T10:00:00.000Z` }, clock);
      }
    }
    // No window yet: the state after a first start filled the database, or a migration added the totals.
    await t.db.deleteFrom("period_windows").execute();
    await t.db.deleteFrom("product_period_totals").execute();
    await t.db.deleteFrom("vendor_period_totals").execute();
  });
  afterEach(async () => {
    await t.close();
  });

  // The read may move the windows by itself only by 3 product days: the build is a different path.
  const read = (period: (typeof PERIOD_WINDOW_DAYS)[number], buildWaitMs?: number) =>
    periodTotalsEndForRead(t.db, period, TODAY, { readRollMaxRows: 3, ...(buildWaitMs === undefined ? {} : { buildWaitMs }) });

  it("waits for the build and answers for today", { timeout: 60_000 }, async () => {
    expect(await Promise.all(PERIOD_WINDOW_DAYS.map((period) => read(period)))).toEqual([TODAY, TODAY, TODAY]);
    expect(await periodWindowsCurrent(t.db, TODAY)).toBe(true);
    expect(await compareRollups(t.db)).toEqual([]);
  });

  it("with no time to wait, answers nothing until the window holds the period; each read moves the build on", { timeout: 60_000 }, async () => {
    const answers: Array<string | null> = [];
    for (let i = 0; i < 20 && answers.at(-1) !== TODAY; i++) {
      answers.push(await read(90, 0));
      // Whatever a read leaves is exact for the days each window names (once the chunk it started is committed).
      await buildSettled(t.db);
      expect(await compareRollups(t.db)).toEqual([]);
    }
    expect(answers.at(-1)).toBe(TODAY);
    // Nothing named while the 90-day window held none of the last 90 days, and it got there within
    // the loop's 20 reads (how many depends on the machine's speed: each read builds for a slice of time).
    expect(answers.slice(0, -1).every((answer) => answer === null)).toBe(true);
    expect(answers.length).toBeGreaterThan(1);
  });
});
