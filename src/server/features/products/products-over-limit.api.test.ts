import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRODUCT_SORTS, type ProductListItem, productsResponseSchema } from "../../../contract/products.ts";
import { createProduct } from "../../domain/ledger/products.ts";
import { createVendor } from "../../domain/ledger/vendors.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";

/**
 * `overLimit=true` (docs/product.md §16, §18.3): the list narrowed to the products of every vendor
 * over the max_products_per_vendor setting, in any order and status, paged, counted, and with the
 * other filters; the "needs attention" card links here.
 */
describe.each(testDatabaseKinds)("products of vendors over the product limit (%s)", (kind) => {
  let ctx: TestContext;
  let token: string;
  // listed, draft products per vendor; the limit is 5 listed products.
  const SHAPE = [
    [8, 2],
    [6, 0],
    [5, 3],
    [2, 1],
  ] as const;
  const vendorIds: string[] = [];

  const list = async (query: Record<string, string>) => {
    const res = await ctx.request(`/api/admin/products?${new URLSearchParams(query)}`, { token });
    const body = (await res.json()) as unknown;
    expect(res.status, JSON.stringify(body)).toBe(200);
    return productsResponseSchema.parse(body);
  };
  const allPages = async (query: Record<string, string>) => {
    const seen: ProductListItem[] = [];
    let cursor: string | null = null;
    let total = -1;
    do {
      const page = await list({ ...query, limit: "3", ...(cursor ? { cursor } : {}) });
      if (total === -1) total = page.total;
      seen.push(...page.products);
      cursor = page.nextCursor;
    } while (cursor);
    return { seen, total };
  };
  const raw = () => ctx.database.db.selectFrom("products").select(["id", "vendor_id", "status", "created_at", "price_cents"]).execute();

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    token = (await ctx.createUser({ email: "over-limit-admin@hki.global", role: "admin" })).token;
    const db = ctx.database.db;
    for (const [v, [listed, draft]] of SHAPE.entries()) {
      const vendor = await createVendor(db, { name: `Studio ${v}`, ownerName: "O", email: `s${v}@example.com`, slug: `s-${v}`, joinedAt: "2026-01-01T00:00:00.000Z" }, ctx.clock);
      vendorIds.push(vendor.id);
      for (let i = 0; i < listed + draft; i++) {
        const createdAt = new Date(Date.UTC(2026, 2, 1) + ((i * 7 + v) % 5) * 3_600_000).toISOString();
        await createProduct(db, { vendorId: vendor.id, name: `Item ${v}.${i}`, priceCents: 100 * ((i * 3 + v) % 4), status: i < listed ? "listed" : "draft", createdAt }, ctx.clock);
      }
    }
    const put = await ctx.request("/api/admin/settings", { method: "PUT", token, json: { max_products_per_vendor: "5" } });
    expect(put.status).toBe(200);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it("every sort: exactly the products of the vendors over the limit, each once, with their total", async () => {
    const over = new Set([vendorIds[0], vendorIds[1]]);
    const expected = (await raw()).filter((p) => over.has(p.vendor_id));
    for (const sort of PRODUCT_SORTS) {
      const { seen, total } = await allPages({ overLimit: "true", sort });
      expect(seen.map((p) => p.id).sort(), sort).toEqual(expected.map((p) => p.id).sort());
      expect(total).toBe(expected.length);
      if (sort === "newest") for (let i = 1; i < seen.length; i++) expect(seen[i - 1]!.createdAt >= seen[i]!.createdAt).toBe(true);
      if (sort === "price") for (let i = 1; i < seen.length; i++) expect(seen[i - 1]!.price <= seen[i]!.price).toBe(true);
    }
  });

  it("with a status, a vendor or a search; false and absent leave the list whole; the limit setting moves it", async () => {
    const rows = await raw();
    expect((await allPages({ overLimit: "true", status: "draft" })).seen.map((p) => p.id).sort()).toEqual(
      rows
        .filter((p) => p.vendor_id === vendorIds[0] && p.status === "draft")
        .map((p) => p.id)
        .sort(),
    );
    expect((await list({ overLimit: "true", vendorId: vendorIds[1]! })).total).toBe(6);
    expect(await list({ overLimit: "true", vendorId: vendorIds[2]! })).toMatchObject({ products: [], total: 0, totalCapped: false });
    const searched = await allPages({ overLimit: "true", search: "Item 0." });
    expect(searched.seen.length).toBe(10);
    expect(searched.total).toBe(10);
    expect((await list({ overLimit: "false" })).total).toBe(rows.length);
    expect((await list({})).total).toBe(rows.length);
    const refused = await ctx.request("/api/admin/products?overLimit=yes", { token });
    expect(refused.status).toBe(400);
    // A lower limit takes in the vendor at 5 listed products.
    await ctx.request("/api/admin/settings", { method: "PUT", token, json: { max_products_per_vendor: "4" } });
    expect((await list({ overLimit: "true" })).total).toBe(10 + 6 + 8);
    await ctx.request("/api/admin/settings", { method: "PUT", token, json: { max_products_per_vendor: "5" } });
  });
});
