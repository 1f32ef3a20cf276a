import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminVendorsResponseSchema } from "../../../contract/vendors.ts";
import { createVendor, deleteVendorCascade } from "../../domain/ledger/vendors.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { cacheLookups } from "../../testing/cache-lookups.ts";

/**
 * Which vendors a search matches is kept per vendor-search version on SQLite (vendor-matches.ts,
 * migration 021): a repeated search reads the trigram index once, and every change of who matches
 * shows in the very next answer, whichever way it was written (the ledger, or SQL from another
 * process); statuses are applied on every request. The same answers on PostgreSQL (no memo there).
 */
const METRICS_TOKEN = "metrics-token-for-vendor-matches-0123456789";

describe.each(testDatabaseKinds)("a vendor search's kept matches (%s)", (kind) => {
  let ctx: TestContext;
  let token: string;
  const ids: string[] = [];

  const search = async (query: string) => {
    const res = await ctx.request(`/api/admin/vendors?limit=5&search=Kiln%20Harbour${query}`, { token });
    expect(res.status, query).toBe(200);
    const body = adminVendorsResponseSchema.parse(await res.json());
    return { total: body.total, names: body.vendors.map((v) => v.name) };
  };
  const lookups = () => cacheLookups(ctx, METRICS_TOKEN, "vendor-matches");

  beforeAll(async () => {
    ctx = await createTestContext(kind, { env: { METRICS_TOKEN } });
    token = (await ctx.createUser({ email: "matches@hki.global", role: "admin" })).token;
    for (let i = 0; i < 12; i++) {
      const joinedAt = new Date(Date.UTC(2026, 0, 1 + i)).toISOString();
      ids.push((await createVendor(ctx.database.db, { name: `Kiln Harbour ${i}`, ownerName: "Ada", email: `kiln${i}@example.com`, slug: `kiln-harbour-${i}`, joinedAt }, ctx.clock)).id);
    }
    await createVendor(ctx.database.db, { name: "Loom Orchard", ownerName: "Bo", email: "bo@example.com", slug: "loom-orchard", joinedAt: "2026-02-01T00:00:00.000Z" }, ctx.clock);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it("answers pages, sorts and status filters of one search, reading its matches once", async () => {
    const before = await lookups();
    expect(await search("")).toEqual({ total: 12, names: ["Kiln Harbour 11", "Kiln Harbour 10", "Kiln Harbour 9", "Kiln Harbour 8", "Kiln Harbour 7"] });
    expect((await search("&page=3")).names).toEqual(["Kiln Harbour 1", "Kiln Harbour 0"]);
    expect((await search("&sort=name")).names).toEqual(["Kiln Harbour 0", "Kiln Harbour 1", "Kiln Harbour 10", "Kiln Harbour 11", "Kiln Harbour 2"]);
    expect((await search("&status=inactive")).total).toBe(0);
    const after = await lookups();
    if (kind === "sqlite") expect({ hit: after.hit - before.hit, miss: after.miss - before.miss }).toEqual({ hit: 3, miss: 1 });
  });

  it("follows a rename, a new vendor and a deletion at once, even written by SQL from outside", async () => {
    await sql`update vendors set name = 'Quiet Mill' where id = ${ids[3]!}`.execute(ctx.database.db);
    expect((await search("")).total).toBe(11);
    await createVendor(ctx.database.db, { name: "Kiln Harbour new", ownerName: "Cy", email: "cy@example.com", slug: "kiln-harbour-new", joinedAt: "2026-03-01T00:00:00.000Z" }, ctx.clock);
    const withNew = await search("");
    expect([withNew.total, withNew.names[0]]).toEqual([12, "Kiln Harbour new"]);
    await deleteVendorCascade(ctx.database.db, ids[0]!);
    expect((await search("&page=3")).names).toEqual(["Kiln Harbour 1"]);
    await sql`update vendors set name = 'Kiln Harbour 3' where id = ${ids[3]!}`.execute(ctx.database.db);
    expect((await search("")).total).toBe(12);
  });

  it("applies a status change on the next request although who matches did not change", async () => {
    await sql`update vendors set is_active = 0 where id = ${ids[5]!}`.execute(ctx.database.db);
    expect(await search("&status=inactive")).toEqual({ total: 1, names: ["Kiln Harbour 5"] });
    expect((await search("&status=inactive&sort=-revenue")).names).toEqual(["Kiln Harbour 5"]);
    const active = await sql<{ n: number }>`select count(*) as n from vendors where name like 'Kiln Harbour%' and is_active = 1`.execute(ctx.database.db);
    expect((await search("&status=active")).total).toBe(Number(active.rows[0]!.n));
    expect((await search("&status=active&sort=name")).names).not.toContain("Kiln Harbour 5");
  });
});
