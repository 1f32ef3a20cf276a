import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExportResponseSchema } from "../../../contract/exports.ts";
import {
  PRODUCT_SEARCH_CAP,
  PRODUCT_SEARCH_CAP_POSTGRES,
  PRODUCT_SORTS,
  type ProductListItem,
  type ProductSort,
  bulkProductStatusResponseSchema,
  productDetailSchema,
  productListItemSchema,
  productsResponseSchema,
  productsSummarySchema,
} from "../../../contract/products.ts";
import { COUNTERS, readCounters } from "../../domain/ledger/counters.ts";
import { placeOrder } from "../../domain/ledger/orders.ts";
import { createProduct } from "../../domain/ledger/products.ts";
import { compareRollups } from "../../domain/ledger/recompute.ts";
import { createVendor } from "../../domain/ledger/vendors.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";

/**
 * The products catalogue over HTTP (docs/product.md §16) on both databases: 1,010 products paged
 * through in every order and filter (no row twice, none missing, in order), moderation checked
 * against a recompute from raw rows, bulk all-or-nothing, reasons, audit rows.
 */

const PRODUCTS = 1010;
const WORDS = ["Moonlit Vase", "Amber Print", "Quiet Harbour Mug", "Linen Tote", "Cobalt Bowl"];

interface Raw {
  id: string;
  name: string;
  vendor_id: string;
  status: string;
  price_cents: number;
  units_sold: number;
  revenue_cents: number;
  created_at: string;
}

function compare(sort: ProductSort) {
  const key = (p: Raw): string | number =>
    sort === "newest" || sort.endsWith("created") ? p.created_at : sort.endsWith("price") ? p.price_cents : sort.endsWith("sold") ? p.units_sold : p.revenue_cents;
  const descending = sort === "newest" || sort.startsWith("-");
  return (a: Raw, b: Raw) => {
    const ka = key(a);
    const kb = key(b);
    const c = ka < kb ? -1 : ka > kb ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    return descending ? -c : c;
  };
}

/** How far a search across vendors counts on each database (docs/product.md §16.2). */
const searchCap = (kind: "sqlite" | "postgres") => (kind === "postgres" ? PRODUCT_SEARCH_CAP_POSTGRES : PRODUCT_SEARCH_CAP);

