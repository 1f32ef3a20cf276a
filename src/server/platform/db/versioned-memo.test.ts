import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../../testing/test-app.ts";
import { VersionedMemo } from "./versioned-memo.ts";

describe("VersionedMemo", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext("sqlite");
  });
  afterAll(async () => {
    await ctx.close();
  });

  it("keeps an answer while its counter stays, computes it again when the counter moves or the answer is older than the time limit", async () => {
    let now = 0;
    const memo = new VersionedMemo<number>("vendor-matches", "vendor_search_version", 8, 60_000, () => now);
    let computed = 0;
    const compute = () => Promise.resolve(++computed);
    const read = () => memo.at(ctx.database.db)("ava", compute);
    expect(await read()).toBe(1);
    expect(await read()).toBe(1);
    // A vendor renamed: the trigger moves the counter in the same transaction.
    const [vendor] = await ctx.database.db.selectFrom("vendors").select("id").limit(1).execute();
    if (vendor) await ctx.database.db.updateTable("vendors").set({ name: "Renamed" }).where("id", "=", vendor.id).execute();
    else
      await ctx.database.db
        .updateTable("counters")
        .set((eb) => ({ value: eb("value", "+", 1) }))
        .where("name", "=", "vendor_search_version")
        .execute();
    expect(await read()).toBe(2);
    now += 59_999;
    expect(await read()).toBe(2);
    // Past the time limit, even an unchanged version is read again.
    now += 1;
    expect(await read()).toBe(3);
  });

  it("shares one computation between concurrent misses and keeps no failure", async () => {
    const memo = new VersionedMemo<number>("search-count", "catalogue_version", 8);
    let computed = 0;
    const slow = () => new Promise<number>((resolve) => setTimeout(() => resolve(++computed), 5));
    const reads = memo.at(ctx.database.db);
    expect(await Promise.all([reads("x", slow), reads("x", slow)])).toEqual([1, 1]);
    await expect(reads("y", () => Promise.reject(new Error("index gone")))).rejects.toThrow("index gone");
    expect(await reads("y", slow)).toBe(2);
  });
});
