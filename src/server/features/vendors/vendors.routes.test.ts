import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AdminVendorsResponse, VendorDeleteResponse, VendorDetail, VendorListItem, VendorProductsResponse, VendorSalesResponse } from "../../../contract/vendors.ts";
import { COUNTERS } from "../../domain/ledger/counters.ts";
import { compareRollups } from "../../domain/ledger/recompute.ts";
import { CUSTOM_HTML_POLICY } from "../../domain/customization/sanitize-customization.ts";
import { createVendor, updateVendorProfile } from "../../domain/ledger/vendors.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { countAllRows, createFullVendor, snapshotAllRows } from "../../testing/vendors-fixtures.ts";

const json = async <T>(res: Response) => (await res.json()) as T;

describe.each(testDatabaseKinds)("vendors API on %s", (kind) => {
  let ctx: TestContext;
  let admin: { token: string; email: string };
  let user: { token: string };
  let main: Awaited<ReturnType<typeof createFullVendor>>;
  let other: Awaited<ReturnType<typeof createFullVendor>>;
  let internal: Awaited<ReturnType<typeof createFullVendor>>;

  beforeEach(async () => {
    ctx = await createTestContext(kind);
    admin = await ctx.createUser({ email: "ops@hki.global" });
    user = await ctx.createUser({ email: "someone@example.com" });
    main = await createFullVendor(ctx, { name: "Moonlit Ceramics", slug: "moonlit-ceramics", email: "ava@moonlit.example", ownerName: "Ava Stone", joinedAt: "2026-05-01T00:00:00.000Z" });
    other = await createFullVendor(ctx, { name: "Harbor Prints", slug: "harbor-prints", email: "ben@harbor.example", ownerName: "Ben Reed", joinedAt: "2026-06-01T00:00:00.000Z" });
    internal = await createFullVendor(ctx, { name: "HKI Studio", slug: "hki-studio", email: "studio@hki-shop.example", isInternal: true, isActive: false, joinedAt: "2026-07-01T00:00:00.000Z" });
  });
  afterEach(async () => {
    await ctx.close();
  });

  const get = (path: string, token = admin.token) => ctx.request(path, { token });

  describe("guards", () => {
    const calls: Array<[string, string, unknown?]> = [
      ["GET", "/api/vendors"],
      ["GET", "/api/admin/vendors"],
      ["GET", "/api/admin/vendors/x"],
      ["GET", "/api/admin/vendors/x/products"],
      ["GET", "/api/admin/vendors/x/sales"],
      ["PATCH", "/api/vendors/x/status", { isActive: true }],
      ["DELETE", "/api/vendors/x?action=delete", { deleteFromClerk: true }],
    ];
    it.each(calls)("%s %s: 401 without a token, 403 for a non-admin", async (method, path, body) => {
      expect((await ctx.request(path, { method, json: body })).status).toBe(401);
      expect((await ctx.request(path, { method, json: body, token: user.token })).status).toBe(403);
    });
  });

  describe("GET /api/vendors", () => {
    it("returns an array without internal vendors unless include_internal=true", async () => {
      const plain = await json<VendorListItem[]>(await get("/api/vendors"));
      expect(plain.map((v) => v.name)).toEqual(["Harbor Prints", "Moonlit Ceramics"]);
      const all = await json<VendorListItem[]>(await get("/api/vendors?include_internal=true"));
      expect(all.map((v) => v.name)).toEqual(["HKI Studio", "Harbor Prints", "Moonlit Ceramics"]);
      expect(all[0]).toEqual({
        id: internal.vendor.id,
        name: "HKI Studio",
        owner: "Owner Person",
        email: "studio@hki-shop.example",
        slug: "hki-studio",
        joinedDate: "2026-07-01T00:00:00.000Z",
        isActive: false,
        isInternal: true,
      });
    });
    it("400 for a non-boolean include_internal", async () => {
      const res = await get("/api/vendors?include_internal=yes");
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("include_internal");
    });
  });

  describe("GET /api/admin/vendors", () => {
    it("pages newest first with counts from the counters", async () => {
      const p1 = await json<AdminVendorsResponse>(await get("/api/admin/vendors?page=1&limit=2"));
      expect(p1.vendors.map((v) => v.slug)).toEqual(["hki-studio", "harbor-prints"]);
      expect(p1.total).toBe(3);
      expect(p1.counts).toEqual({ total: 3, active: 2, inactive: 1, internal: 1, applications: 0 });
      const p2 = await json<AdminVendorsResponse>(await get("/api/admin/vendors?page=2&limit=2"));
      expect(p2.vendors.map((v) => v.slug)).toEqual(["moonlit-ceramics"]);
      // The counts are the ledger's counters, not a count(*): bump one and the answer follows.
      await ctx.database.db.updateTable("counters").set({ value: 42 }).where("name", "=", COUNTERS.vendorsTotal).execute();
      const bumped = await json<AdminVendorsResponse>(await get("/api/admin/vendors"));
      expect(bumped.counts.total).toBe(42);
      expect(bumped.counts.inactive).toBe(40);
    });

    it("filters by status", async () => {
      const slugs = async (status: string) => (await json<AdminVendorsResponse>(await get(`/api/admin/vendors?status=${status}`))).vendors.map((v) => v.slug);
      expect(await slugs("active")).toEqual(["harbor-prints", "moonlit-ceramics"]);
      expect(await slugs("inactive")).toEqual(["hki-studio"]);
      expect(await slugs("internal")).toEqual(["hki-studio"]);
    });

    it("searches part of a name, owner, e-mail or slug, case-insensitively, with the total of matches", async () => {
      const find = async (q: string, extra = "") => {
        const body = await json<AdminVendorsResponse>(await get(`/api/admin/vendors?search=${encodeURIComponent(q)}${extra}`));
        return { slugs: body.vendors.map((v) => v.slug), total: body.total };
      };
      expect(await find("LIT CER")).toEqual({ slugs: ["moonlit-ceramics"], total: 1 });
      expect(await find("ben@harb")).toEqual({ slugs: ["harbor-prints"], total: 1 });
      expect(await find("ava st")).toEqual({ slugs: ["moonlit-ceramics"], total: 1 });
      expect(await find("r-pri")).toEqual({ slugs: ["harbor-prints"], total: 1 });
      expect(await find(".example")).toEqual({ slugs: ["hki-studio", "harbor-prints", "moonlit-ceramics"], total: 3 });
      expect(await find(".example", "&status=active&limit=1")).toEqual({ slugs: ["harbor-prints"], total: 2 });
      // The total is the same on a short last page and on a page past the end.
      expect(await find(".example", "&limit=2&page=2")).toEqual({ slugs: ["moonlit-ceramics"], total: 3 });
      expect(await find(".example", "&limit=2&page=3")).toEqual({ slugs: [], total: 3 });
      // Short queries (no trigram) still match.
      expect(await find("hk")).toEqual({ slugs: ["hki-studio"], total: 1 });
      // LIKE and FTS syntax in the input is literal text.
      expect(await find("%")).toEqual({ slugs: [], total: 0 });
      expect(await find('"moon')).toEqual({ slugs: [], total: 0 });
      expect(await find("moon OR harbor")).toEqual({ slugs: [], total: 0 });
    });

    it("a renamed vendor is found by its new name only", async () => {
      await ctx.database.db.updateTable("vendors").set({ name: "Sunlit Glassworks" }).where("id", "=", main.vendor.id).execute();
      expect((await json<AdminVendorsResponse>(await get("/api/admin/vendors?search=glasswork"))).total).toBe(1);
      expect((await json<AdminVendorsResponse>(await get("/api/admin/vendors?search=lit%20cer"))).total).toBe(0);
      // The slug was not renamed: still found by it.
      expect((await json<AdminVendorsResponse>(await get("/api/admin/vendors?search=moonlit-c"))).total).toBe(1);
    });

    it("400 naming the field for bad page, limit, status or search", async () => {
      for (const [q, field] of [
        ["page=0", "page"],
        ["limit=101", "limit"],
        ["limit=abc", "limit"],
        ["status=deleted", "status"],
        [`search=${"x".repeat(201)}`, "search"],
      ]) {
        const res = await get(`/api/admin/vendors?${q}`);
        expect(res.status, q).toBe(400);
        expect((await json<{ error: { message: string } }>(res)).error.message).toContain(field);
      }
    });
  });

  describe("GET /api/admin/vendors/{id}", () => {
    it("returns stats from vendor_totals and sanitised customisation", async () => {
      const d = await json<VendorDetail>(await get(`/api/admin/vendors/${main.vendor.id}`));
      expect(d).toMatchObject({ name: "Moonlit Ceramics", owner: "Ava Stone", status: "active", joinedDate: "2026-05-01T00:00:00.000Z" });
      // One listed product; one paid order of 2 × $25 (the refunded one does not count); 50 visits.
      expect(d.stats).toEqual({ totalProducts: 1, revenue: 50, totalSales: 1, avgOrderValue: 50, conversionRate: 2, lastSaleDate: "2026-08-01T12:00:00.000Z" });
      expect(d.customization.customCSS).not.toMatch(/@import|evil/);
      expect(d.customization.customCSS).toContain(".a { color: red; }");
      expect(d.customization.customHTML).toBe("<p>Hi</p>");
    });
    it("keeps the store's HTML as written beside the copy it shows, sanitised when the HTML was written (decision 0027)", async () => {
      const columns = () => ctx.database.db.selectFrom("vendors").select(["custom_html", "custom_html_shown", "custom_html_policy"]).where("id", "=", main.vendor.id).executeTakeFirstOrThrow();
      expect(await columns()).toEqual({ custom_html: '<p onclick="x()">Hi</p><script>alert(1)</script>', custom_html_shown: "<p>Hi</p>", custom_html_policy: CUSTOM_HTML_POLICY });
      await updateVendorProfile(ctx.database.db, main.vendor.id, { customHtml: '<h2>Studio</h2><iframe src="https://evil.example"></iframe>' }, ctx.clock);
      expect(await columns()).toMatchObject({ custom_html_shown: "<h2>Studio</h2>", custom_html_policy: CUSTOM_HTML_POLICY });
      expect((await json<VendorDetail>(await get(`/api/admin/vendors/${main.vendor.id}`))).customization.customHTML).toBe("<h2>Studio</h2>");
      await updateVendorProfile(ctx.database.db, main.vendor.id, { customHtml: null }, ctx.clock);
      expect(await columns()).toEqual({ custom_html: null, custom_html_shown: null, custom_html_policy: null });
      expect((await json<VendorDetail>(await get(`/api/admin/vendors/${main.vendor.id}`))).customization.customHTML).toBeNull();
    });
    it("404 for an unknown id", async () => {
      const res = await get("/api/admin/vendors/nope");
      expect(res.status).toBe(404);
      expect((await json<{ error: { message: string } }>(res)).error.message).toBe("Vendor not found");
    });
  });

  describe("products and sales", () => {
    it("pages the vendor's products and orders", async () => {
      const p = await json<VendorProductsResponse>(await get(`/api/admin/vendors/${main.vendor.id}/products?limit=1`));
      expect(p.total).toBe(2);
      expect(p.products).toEqual([expect.objectContaining({ name: "Moonlit Ceramics sketch", price: 9, status: "draft", sold: 0 })]);
      const p2 = await json<VendorProductsResponse>(await get(`/api/admin/vendors/${main.vendor.id}/products?limit=1&page=2`));
      expect(p2.products).toEqual([expect.objectContaining({ name: "Moonlit Ceramics print", price: 25, inventory: 4, sold: 2, revenue: 50 })]);
      const s = await json<VendorSalesResponse>(await get(`/api/admin/vendors/${main.vendor.id}/sales`));
      expect(s.total).toBe(2);
      expect(s.sales.map((x) => [x.date, x.items, x.total, x.platformFee, x.status])).toEqual([
        ["2026-08-02T12:00:00.000Z", 1, 25, 0.38, "refunded"],
        ["2026-08-01T12:00:00.000Z", 2, 50, 0.75, "paid"],
      ]);
    });
    it("404 for an unknown vendor, 400 for a bad page", async () => {
      expect((await get("/api/admin/vendors/nope/products")).status).toBe(404);
      expect((await get("/api/admin/vendors/nope/sales")).status).toBe(404);
      expect((await get(`/api/admin/vendors/${main.vendor.id}/sales?page=-1`)).status).toBe(400);
    });
  });

  describe("PATCH /api/vendors/{id}/status", () => {
    it("disables and enables, keeps the counters right and audits each change", async () => {
      const res = await ctx.request(`/api/vendors/${main.vendor.id}/status`, { method: "PATCH", token: admin.token, json: { isActive: false, reason: "Orders not shipped" } });
      expect(res.status).toBe(200);
      expect(await json<VendorListItem>(res)).toMatchObject({ id: main.vendor.id, isActive: false });
      let counts = (await json<AdminVendorsResponse>(await get("/api/admin/vendors"))).counts;
      expect(counts).toEqual({ total: 3, active: 1, inactive: 2, internal: 1, applications: 0 });
      await ctx.request(`/api/vendors/${main.vendor.id}/status`, { method: "PATCH", token: admin.token, json: { isActive: true } });
      counts = (await json<AdminVendorsResponse>(await get("/api/admin/vendors"))).counts;
      expect(counts.active).toBe(2);
      const audit = await ctx.database.db.selectFrom("audit_log").selectAll().orderBy("id").execute();
      expect(audit.map((a) => [a.actor_email, a.action, a.target_id])).toEqual([
        ["ops@hki.global", "vendor.disable", main.vendor.id],
        ["ops@hki.global", "vendor.enable", main.vendor.id],
      ]);
      expect(JSON.parse(audit[0]!.details)).toMatchObject({ isActive: { from: true, to: false } });
      expect(await compareRollups(ctx.database.db)).toEqual([]);
    });
    it("400 for anything but a boolean, nothing written; 404 unknown", async () => {
      for (const body of [{ isActive: "false" }, { isActive: 0 }, {}, { isActive: null }]) {
        const res = await ctx.request(`/api/vendors/${main.vendor.id}/status`, { method: "PATCH", token: admin.token, json: body });
        expect(res.status).toBe(400);
        expect(await res.text()).toContain("isActive");
      }
      const res = await ctx.request(`/api/vendors/nope/status`, { method: "PATCH", token: admin.token, json: { isActive: true } });
      expect(res.status).toBe(404);
      expect(await ctx.database.db.selectFrom("audit_log").select("id").execute()).toEqual([]);
      expect((await ctx.database.db.selectFrom("vendors").select("is_active").where("id", "=", main.vendor.id).executeTakeFirstOrThrow()).is_active).toBe(1);
    });
  });

  describe("DELETE /api/vendors/{id}?action=delete", () => {
    const del = (id: string, body: unknown, query = "?action=delete") => ctx.request(`/api/vendors/${id}${query}`, { method: "DELETE", token: admin.token, json: body });

    it("removes the vendor and all it owns plus the owner's account, leaving no orphan rows", async () => {
      const before = await countAllRows(ctx.database);
      const otherBefore = await ctx.request(`/api/admin/vendors/${other.vendor.id}`, { token: admin.token }).then((r) => r.text());
      const res = await del(main.vendor.id, { deleteFromClerk: true });
      expect(res.status).toBe(200);
      expect((await json<VendorDeleteResponse>(res)).deleted).toEqual({
        vendorId: main.vendor.id,
        products: 2,
        orders: 2,
        subscriptions: 1,
        storeVisitDays: 2,
        ownerAccountDeleted: true,
      });
      const after = await countAllRows(ctx.database);
      const changed = Object.fromEntries(
        Object.keys({ ...before, ...after })
          .filter((t) => before[t] !== after[t])
          .map((t) => [t, (after[t] ?? 0) - (before[t] ?? 0)]),
      );
      const expected: Record<string, number> = {
        vendors: -1,
        vendor_totals: -1,
        products: -2,
        orders: -2,
        subscriptions: -1,
        store_visits: -2,
        daily_vendor_totals: -2,
        users: -1,
        sessions: -1,
        audit_log: 1,
        // The decision goes out to the storefront: one artist.deleted event, in the same transaction.
        webhook_events: 1,
        payout_accounts: -1,
        // The products' days of the top lists (docs/decisions/0013-top-lists.md): one paid, one refunded.
        product_sales_days: -2,
      };
      // SQLite keeps one search row per vendor: its key, and the FTS5 row (itself, content, docsize).
      if (kind === "sqlite") Object.assign(expected, { vendor_search: -1, vendor_search_content: -1, vendor_search_docsize: -1, vendor_search_keys: -1 });
      // And one per product (SQLite: migration 013; PostgreSQL: migration 033): the products' search rows leave with them.
      if (kind === "sqlite") Object.assign(expected, { product_search: -2, product_search_content: -2, product_search_docsize: -2, product_search_keys: -2 });
      else Object.assign(expected, { product_search: -2 });
      // The trigram indexes' internal segment tables change shape on any write; everything else must match exactly.
      delete changed.vendor_search_data;
      delete changed.vendor_search_idx;
      delete changed.product_search_data;
      delete changed.product_search_idx;
      expect(changed).toEqual(expected);
      // No row anywhere still points at the vendor or its owner.
      for (const table of ["products", "orders", "subscriptions", "store_visits", "daily_vendor_totals", "vendor_totals", "payout_accounts", "payouts"] as const) {
        const rows = await ctx.database.db
          .selectFrom(table)
          .select(sql<number>`count(*)`.as("n"))
          .where("vendor_id", "=", main.vendor.id)
          .executeTakeFirstOrThrow();
        expect(Number(rows.n), table).toBe(0);
      }
      expect(await ctx.database.db.selectFrom("sessions").select("id").where("user_id", "=", main.owner.id).execute()).toEqual([]);
      expect(await compareRollups(ctx.database.db)).toEqual([]);
      // The owner's token no longer works, other vendors are untouched, search forgets the vendor.
      expect((await ctx.request("/api/auth/me", { token: main.owner.token })).status).toBe(401);
      expect(await ctx.request(`/api/admin/vendors/${other.vendor.id}`, { token: admin.token }).then((r) => r.text())).toBe(otherBefore);
      expect((await json<AdminVendorsResponse>(await get("/api/admin/vendors?search=moonlit"))).total).toBe(0);
      expect((await json<AdminVendorsResponse>(await get("/api/admin/vendors"))).counts).toEqual({ total: 2, active: 1, inactive: 1, internal: 1, applications: 0 });
      const audit = await ctx.database.db.selectFrom("audit_log").selectAll().executeTakeFirstOrThrow();
      expect(audit).toMatchObject({ action: "vendor.delete", actor_email: "ops@hki.global", target_id: main.vendor.id });
      expect(JSON.parse(audit.details)).toMatchObject({ name: "Moonlit Ceramics", ownerAccountDeleted: true, orders: 2 });
      expect((await get(`/api/admin/vendors/${main.vendor.id}`)).status).toBe(404);
    });

    it("keeps the owner's account when deleteFromClerk is false", async () => {
      expect((await del(main.vendor.id, { deleteFromClerk: false })).status).toBe(200);
      expect((await ctx.request("/api/auth/me", { token: main.owner.token })).status).toBe(200);
    });

    it("an auth-provider failure half-way leaves every row of every table as it was", async () => {
      // Tables the failed request itself writes to (the 500 is logged) are compared separately.
      const monitoring = ["error_logs", "error_log_counts", "error_log_hours", "rate_limits"];
      const before = await snapshotAllRows(ctx.database, monitoring);
      const auth = ctx.deps.auth;
      const realDelete = auth.deleteUser.bind(auth);
      auth.deleteUser = async (userId, executor) => {
        await realDelete(userId, executor); // the vendor cascade and the local account are gone by now…
        throw new Error("auth provider unavailable"); // …and then the provider fails.
      };
      const res = await del(main.vendor.id, { deleteFromClerk: true });
      expect(res.status).toBe(500);
      expect(await snapshotAllRows(ctx.database, monitoring)).toEqual(before);
      const logged = await ctx.database.db.selectFrom("error_logs").select(["status_code", "message"]).execute();
      expect(logged).toEqual([{ status_code: 500, message: "auth provider unavailable" }]);
    });

    it("400 without action=delete or a boolean deleteFromClerk, nothing written; 404 unknown", async () => {
      const before = await countAllRows(ctx.database);
      for (const [query, body, field] of [
        ["", { deleteFromClerk: true }, "action"],
        ["?action=remove", { deleteFromClerk: true }, "action"],
        ["?action=delete", { deleteFromClerk: "yes" }, "deleteFromClerk"],
        ["?action=delete", {}, "deleteFromClerk"],
      ] as const) {
        const res = await del(main.vendor.id, body, query);
        expect(res.status).toBe(400);
        expect(await res.text()).toContain(field);
      }
      expect((await del("nope", { deleteFromClerk: true })).status).toBe(404);
      const after = await countAllRows(ctx.database);
      expect({ ...after, error_logs: 0, error_log_counts: 0 }).toEqual({ ...before, error_logs: 0, error_log_counts: 0 });
    });
  });
});

describe("vendor search index (SQLite query plan)", () => {
  it("answers a search from the trigram table, not a scan of vendors", async () => {
    const ctx = await createTestContext("sqlite");
    try {
      for (let i = 0; i < 30; i++) {
        await createVendor(ctx.database.db, { name: `Store ${i}`, ownerName: "O", email: `o${i}@x.example`, slug: `store-${i}` }, ctx.clock);
      }
      const plan = ctx.database
        .sqlite!.prepare(
          `explain query plan select v.id from vendor_search join vendor_search_keys k on k.key = vendor_search.rowid
           join vendors v on v.id = k.vendor_id where vendor_search match ? order by vendor_search.rowid desc limit 20`,
        )
        .all('"ore 1"') as Array<{ detail: string }>;
      const details = plan.map((p) => p.detail).join("\n");
      expect(details).toMatch(/VIRTUAL TABLE INDEX/);
      // Keys and vendors are reached by primary key; nothing is sorted, so a page stops early.
      expect(details).not.toMatch(/SCAN (vendors|k|v)\b|TEMP B-TREE/);
    } finally {
      await ctx.close();
    }
  });
});
