import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AdminVendorsResponse, adminVendorsResponseSchema, bulkVendorStatusResponseSchema, VENDOR_SORTS, type VendorSort } from "../../../contract/vendors.ts";
import { placeOrder } from "../../domain/ledger/orders.ts";
import { createProduct } from "../../domain/ledger/products.ts";
import { compareRollups } from "../../domain/ledger/recompute.ts";
import { createVendor } from "../../domain/ledger/vendors.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { sortedVendorKeysQuery } from "./vendor-sorts.queries.ts";

/**
 * The vendor list's sorts (keyset pages in each order, every status filter, a search) and the bulk
 * status change (all or nothing, one audit row, counters and the featured artist kept right).
 */

interface Seeded {
  id: string;
  name: string;
  joinedAt: string;
  isActive: boolean;
  isInternal: boolean;
  products: number;
  revenueCents: number;
}

// Single capitalised words: byte order and any locale's order agree, so both databases sort them alike.
const NAMES = ["Quill", "Alder", "Maple", "Birch", "Hazel", "Cedar", "Willow", "Elm", "Juniper", "Larch", "Fir", "Oak", "Rowan", "Yew"];

describe.each(testDatabaseKinds)("vendor list sorts and bulk status on %s", (kind) => {
  let ctx: TestContext;
  let admin: { token: string };
  let seeded: Seeded[];

  beforeEach(async () => {
    ctx = await createTestContext(kind);
    admin = await ctx.createUser({ email: "ops@hki.global" });
    const { db } = ctx.database;
    seeded = [];
    for (const [i, name] of NAMES.entries()) {
      // Repeated figures (products 0–2, revenue in three steps) so ties are broken by id.
      const products = i % 3;
      const isInternal = i % 7 === 3;
      const isActive = i % 4 !== 1;
      const joinedAt = new Date(Date.UTC(2026, 0, 1 + ((i * 5) % 13), 8)).toISOString();
      const vendor = await createVendor(
        db,
        { name, ownerName: `${name} Owner`, email: `${name.toLowerCase()}@shop.example`, slug: `${name.toLowerCase()}-store`, isActive, isInternal, joinedAt },
        ctx.clock,
      );
      let revenueCents = 0;
      for (let p = 0; p < products; p++) {
        const product = await createProduct(db, { vendorId: vendor.id, name: `${name} piece ${p}`, priceCents: 1000, createdAt: "2026-02-01T00:00:00.000Z" }, ctx.clock);
        if (i % 2 === 0) {
          const gross = 1000 * (1 + (i % 4));
          await placeOrder(db, { vendorId: vendor.id, productId: product.id, quantity: 1, grossCents: gross, feeRateBasisPoints: 150, createdAt: "2026-02-02T00:00:00.000Z" }, ctx.clock);
          revenueCents += gross;
        }
      }
      seeded.push({ id: vendor.id, name, joinedAt: vendor.joined_at, isActive, isInternal, products, revenueCents });
    }
  });
  afterEach(async () => {
    await ctx.close();
  });

  const get = async (path: string) => {
    const res = await ctx.request(path, { token: admin.token });
    expect(res.status, await res.clone().text()).toBe(200);
    return adminVendorsResponseSchema.parse(await res.json());
  };

  /** Every page of a sorted list, following nextCursor. */
  async function walk(query: string, limit = 3): Promise<{ ids: string[]; pages: AdminVendorsResponse[] }> {
    const pages: AdminVendorsResponse[] = [];
    let cursor: string | null = null;
    do {
      const page = await get(`/api/admin/vendors?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(page.vendors.length).toBeLessThanOrEqual(limit);
      pages.push(page);
      cursor = page.nextCursor;
      expect(pages.length).toBeLessThan(20);
    } while (cursor);
    return { ids: pages.flatMap((p) => p.vendors.map((v) => v.id)), pages };
  }

  const value = (v: Seeded, key: string): string | number => (key === "name" ? v.name : key === "joined" ? v.joinedAt : key === "products" ? v.products : v.revenueCents);
  const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  function expected(sort: VendorSort, keep: (v: Seeded) => boolean = () => true): string[] {
    const descending = sort.startsWith("-");
    const key = sort.replace("-", "");
    const sign = descending ? -1 : 1;
    return seeded
      .filter(keep)
      .sort((a, b) => {
        const [x, y] = [value(a, key), value(b, key)];
        const byValue = typeof x === "number" && typeof y === "number" ? x - y : compareText(String(x), String(y));
        return sign * (byValue !== 0 ? byValue : compareText(a.id, b.id));
      })
      .map((v) => v.id);
  }

  const filters: Array<[string, (v: Seeded) => boolean]> = [
    ["", () => true],
    ["&status=active", (v) => v.isActive],
    ["&status=inactive", (v) => !v.isActive],
    ["&status=internal", (v) => v.isInternal],
  ];

  it("walks every order across pages, for every status filter, each row once", async () => {
    for (const sort of VENDOR_SORTS) {
      for (const [filter, keep] of filters) {
        const { ids, pages } = await walk(`sort=${sort}${filter}`);
        expect(ids, `${sort}${filter}`).toEqual(expected(sort, keep));
        expect(pages[0]!.total).toBe(seeded.filter(keep).length);
      }
    }
  });

  it("rows carry the figures they are sorted by; the spec's page call still pages newest joined first", async () => {
    const { pages } = await walk("sort=-revenue", 20);
    const top = pages[0]!.vendors[0]!;
    const seededTop = seeded.find((v) => v.id === top.id)!;
    expect(top).toMatchObject({ name: seededTop.name, products: seededTop.products, revenue: seededTop.revenueCents / 100 });
    const plain = await get("/api/admin/vendors?page=2&limit=5");
    expect(plain.nextCursor).toBeNull();
    expect(plain.vendors.map((v) => v.id)).toEqual(expected("-joined").slice(5, 10));
  });

  it("sorts a search's matches", async () => {
    // Every e-mail ends in shop.example; 'r@shop' matches the names ending in r.
    const withR = (v: Seeded) => v.name.endsWith("r");
    expect((await walk("search=r%40shop&sort=-name", 2)).ids).toEqual(expected("-name", withR));
    expect((await walk("search=r%40shop&sort=products&status=active", 2)).ids).toEqual(expected("products", (v) => withR(v) && v.isActive));
    const page = await get("/api/admin/vendors?search=r%40shop&sort=revenue&limit=2");
    expect(page.total).toBe(seeded.filter(withR).length);
  });

  it("a status change moves the vendor between the filters of the figure sorts (the flags follow it)", async () => {
    const target = seeded.find((v) => v.isActive && !v.isInternal)!;
    const res = await ctx.request(`/api/vendors/${target.id}/status`, { method: "PATCH", token: admin.token, json: { isActive: false, reason: "Orders not shipped" } });
    expect(res.status).toBe(200);
    target.isActive = false;
    for (const sort of ["-products", "revenue"] as const) {
      expect((await walk(`sort=${sort}&status=inactive`)).ids).toEqual(expected(sort, (v) => !v.isActive));
      expect((await walk(`sort=${sort}&status=active`)).ids).toEqual(expected(sort, (v) => v.isActive));
    }
  });

  it.runIf(kind === "sqlite")("each order and filter is one index range: no scan of the table, no sort", () => {
    for (const sort of VENDOR_SORTS) {
      for (const status of [undefined, "active", "inactive", "internal"] as const) {
        for (const after of [undefined, { value: sort.includes("joined") ? "2026-01-01T00:00:00.000Z" : sort.includes("name") ? "M" : 3, id: "m" }]) {
          const compiled = sortedVendorKeysQuery(sort, status, after, 21).compile(ctx.database.db);
          const rows = ctx.database.sqlite!.prepare(`explain query plan ${compiled.sql}`).all(...(compiled.parameters as unknown[])) as Array<{ detail: string }>;
          const plan = rows.map((r) => r.detail).join(" | ");
          expect(plan, `${sort} ${status ?? "all"}`).toMatch(/USING (COVERING )?INDEX (vendors|vendor_totals)_\w+_idx/);
          expect(plan, `${sort} ${status ?? "all"}`).not.toMatch(/TEMP B-TREE|SCAN (vendors|vendor_totals)$/);
        }
      }
    }
  });

  it("400 for an unknown sort, a malformed cursor, or a cursor of another sort", async () => {
    const bad = async (query: string, field: string) => {
      const res = await ctx.request(`/api/admin/vendors?${query}`, { token: admin.token });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { fields: Record<string, string> } }).error.fields).toHaveProperty(field);
    };
    await bad("sort=size", "sort");
    await bad("sort=name&cursor=nonsense", "cursor");
    const byName = await get("/api/admin/vendors?sort=name&limit=2");
    await bad(`sort=joined&cursor=${encodeURIComponent(byName.nextCursor!)}`, "cursor");
    await bad(`sort=products&cursor=${encodeURIComponent(byName.nextCursor!)}`, "cursor");
  });

  describe("POST /api/admin/vendors/bulk-status", () => {
    const bulk = (json: unknown) => ctx.request("/api/admin/vendors/bulk-status", { method: "POST", token: admin.token, json });
    const snapshot = async () => ({
      flags: await ctx.database.db.selectFrom("vendors").select(["id", "is_active", "updated_at"]).orderBy("id").execute(),
      counts: (await get("/api/admin/vendors")).counts,
      audit: await ctx.database.db.selectFrom("audit_log").select(["action", "details"]).orderBy("created_at").orderBy("id").execute(),
    });

    it("one unknown id refuses the whole request and changes nothing", async () => {
      const before = await snapshot();
      const active = seeded.filter((v) => v.isActive).map((v) => v.id);
      const res = await bulk({ ids: [...active.slice(0, 3), "no-such-vendor"], isActive: false, reason: "Orders not shipped" });
      expect(res.status).toBe(404);
      expect(await res.text()).toContain("no-such-vendor");
      expect(await snapshot()).toEqual(before);
    });

    it("disables several at once: counters, sorts' flags, one audit row; already-disabled ones are unchanged", async () => {
      const active = seeded.filter((v) => v.isActive).slice(0, 3);
      const inactive = seeded.find((v) => !v.isActive)!;
      const before = (await get("/api/admin/vendors")).counts;
      const res = await bulk({ ids: [...active.map((v) => v.id), inactive.id], isActive: false, reason: "Orders not shipped" });
      expect(res.status).toBe(200);
      expect(bulkVendorStatusResponseSchema.parse(await res.json())).toEqual({ changed: 3, unchanged: 1 });
      const after = (await get("/api/admin/vendors")).counts;
      expect(after).toEqual({ ...before, active: before.active - 3, inactive: before.inactive + 3 });
      for (const v of active) v.isActive = false;
      expect((await walk("sort=-revenue&status=inactive")).ids).toEqual(expected("-revenue", (v) => !v.isActive));
      const audit = await ctx.database.db.selectFrom("audit_log").selectAll().where("action", "like", "vendor.%").execute();
      expect(audit.map((a) => a.action)).toEqual(["vendor.bulk_disable"]);
      // The row names the vendors this disabled (each active before); the one already disabled is only counted.
      expect(JSON.parse(audit[0]!.before_value!)).toEqual({ isActive: true });
      expect(JSON.parse(audit[0]!.details!)).toEqual({ vendorIds: active.map((v) => v.id), unchanged: 1, reason: "Orders not shipped" });
      expect(await compareRollups(ctx.database.db)).toEqual([]);

      // And back: enabling them again restores the counts.
      const again = await bulk({ ids: active.map((v) => v.id), isActive: true });
      expect(bulkVendorStatusResponseSchema.parse(await again.json())).toEqual({ changed: 3, unchanged: 0 });
      expect((await get("/api/admin/vendors")).counts).toEqual(before);
    });

    it("ends a disabled vendor's feature, as the single change does", async () => {
      const artist = seeded.find((v) => v.isActive && !v.isInternal)!;
      const featured = await ctx.request("/api/admin/featured-artist", { method: "POST", token: admin.token, json: { vendorId: artist.id, duration: 7 } });
      expect(featured.status).toBe(201);
      const res = await bulk({ ids: [artist.id], isActive: false, reason: "Orders not shipped" });
      expect(res.status).toBe(200);
      const slot = await ctx.database.db.selectFrom("featured_artists").select(["ended_at", "end_reason"]).where("vendor_id", "=", artist.id).executeTakeFirstOrThrow();
      expect(slot.end_reason).toBe("vendor_disabled");
      expect(slot.ended_at).not.toBeNull();
    });

    it("400 for an empty list, more than 500 ids, a repeated id, a non-boolean or an extra key", async () => {
      const id = seeded[0]!.id;
      for (const body of [
        { ids: [], isActive: false },
        { ids: Array.from({ length: 501 }, (_, i) => `v-${i}`), isActive: false },
        { ids: [id, id], isActive: false },
        { ids: [id], isActive: "no" },
        { ids: [id], isActive: false, force: true },
      ]) {
        expect((await bulk(body)).status, JSON.stringify(body).slice(0, 80)).toBe(400);
      }
    });
  });
});
