import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { generateLargeDataset } from "../../demo-data/generate.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";

/**
 * The figure sorts filter by status on vendor_totals' copies of the vendor's flags (migration 016):
 * the database triggers keep them equal to the vendors' own whoever writes, here the bulk generator
 * (the bench's data) and raw SQL, not only the ledger.
 */
describe.each(testDatabaseKinds)("vendor_totals carries each vendor's flags (%s)", (kind) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext(kind, { now: "2026-03-10T15:30:00.000Z" });
  });
  afterEach(async () => {
    await ctx.close();
  });

  const mismatches = async () =>
    Number(
      (
        await sql<{ n: number | string }>`select count(*) as n from vendors v join vendor_totals t on t.vendor_id = v.id
          where t.is_active <> v.is_active or t.is_internal <> v.is_internal`.execute(ctx.database.db)
      ).rows[0]?.n,
    );

  it("after a bulk load, and after changes by raw SQL", async () => {
    await generateLargeDataset(ctx.database, { vendors: 120, products: 300, orders: 300, errorLogs: 10, days: 60, seed: 5, clock: ctx.clock });
    const { db } = ctx.database;
    const flags = await db.selectFrom("vendor_totals").select(["is_active", "is_internal"]).execute();
    // 120 artists and one applicant waiting (the generator adds one per hundred: generate.ts).
    expect(flags).toHaveLength(121);
    // Both values occur, so a copy that defaulted to 0 would show.
    expect(new Set(flags.map((f) => f.is_active)).size).toBe(2);
    expect(await mismatches()).toBe(0);
    await sql`update vendors set is_active = 1 - is_active where id in (select id from vendors order by id limit 7)`.execute(db);
    await sql`update vendors set is_internal = 1 where id in (select id from vendors order by id desc limit 3)`.execute(db);
    expect(await mismatches()).toBe(0);
  });
});
