import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productsSummarySchema, reviewResponseSchema } from "../../contract/products.ts";
import { compareRollups } from "../domain/ledger/recompute.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../testing/test-app.ts";
import { DEMO_HIDE_REASONS } from "./demo-catalogue.ts";

/** A new user sees every state of the catalogue (docs/product.md §16): drafts, hidden products with their reasons, an artist over the limit. */
describe.each(testDatabaseKinds)("demo catalogue (%s)", (kind) => {
  let ctx: TestContext;
  let token: string;
  beforeAll(async () => {
    ctx = await createTestContext(kind, { seedDemo: true });
    token = (await ctx.createUser({ email: "demo-catalogue@hki.global", role: "admin" })).token;
  }, 120_000);
  afterAll(async () => {
    await ctx.close();
  });

  it("has drafts, hidden products with reasons and history, and a vendor over the product limit, with every count right", async () => {
    const summary = productsSummarySchema.parse(await (await ctx.request("/api/admin/products/summary", { token })).json());
    expect(summary.counts.draft).toBeGreaterThan(0);
    expect(summary.counts.active).toBeGreaterThan(200);
    expect(summary.counts.hidden).toBe(DEMO_HIDE_REASONS.length);
    expect(summary.overLimit.vendors).toBe(1);
    expect(summary.overLimit.top[0]!.listedProducts).toBe(summary.overLimit.limit + 3);
    expect(summary.addedThisWeek).toBeGreaterThanOrEqual(4);

    const hidden = await ctx.database.db.selectFrom("products").select(["id", "moderation_reason"]).where("status", "=", "hidden").execute();
    expect(hidden.map((h) => h.moderation_reason).sort()).toEqual([...DEMO_HIDE_REASONS].sort());
    const history = await ctx.database.db.selectFrom("product_moderations").select("product_id").where("action", "=", "hide").execute();
    expect(history.map((h) => h.product_id).sort()).toEqual(hidden.map((h) => h.id).sort());
    expect(await compareRollups(ctx.database.db)).toEqual([]);
  });

  it("has listings waiting for review from hours to days, a trusted artist, and an artist with infringement takedowns (docs/product.md §20.4)", async () => {
    const queue = reviewResponseSchema.parse(await (await ctx.request("/api/admin/products/review", { token })).json());
    expect(queue.total).toBe(5);
    const ages = queue.products.map((p) => Date.now() - Date.parse(p.createdAt));
    expect(Math.max(...ages) - Math.min(...ages)).toBeGreaterThan(5 * 86_400_000);
    const vendors = await ctx.database.db
      .selectFrom("vendors")
      .select(["id", "trusted", "takedowns"])
      .where((eb) => eb.or([eb("trusted", "=", 1), eb("takedowns", ">", 0)]))
      .execute();
    expect(vendors.filter((v) => v.trusted === 1)).toHaveLength(1);
    expect(vendors.filter((v) => v.takedowns > 0).map((v) => v.takedowns)).toEqual([2]);
    const rejected = await ctx.database.db.selectFrom("product_moderations").select(["action", "infringement", "reason"]).where("action", "=", "reject").execute();
    expect(rejected.filter((r) => r.infringement === 1)).toHaveLength(2);
    expect(rejected.every((r) => r.reason !== null)).toBe(true);
  });
});
