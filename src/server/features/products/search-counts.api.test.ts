import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productsResponseSchema } from "../../../contract/products.ts";
import { readCatalogueVersion } from "../../domain/ledger/counters.ts";
import { placeOrder } from "../../domain/ledger/orders.ts";
import { createProduct } from "../../domain/ledger/products.ts";
import { createVendor, deleteVendorCascade } from "../../domain/ledger/vendors.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { cacheLookups } from "../../testing/cache-lookups.ts";

/**
 * A search's counts across vendors are kept per catalogue version (search-counts.ts, migration
 * 020): a repeated search is counted once, and every change of who matches shows in the very next
 * total, whichever way it was written (the ledger, the API, or SQL from another process).
 */
const METRICS_TOKEN = "metrics-token-for-search-counts-0123456789";

describe.each(testDatabaseKinds)("a search's kept counts (%s)", (kind) => {
  let ctx: TestContext;
  let token: string;
  let vendorId: string;
  const ids: string[] = [];

  const totalOf = async (query: string) => {
    const res = await ctx.request(`/api/admin/products?limit=3&${query}`, { token });
    expect(res.status, query).toBe(200);
    const body = productsResponseSchema.parse(await res.json());
    return { total: body.total, capped: body.totalCapped };
  };
  /** What the metrics say of the search-count memo so far. */
  const lookups = () => cacheLookups(ctx, METRICS_TOKEN, "search-count");

  beforeAll(async () => {
    ctx = await createTestContext(kind, { env: { METRICS_TOKEN } });
    token = (await ctx.createUser({ email: "counts@hki.global", role: "admin" })).token;
    const db = ctx.database.db;
    vendorId = (await createVendor(db, { name: "Lantern Works", ownerName: "Ida", email: "ida@example.com", slug: "lantern-works", joinedAt: "2026-01-01T00:00:00.000Z" }, ctx.clock)).id;
    // More matches than a search reads whole (sortWholeThreshold: 100 here), so its total is the kept count.
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < 240; i++) {
        const p = await createProduct(
          trx,
          { vendorId, name: `${i % 2 === 0 ? "Moonlit" : "Sunlit"} Lamp ${i}`, priceCents: 1000 + i, status: "listed", createdAt: "2026-10-01T00:00:00.000Z" },
          ctx.clock,
        );
        ids.push(p.id);
      }
    });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it("counts a repeated search once, and a sale (which changes no match) keeps the count", async () => {
    const before = await lookups();
    expect(await totalOf("search=Moonlit")).toEqual({ total: 120, capped: false });
    expect(await totalOf("search=Moonlit&sort=-price")).toEqual({ total: 120, capped: false });
    expect(await totalOf("search=Moonlit")).toEqual({ total: 120, capped: false });
    const version = await readCatalogueVersion(ctx.database.db);
    await placeOrder(ctx.database.db, { vendorId, productId: ids[0]!, quantity: 2, feeRateBasisPoints: 150, createdAt: "2026-11-20T10:00:00.000Z" }, ctx.clock);
    expect(await readCatalogueVersion(ctx.database.db)).toBe(version);
    expect(await totalOf("search=Moonlit&sort=-sold")).toEqual({ total: 120, capped: false });
    // Read once each: the count, and the matches the newest-first and price-sorted pages are cut from
    // (by sales, a search this broad walks its sort's index).
    const after = await lookups();
    expect(after.miss - before.miss).toBe(2);
    expect(after.hit - before.hit).toBe(5);
  });

  it("keeps a search's matches with their status and price, and sorts by sales as they are now", async () => {
    const db = ctx.database.db;
    const vases: string[] = [];
    for (let i = 0; i < 4; i++) {
      vases.push((await createProduct(db, { vendorId, name: `Amber Vase ${i}`, priceCents: 2000 + i * 100, status: "listed", createdAt: "2026-10-03T00:00:00.000Z" }, ctx.clock)).id);
    }
    const names = async (query: string) => {
      const res = await ctx.request(`/api/admin/products?limit=10&search=Amber%20Vase&${query}`, { token });
      expect(res.status, query).toBe(200);
      return productsResponseSchema.parse(await res.json()).products.map((p) => p.name);
    };
    expect(await names("sort=-price")).toEqual(["Amber Vase 3", "Amber Vase 2", "Amber Vase 1", "Amber Vase 0"]);
    // A price changed by SQL from outside moves the catalogue version (migration 032): the matches
    // are kept with their prices, and the next answer is sorted by the new one.
    const version = await readCatalogueVersion(db);
    await sql`update products set price_cents = 9900 where id = ${vases[0]!}`.execute(db);
    expect(await readCatalogueVersion(db)).not.toBe(version);
    expect(await names("sort=-price")).toEqual(["Amber Vase 0", "Amber Vase 3", "Amber Vase 2", "Amber Vase 1"]);
    // A sale does not move it: sorted by sales, the kept matches' rows are read now.
    const before = await lookups();
    await placeOrder(db, { vendorId, productId: vases[2]!, quantity: 1, feeRateBasisPoints: 150, createdAt: "2026-11-20T11:00:00.000Z" }, ctx.clock);
    expect((await names("sort=-revenue"))[0]).toBe("Amber Vase 2");
    const after = await lookups();
    expect(after.miss - before.miss).toBe(0);
    // Hidden through the API: the filter reads the status now.
    const hide = await ctx.request(`/api/admin/products/${vases[1]}/status`, { method: "PATCH", token, json: { status: "hidden", reason: "Counterfeit" } });
    expect(hide.status).toBe(200);
    expect(await names("status=hidden")).toEqual(["Amber Vase 1"]);
    // Renamed by SQL from outside: gone from the next answer.
    await sql`update products set name = 'Amber Bowl' where id = ${vases[3]!}`.execute(db);
    expect(await names("sort=-price")).toEqual(["Amber Vase 0", "Amber Vase 2", "Amber Vase 1"]);
  });

  it.runIf(kind === "postgres")("a sale rewrites the product's row but not its search index, which lives apart (migration 033)", async () => {
    const db = ctx.database.db;
    const gin = await sql<{ table: string }>`select tablename as table from pg_indexes
      where schemaname = current_schema() and indexdef ilike '%using gin%' and tablename in ('products', 'product_search')`.execute(db);
    expect(gin.rows.map((r) => r.table)).toEqual(["product_search"]);
    // xmin names the transaction that wrote a row's current version: a sale makes a new product row, and leaves the search row as it was.
    const versions = async () =>
      (
        await sql<{
          product: string;
          search: string;
        }>`select p.xmin::text as product, s.xmin::text as search from products p join product_search s on s.product_id = p.id where p.id = ${ids[1]!}`.execute(db)
      ).rows[0]!;
    const before = await versions();
    await placeOrder(db, { vendorId, productId: ids[1]!, quantity: 1, feeRateBasisPoints: 150, createdAt: "2026-11-20T11:00:00.000Z" }, ctx.clock);
    const after = await versions();
    expect(after.product).not.toBe(before.product);
    expect(after.search).toBe(before.search);
  });

  it("a product added, renamed by another process, hidden, restored or deleted shows in the next total", async () => {
    const db = ctx.database.db;
    expect(await totalOf("search=Moonlit")).toEqual({ total: 120, capped: false });
    // Added through the ledger.
    const added = await createProduct(db, { vendorId, name: "Moonlit Shade", priceCents: 900, status: "listed", createdAt: "2026-10-02T00:00:00.000Z" }, ctx.clock);
    expect(await totalOf("search=Moonlit")).toEqual({ total: 121, capped: false });
    // Renamed by SQL outside the app (a CLI, psql): the trigger moves the version all the same.
    await sql`update products set name = 'Sunlit Shade' where id = ${added.id}`.execute(db);
    expect(await totalOf("search=Moonlit")).toEqual({ total: 120, capped: false });
    expect(await totalOf("search=Shade")).toEqual({ total: 1, capped: false });
    // Hidden and restored through the API: the per-status totals follow.
    expect(await totalOf("search=Moonlit&status=hidden")).toEqual({ total: 0, capped: false });
    const hide = await ctx.request(`/api/admin/products/${ids[4]}/status`, { method: "PATCH", token, json: { status: "hidden", reason: "Counterfeit" } });
    expect(hide.status).toBe(200);
    expect(await totalOf("search=Moonlit&status=hidden")).toEqual({ total: 1, capped: false });
    expect(await totalOf("search=Moonlit&status=active")).toEqual({ total: 119, capped: false });
    const restore = await ctx.request(`/api/admin/products/${ids[4]}/status`, { method: "PATCH", token, json: { status: "active" } });
    expect(restore.status).toBe(200);
    expect(await totalOf("search=Moonlit&status=hidden")).toEqual({ total: 0, capped: false });
    // Deleted with its vendor.
    await deleteVendorCascade(db, vendorId);
    expect(await totalOf("search=Moonlit")).toEqual({ total: 0, capped: false });
    expect(await totalOf("search=Shade")).toEqual({ total: 0, capped: false });
  });
});
