import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type TestDatabase, testBackends } from "../../testing/test-databases.ts";
import { feeRateBasisPointsAt, feeRatesBasisPointsAt } from "./settings.queries.ts";

describe.each(testBackends())("the fee rate in force at a time, on $kind", (backend) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await backend.open();
    // 1.5 % until 1 March, 2 % until 5 March, 3 % since.
    await t.db
      .insertInto("platform_setting_changes")
      .values([
        { id: "c1", key: "platform_fee_percentage", old_value: "1.5", new_value: "2", changed_by: "admin", changed_at: "2026-03-01T00:00:00.000Z" },
        { id: "c2", key: "platform_fee_percentage", old_value: "2", new_value: "3", changed_by: "admin", changed_at: "2026-03-05T00:00:00.000Z" },
        { id: "c3", key: "minimum_payout_amount", old_value: "25", new_value: "50", changed_by: "admin", changed_at: "2026-03-03T00:00:00.000Z" },
      ])
      .execute();
    await t.db
      .insertInto("platform_settings")
      .values({ key: "platform_fee_percentage", value: "3", description: "Platform fee", updated_at: "2026-03-05T00:00:00.000Z", updated_by: null })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value: "3" }))
      .execute();
  });
  afterEach(async () => {
    await t.close();
  });

  it("gives each time the rate before the first change after it, or the current rate", async () => {
    const times = ["2026-02-28T12:00:00.000Z", "2026-03-01T00:00:00.000Z", "2026-03-03T08:00:00.000Z", "2026-03-05T00:00:00.001Z", "2026-03-09T00:00:00.000Z"];
    const rates = await feeRatesBasisPointsAt(t.db, times);
    expect(times.map((at) => rates.get(at))).toEqual([150, 200, 200, 300, 300]);
    for (const at of times) expect(await feeRateBasisPointsAt(t.db, at)).toBe(rates.get(at));
    expect((await feeRatesBasisPointsAt(t.db, [])).size).toBe(0);
  });
});
