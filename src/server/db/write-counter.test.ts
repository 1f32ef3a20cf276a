import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext, testDatabaseKinds } from "../test/test-app.ts";

describe.each(testDatabaseKinds)("WriteCounter (%s)", (kind) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext(kind);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const counters = () => ctx.database.db.selectFrom("counters").selectAll();

  it("counts statements that changed rows, through the builder, raw SQL and transactions", async () => {
    const { db, writes } = ctx.database;
    const start = writes.count;
    await db.insertInto("counters").values({ name: "write_counter_test", value: 1 }).execute();
    expect(writes.count).toBe(start + 1);
    await db.transaction().execute(async (trx) => {
      await trx.updateTable("counters").set({ value: 2 }).where("name", "=", "write_counter_test").execute();
    });
    expect(writes.count).toBe(start + 2);
    await sql`delete from counters where name = ${"write_counter_test"}`.execute(db);
    expect(writes.count).toBe(start + 3);
  });

  it("does not count reads or writes that matched nothing", async () => {
    const { db, writes } = ctx.database;
    const start = writes.count;
    await counters().execute();
    await db.updateTable("counters").set({ value: 5 }).where("name", "=", "no_such_counter").execute();
    await db.deleteFrom("counters").where("name", "=", "no_such_counter").execute();
    expect(writes.count).toBe(start);
  });
});
