import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { featuredArtistResponseSchema } from "../../contract/featured-artist.ts";
import { createTestContext, type TestContext } from "../testing/test-app.ts";

describe("demo data: the featured artist (docs/product.md §18.1)", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext("sqlite", { seedDemo: true });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it("has one featured now, one queued right after it, and a history with a replaced slot, all active non-internal artists", async () => {
    const admin = await ctx.createUser({ email: "demo-check@hki.global" });
    const res = await ctx.request("/api/admin/featured-artist", { token: admin.token });
    const body = featuredArtistResponseSchema.parse(await res.json());
    expect(body.current).not.toBeNull();
    expect(body.upcoming).toHaveLength(1);
    expect(body.upcoming[0]?.startsAt).toBe(body.current?.endsAt);
    expect(body.history.map((h) => h.endReason)).toEqual(["replaced", null]);
    const ids = [body.current!, ...body.upcoming, ...body.history].map((s) => s.vendorId);
    const vendors = await ctx.database.db.selectFrom("vendors").select(["id", "is_active", "is_internal"]).where("id", "in", ids).execute();
    expect(vendors).toHaveLength(4);
    expect(vendors.every((v) => v.is_active === 1 && v.is_internal === 0)).toBe(true);
    const pub = await ctx.request("/api/public/featured-artist");
    expect(((await pub.json()) as { featured: { name: string } | null }).featured?.name).toBe(body.current?.vendorName);
  });
});
