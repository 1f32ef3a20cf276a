import { afterEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { inSavepoint } from "./executor.ts";

describe.each(testDatabaseKinds)("inSavepoint (%s)", (kind) => {
  let ctx: TestContext;
  afterEach(async () => ctx.close());

  const names = async () => (await ctx.database.db.selectFrom("counters").select("name").where("name", "like", "sp-%").orderBy("name").execute()).map((r) => r.name);

  it("undoes what a failing part wrote and lets the transaction go on and commit the rest", async () => {
    ctx = await createTestContext(kind);
    await ctx.database.db.transaction().execute(async (trx) => {
      await trx.insertInto("counters").values({ name: "sp-a", value: 1 }).execute();
      await expect(
        inSavepoint(trx, async (inner) => {
          await inner.insertInto("counters").values({ name: "sp-b", value: 1 }).execute();
          throw new Error("refused");
        }),
      ).rejects.toThrow("refused");
      // A failed statement (a duplicate key) is undone the same way, PostgreSQL's aborted state included.
      await expect(inSavepoint(trx, (inner) => inner.insertInto("counters").values({ name: "sp-a", value: 2 }).execute())).rejects.toThrow();
      await inSavepoint(trx, async (inner) => {
        await inner.insertInto("counters").values({ name: "sp-c", value: 1 }).execute();
        await expect(
          inSavepoint(inner, (innermost) =>
            innermost
              .insertInto("counters")
              .values({ name: "sp-d", value: 1 })
              .execute()
              .then(() => Promise.reject(new Error("inner"))),
          ),
        ).rejects.toThrow("inner");
      });
    });
    expect(await names()).toEqual(["sp-a", "sp-c"]);
  });

  it("needs an open transaction", async () => {
    ctx = await createTestContext(kind);
    await expect(inSavepoint(ctx.database.db, async () => 1)).rejects.toThrow("inSavepoint needs an open transaction");
  });
});