describe.each(testDatabaseKinds)("products catalogue API (%s)", (kind) => {
  let ctx: TestContext;
  let admin: { id: string; email: string; token: string };
  const vendorIds: string[] = [];

  const get = async (path: string) => {
    const res = await ctx.request(path, { token: admin.token });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const list = async (query: Record<string, string>) => {
    const res = await get(`/api/admin/products?${new URLSearchParams(query)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return productsResponseSchema.parse(res.body);
  };
  const raw = async (): Promise<Raw[]> =>
    (await ctx.database.db.selectFrom("products").select(["id", "name", "vendor_id", "status", "price_cents", "units_sold", "revenue_cents", "created_at"]).execute()).map((r) => ({
      ...r,
      price_cents: Number(r.price_cents),
      units_sold: Number(r.units_sold),
      revenue_cents: Number(r.revenue_cents),
    }));
  const allPages = async (query: Record<string, string>, limit = 97) => {
    const seen: ProductListItem[] = [];
    let cursor: string | null = null;
    let pages = 0;
    let total = -1;
    let capped = false;
    do {
      const page = await list({ ...query, limit: String(limit), ...(cursor ? { cursor } : {}) });
      if (total === -1) ({ total, totalCapped: capped } = page);
      seen.push(...page.products);
      cursor = page.nextCursor;
      expect(++pages).toBeLessThan(120);
    } while (cursor);
    return { seen, total, capped };
  };
  const patch = (id: string, json: unknown, requestId?: string) =>
    ctx.request(`/api/admin/products/${id}/status`, { method: "PATCH", token: admin.token, json, ...(requestId ? { headers: { "x-request-id": requestId } } : {}) });
  const bulk = (json: unknown) => ctx.request("/api/admin/products/bulk-status", { method: "POST", token: admin.token, json });

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    admin = await ctx.createUser({ email: "catalogue-admin@hki.global", role: "admin" });
    const db = ctx.database.db;
    for (let v = 0; v < 3; v++) {
      const vendor = await createVendor(db, { name: `Studio ${v}`, ownerName: `Owner ${v}`, email: `studio${v}@example.com`, slug: `studio-${v}`, joinedAt: "2026-01-01T00:00:00.000Z" }, ctx.clock);
      vendorIds.push(vendor.id);
    }
    const ids: string[] = [];
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < PRODUCTS; i++) {
        // Ties everywhere: ten products share each creation time, prices repeat, most never sell.
        const created = new Date(Date.UTC(2026, 9, 1) + Math.floor(i / 10) * 3_600_000).toISOString();
        const p = await createProduct(
          trx,
          {
            vendorId: vendorIds[i % 3]!,
            name: `Item ${String(i).padStart(4, "0")} ${WORDS[i % WORDS.length]}`,
            priceCents: ((i * 37) % 50) * 100 + 500,
            inventory: i % 7,
            status: i % 13 === 0 ? "draft" : "listed",
            createdAt: created,
          },
          ctx.clock,
        );
        ids.push(p.id);
      }
      for (let k = 0; k < 80; k++) {
        const i = (k * 53) % PRODUCTS;
        if (i % 13 === 0) continue;
        await placeOrder(trx, { vendorId: vendorIds[i % 3]!, productId: ids[i]!, quantity: 1 + (k % 3), feeRateBasisPoints: 150, createdAt: "2026-11-20T10:00:00.000Z" }, ctx.clock);
      }
    });
    // A few hidden already, through the API (so they have history).
    const hide = await bulk({ ids: [ids[1], ids[2], ids[4]], status: "hidden", reason: "Seeded takedown" });
    expect(hide.status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await ctx.close();
  });

  it("pages through every order and filter: each product once, none missing, in the order asked, with the exact total", async () => {
    const rows = await raw();
    const filters: Array<{ query: Record<string, string>; keep: (r: Raw) => boolean }> = [
      { query: {}, keep: () => true },
      { query: { status: "active" }, keep: (r) => r.status === "listed" },
      { query: { status: "draft" }, keep: (r) => r.status === "draft" },
      { query: { vendorId: vendorIds[1]! }, keep: (r) => r.vendor_id === vendorIds[1] },
      { query: { vendorId: vendorIds[2]!, status: "active" }, keep: (r) => r.vendor_id === vendorIds[2] && r.status === "listed" },
      // Searches across vendors: 100 matches (read whole and sorted), 202 (walked in the sort's
      // index, keeping the names that match), every product (on PostgreSQL more than its cap).
      { query: { search: "item 01" }, keep: (r) => r.name.toLowerCase().includes("item 01") },
      { query: { search: "moonlit" }, keep: (r) => r.name.toLowerCase().includes("moonlit") },
      { query: { search: "harbour", status: "active" }, keep: (r) => r.name.toLowerCase().includes("harbour") && r.status === "listed" },
      { query: { search: "ITEM" }, keep: () => true },
      { query: { search: "item", status: "draft" }, keep: (r) => r.status === "draft" },
    ];
    for (const f of filters) {
      const expected = rows.filter(f.keep);
      const matches = f.query.search === undefined ? 0 : rows.filter((r) => r.name.toLowerCase().includes(f.query.search!.toLowerCase())).length;
      for (const sort of PRODUCT_SORTS) {
        const { seen, total, capped } = await allPages({ ...f.query, sort });
        const label = `${JSON.stringify(f.query)} sort=${sort}`;
        if (f.query.vendorId === undefined && matches > searchCap(kind)) {
          // Past the cap the total is a lower bound: the cap, or with a status those among the first
          // cap + 1 matches (exact when one page holds them all).
          if (f.query.status === undefined) expect({ total, capped }, label).toEqual({ total: searchCap(kind), capped: true });
          else if (capped) expect(total, label).toBeLessThanOrEqual(Math.min(expected.length, searchCap(kind)));
          else expect(total, label).toBe(expected.length);
        } else {
          expect(capped, label).toBe(false);
          expect(total, label).toBe(expected.length);
        }
        expect(new Set(seen.map((p) => p.id)).size, label).toBe(seen.length);
        expect(
          seen.map((p) => p.id),
          label,
        ).toEqual([...expected].sort(compare(sort)).map((p) => p.id));
      }
    }
  }, 240_000);

  it("a search within one vendor is that vendor's list: every sort, exact totals", async () => {
    const rows = await raw();
    const ofVendor = rows.filter((r) => r.vendor_id === vendorIds[0]);
    for (const sort of ["-price", "newest", "sold"] as const) {
      const filtered = await allPages({ search: "item", vendorId: vendorIds[0]!, sort }, 100);
      expect(filtered.total).toBe(ofVendor.length);
      expect(filtered.seen.map((p) => p.id)).toEqual([...ofVendor].sort(compare(sort)).map((p) => p.id));
    }
  });

  it("refuses bad input naming the field: short searches, unknown sorts and statuses, foreign cursors", async () => {
    const first = await list({ sort: "price", limit: "5" });
    for (const [query, field] of [
      ["search=ab", "search"],
      ["sort=cheapest", "sort"],
      ["status=listed", "status"],
      ["cursor=nonsense", "cursor"],
      [`sort=-sold&cursor=${first.nextCursor}`, "cursor"],
      ["limit=1000", "limit"],
    ] as const) {
      const res = await get(`/api/admin/products?${query}`);
      expect(res.status, query).toBe(400);
      expect(Object.keys((res.body.error as { fields: object }).fields), query).toContain(field);
    }
  });

  it("hides with a reason and restores: every count follows in the same transaction (checked against a recompute), one audit row each, history kept", async () => {
    const target = (await list({ vendorId: vendorIds[0]!, status: "active", limit: "1" })).products[0]!;
    const before = await readCounters(ctx.database.db);
    const vendorBefore = await get(`/api/admin/vendors/${vendorIds[0]}`);
    const dashboardBefore = await get("/api/admin/dashboard/stats");

    const noReason = await patch(target.id, { status: "hidden" });
    expect(noReason.status).toBe(400);
    expect(await noReason.json()).toMatchObject({ error: { fields: { reason: expect.stringContaining("required") } } });
    expect((await patch(target.id, { status: "hidden", reason: "   " })).status).toBe(400);
    expect((await patch(target.id, { status: "hidden", reason: "x", extra: 1 })).status).toBe(400);
    expect((await patch("no-such-product", { status: "hidden", reason: "x" })).status).toBe(404);

    const hidden = await patch(target.id, { status: "hidden", reason: "Trademarked logo" }, "hide-1");
    expect(hidden.status).toBe(200);
    expect(productListItemSchema.parse(await hidden.json())).toMatchObject({ id: target.id, status: "hidden" });
    const after = await readCounters(ctx.database.db);
    expect(after[COUNTERS.productsListed]).toBe(before[COUNTERS.productsListed] - 1);
    expect(after[COUNTERS.productsHidden]).toBe(before[COUNTERS.productsHidden] + 1);
    expect(await compareRollups(ctx.database.db)).toEqual([]);
    const vendorAfter = await get(`/api/admin/vendors/${vendorIds[0]}`);
    expect((vendorAfter.body.stats as { totalProducts: number }).totalProducts).toBe((vendorBefore.body.stats as { totalProducts: number }).totalProducts - 1);
    const dashboardAfter = await get("/api/admin/dashboard/stats");
    expect(dashboardAfter.body.totalProducts).toBe((dashboardBefore.body.totalProducts as number) - 1);

    const audit = await ctx.database.db.selectFrom("audit_log").selectAll().where("request_id", "=", "hide-1").execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: "product.hide", target_type: "product", target_id: target.id, target_label: target.name, actor_email: admin.email });
    expect(JSON.parse(audit[0]!.before_value!)).toEqual({ status: "active", reason: null });
    expect(JSON.parse(audit[0]!.after_value!)).toEqual({ status: "hidden", reason: "Trademarked logo" });

    // A draft cannot be hidden (it is not listed), nor restored.
    const draft = (await list({ status: "draft", limit: "1" })).products[0]!;
    expect((await patch(draft.id, { status: "hidden", reason: "x" })).status).toBe(409);
    expect((await patch(draft.id, { status: "active" })).status).toBe(409);

    const restored = await patch(target.id, { status: "active" }, "restore-1");
    expect(restored.status).toBe(200);
    expect(await readCounters(ctx.database.db)).toEqual(before);
    expect(await compareRollups(ctx.database.db)).toEqual([]);
    const detail = productDetailSchema.parse((await get(`/api/admin/products/${target.id}`)).body);
    expect(detail.product).toMatchObject({ status: "active", moderationReason: null, moderatedBy: admin.email });
    expect(detail.history.map((h) => [h.action, h.fromStatus, h.toStatus, h.reason, h.actorEmail])).toEqual([
      ["restore", "hidden", "active", null, admin.email],
      ["hide", "active", "hidden", "Trademarked logo", admin.email],
    ]);
    expect(detail.vendor).toMatchObject({ id: vendorIds[0], name: "Studio 0", productLimit: 100 });
    expect((await get("/api/admin/products/no-such-product")).status).toBe(404);
  });

  it("bulk changes are all or nothing: one unknown id or one draft changes nothing and writes no row", async () => {
    const active = (await list({ status: "active", limit: "3" })).products.map((p) => p.id);
    const draft = (await list({ status: "draft", limit: "1" })).products[0]!.id;
    const snapshot = async () => ({
      counters: await readCounters(ctx.database.db),
      history: Number(
        (
          await ctx.database.db
            .selectFrom("product_moderations")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      ),
      audit: Number(
        (
          await ctx.database.db
            .selectFrom("audit_log")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      ),
      statuses: (await raw()).map((r) => `${r.id}:${r.status}`).sort(),
    });
    const start = await snapshot();
    const unknown = await bulk({ ids: [...active, "missing-id"], status: "hidden", reason: "Counterfeit" });
    expect(unknown.status).toBe(404);
    expect(JSON.stringify(await unknown.json())).toContain("missing-id");
    expect((await bulk({ ids: [...active, draft], status: "hidden", reason: "Counterfeit" })).status).toBe(409);
    expect((await bulk({ ids: active, status: "hidden" })).status).toBe(400);
    expect((await bulk({ ids: Array.from({ length: 501 }, (_, i) => `id-${i}`), status: "hidden", reason: "x" })).status).toBe(400);
    expect((await bulk({ ids: [], status: "hidden", reason: "x" })).status).toBe(400);
    expect(await snapshot()).toEqual(start);

    const ok = await bulk({ ids: active, status: "hidden", reason: "Counterfeit" });
    expect(ok.status).toBe(200);
    expect(bulkProductStatusResponseSchema.parse(await ok.json())).toEqual({ changed: 3, unchanged: 0 });
    const end = await snapshot();
    expect(end.counters[COUNTERS.productsHidden]).toBe(start.counters[COUNTERS.productsHidden] + 3);
    expect(end.history).toBe(start.history + 3);
    expect(end.audit).toBe(start.audit + 1);
    expect(await compareRollups(ctx.database.db)).toEqual([]);
    const again = await bulk({ ids: active, status: "active" });
    expect(bulkProductStatusResponseSchema.parse(await again.json())).toEqual({ changed: 3, unchanged: 0 });
    expect(await compareRollups(ctx.database.db)).toEqual([]);
  });

  it("racing moderations of the same products never count one twice (each fails whole or finds it done)", async () => {
    const ids = (await list({ status: "active", limit: "4" })).products.map((p) => p.id);
    const calls = [
      ...ids.map((id) => patch(id, { status: "hidden", reason: "Race" })),
      ...ids.map((id) => patch(id, { status: "hidden", reason: "Race again" })),
      bulk({ ids, status: "hidden", reason: "Race in bulk" }),
    ];
    const statuses = (await Promise.all(calls)).map((r) => r.status);
    for (const status of statuses) expect([200, 409]).toContain(status);
    expect(await compareRollups(ctx.database.db)).toEqual([]);
    const hidden = await ctx.database.db.selectFrom("products").select("id").where("id", "in", ids).where("status", "=", "hidden").execute();
    expect(hidden).toHaveLength(ids.length);
    expect((await bulk({ ids, status: "active" })).status).toBe(200);
    expect(await compareRollups(ctx.database.db)).toEqual([]);
  });

  it("the summary: counts by status, added this week, vendors over the limit (a counter that follows the setting and moderation)", async () => {
    const rows = await raw();
    const summary = () => get("/api/admin/products/summary").then((r) => productsSummarySchema.parse(r.body));
    const s = await summary();
    expect(s.counts).toEqual({
      total: rows.length,
      active: rows.filter((r) => r.status === "listed").length,
      draft: rows.filter((r) => r.status === "draft").length,
      hidden: rows.filter((r) => r.status === "hidden").length,
      pendingReview: rows.filter((r) => r.status === "pending_review").length,
      rejected: rows.filter((r) => r.status === "rejected").length,
    });
    const weekStart = "2026-11-16";
    expect(s.addedThisWeek).toBe(rows.filter((r) => r.created_at.slice(0, 10) >= weekStart).length);
    expect(s.overLimit).toEqual({ limit: 100, vendors: 3, top: expect.any(Array) });

    const listedOf = (v: string) => rows.filter((r) => r.vendor_id === v && r.status === "listed").length;
    const counts = vendorIds.map(listedOf).sort((a, b) => b - a);
    // A limit between the two biggest vendors' counts leaves only the biggest over it.
    const put = await ctx.request("/api/admin/settings", { method: "PUT", token: admin.token, json: { max_products_per_vendor: String(counts[1]) } });
    expect(put.status).toBe(200);
    const one = await summary();
    expect(one.overLimit.vendors).toBe(counts[0]! > counts[1]! ? 1 : 0);
    expect(await compareRollups(ctx.database.db)).toEqual([]);
    if (one.overLimit.vendors === 1) {
      const top = one.overLimit.top[0]!;
      expect(top.listedProducts).toBe(counts[0]);
      // Hiding enough of its products brings it back to the limit.
      const ids = (await list({ vendorId: top.id, status: "active", limit: String(counts[0]! - counts[1]!) })).products.map((p) => p.id);
      expect((await bulk({ ids, status: "hidden", reason: "Over the limit" })).status).toBe(200);
      expect((await summary()).overLimit).toEqual({ limit: counts[1], vendors: 0, top: [] });
      expect(await compareRollups(ctx.database.db)).toEqual([]);
      expect((await bulk({ ids, status: "active" })).status).toBe(200);
      expect((await summary()).overLimit.vendors).toBe(1);
    }
    await ctx.request("/api/admin/settings", { method: "PUT", token: admin.token, json: { max_products_per_vendor: "100" } });
    expect((await summary()).overLimit.vendors).toBe(3);
    expect(await compareRollups(ctx.database.db)).toEqual([]);
  });

  it("exports the current filter as CSV through the one export mechanism", async () => {
    const rows = (await raw()).filter((r) => r.vendor_id === vendorIds[2] && r.status === "listed");
    const created = await ctx.request("/api/admin/exports", { method: "POST", token: admin.token, json: { kind: "products", filters: { vendorId: vendorIds[2], status: "active" } } });
    expect(created.status).toBe(201);
    const download = await ctx.request(new URL(createExportResponseSchema.parse(await created.json()).url).pathname);
    expect(download.status).toBe(200);
    const lines = (await download.text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toBe("Product,Product id,Vendor,Vendor id,Status,Price (USD),Inventory,Sold,Revenue (USD),Created");
    expect(
      lines
        .slice(1)
        .map((l) => l.split(",")[1])
        .sort(),
    ).toEqual(rows.map((r) => r.id).sort());
    const bad = await ctx.request("/api/admin/exports", { method: "POST", token: admin.token, json: { kind: "products", filters: { search: "ab" } } });
    expect(bad.status).toBe(400);
  });
});

describe.each(testDatabaseKinds)("products catalogue totals past the cap (%s)", (kind) => {
  let ctx: TestContext;
  let token: string;
  let vendorId: string;
  beforeAll(async () => {
    ctx = await createTestContext(kind);
    token = (await ctx.createUser({ email: "cap-admin@hki.global", role: "admin" })).token;
    const vendor = await createVendor(ctx.database.db, { name: "Bulk Studio", ownerName: "B", email: "bulk@example.com", slug: "bulk-studio" }, ctx.clock);
    vendorId = vendor.id;
    // Written in bulk around the ledger on purpose (this test checks only the list's counting, not the rollups).
    const rows = Array.from({ length: 10_050 }, (_, i) => ({
      id: `cap-${String(i).padStart(6, "0")}`,
      vendor_id: vendor.id,
      name: `Bulk item ${i}`,
      price_cents: 100 + (i % 10),
      inventory: 1,
      status: "listed" as const,
      created_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    }));
    for (let i = 0; i < rows.length; i += 1000)
      await ctx.database.db
        .insertInto("products")
        .values(rows.slice(i, i + 1000))
        .execute();
  }, 120_000);
  afterAll(async () => {
    await ctx.close();
  });

  it("counts exactly up to 10,000 (a search across vendors: its database's cap) and says more beyond; a page still costs one walk", async () => {
    for (const [query, cap] of [
      [`vendorId=${vendorId}`, 10_000],
      [`vendorId=${vendorId}&status=active&sort=-price`, 10_000],
      [`search=bulk&vendorId=${vendorId}&sort=revenue`, 10_000],
      // Across vendors a search counts through the trigram index to its cap (10,000 on SQLite, 1,000 on PostgreSQL).
      ["search=bulk", searchCap(kind)],
      ["search=bulk&sort=-price", searchCap(kind)],
      ["search=bulk&status=active&sort=sold", searchCap(kind)],
    ] as const) {
      const res = await ctx.request(`/api/admin/products?${query}&limit=5`, { token });
      expect(res.status, query).toBe(200);
      const body = productsResponseSchema.parse(await res.json());
      expect(body, query).toMatchObject({ total: cap, totalCapped: true });
      expect(body.products).toHaveLength(5);
      expect(body.nextCursor).not.toBeNull();
    }
    const few = productsResponseSchema.parse(await (await ctx.request("/api/admin/products?search=item%2010049", { token })).json());
    expect(few).toMatchObject({ total: 1, totalCapped: false });
    expect(few.products.map((p) => p.id)).toEqual(["cap-010049"]);
    // A status that none of the many matches has: the walk ends on the first page, which is then the exact total.
    const draft = productsResponseSchema.parse(await (await ctx.request("/api/admin/products?search=bulk&status=draft", { token })).json());
    expect(draft).toMatchObject({ total: 0, totalCapped: false, products: [], nextCursor: null });
  });

  it("pages through a search with more matches than the cap in every order: each product once, none missing, in order", async () => {
    const rows = Array.from({ length: 10_050 }, (_, i) => ({ id: `cap-${String(i).padStart(6, "0")}`, price: 100 + (i % 10), created: i }));
    for (const [sort, order] of [
      ["newest", (a: (typeof rows)[0], b: (typeof rows)[0]) => b.created - a.created],
      ["price", (a: (typeof rows)[0], b: (typeof rows)[0]) => a.price - b.price || (a.id < b.id ? -1 : 1)],
      ["-price", (a: (typeof rows)[0], b: (typeof rows)[0]) => b.price - a.price || (a.id < b.id ? 1 : -1)],
      ["-sold", (a: (typeof rows)[0], b: (typeof rows)[0]) => (a.id < b.id ? 1 : -1)],
    ] as const) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await ctx.request(`/api/admin/products?search=bulk&sort=${sort}&limit=100${cursor ? `&cursor=${cursor}` : ""}`, { token });
        expect(res.status, sort).toBe(200);
        const body = productsResponseSchema.parse(await res.json());
        seen.push(...body.products.map((p) => p.id));
        cursor = body.nextCursor;
      } while (cursor);
      expect(seen, sort).toEqual([...rows].sort(order).map((r) => r.id));
    }
  }, 120_000);
});
