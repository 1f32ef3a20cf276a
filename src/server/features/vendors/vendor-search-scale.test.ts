import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminVendorsResponse } from "../../../contract/vendors.ts";
import { createVendor } from "../../domain/ledger/vendors.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { SEARCH_COUNT_CAP } from "./vendors.queries.ts";

const STORES = SEARCH_COUNT_CAP + 10;
/** Every seventh store is a "Rare Glaze": 145 matches, more than one fetch of few matches holds. */
const isRare = (i: number) => i % 7 === 0;
const slugOf = (i: number) => `bulk-store-${String(i).padStart(4, "0")}`;

/**
 * Searches whose matches outnumber a page, a first fetch (100) and the count cap (1,000): pages
 * must be the right slice of newest-first matches and totals exact up to the cap, whichever path
 * the query takes (few matches at once, a broad term counted apart, or a status filter).
 */
describe.each(testDatabaseKinds)("vendor search over %s: many matches", (kind) => {
  let ctx: TestContext;
  let token: string;

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    token = (await ctx.createUser({ email: "ops@hki.global" })).token;
    await ctx.database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < STORES; i++) {
        const joinedAt = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
        const name = `${isRare(i) ? "Rare Glaze" : "Plain"} Store ${i}`;
        await createVendor(trx, { name, ownerName: `Owner ${i}`, email: `owner${i}@bulk.test`, slug: slugOf(i), isActive: i % 2 === 0, joinedAt }, ctx.clock);
      }
    });
  }, 120_000);
  afterAll(async () => {
    await ctx.close();
  });

  const search = async (query: string) => {
    const res = await ctx.request(`/api/admin/vendors?${query}`, { token });
    expect(res.status).toBe(200);
    const body = (await res.json()) as AdminVendorsResponse;
    return { slugs: body.vendors.map((v) => v.slug), total: body.total, capped: body.totalCapped };
  };
  /** Store numbers matching, newest (last created) first. */
  const expected = (matches: (i: number) => boolean) =>
    Array.from({ length: STORES }, (_, i) => STORES - 1 - i)
      .filter(matches)
      .map(slugOf);

  it("a term with a few hundred matches: exact total, right pages", async () => {
    const rare = expected(isRare);
    expect(rare.length).toBeGreaterThan(100);
    expect(await search("search=rare%20glaze&limit=20")).toEqual({ slugs: rare.slice(0, 20), total: rare.length, capped: false });
    expect(await search("search=rare%20glaze&limit=50&page=3")).toEqual({ slugs: rare.slice(100, 150), total: rare.length, capped: false });
  });

  it("a term matching every store: capped total, newest page first, deep pages still right", async () => {
    const all = expected(() => true);
    expect(await search("search=bulk.test&limit=20")).toEqual({ slugs: all.slice(0, 20), total: SEARCH_COUNT_CAP, capped: true });
    expect(await search("search=bulk.test&limit=100&page=10")).toEqual({ slugs: all.slice(900, 1000), total: SEARCH_COUNT_CAP, capped: true });
    expect(await search("search=bulk.test&limit=100&page=11")).toEqual({ slugs: all.slice(1000, 1100), total: SEARCH_COUNT_CAP, capped: true });
  });

  it("with a status filter", async () => {
    const rareActive = expected((i) => isRare(i) && i % 2 === 0);
    expect(await search("search=rare%20glaze&status=active&limit=20&page=2")).toEqual({ slugs: rareActive.slice(20, 40), total: rareActive.length, capped: false });
  });
});
