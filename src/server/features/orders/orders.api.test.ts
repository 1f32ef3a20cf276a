import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExportResponseSchema } from "../../../contract/exports.ts";
import { AMOUNT_SORT_CAP, ORDER_SORTS, type OrderListItem, type OrderSort, orderDetailSchema, ordersResponseSchema } from "../../../contract/orders.ts";
import { cancelOrder, placeOrder, refundOrder, refundOrderPart } from "../../domain/ledger/orders.ts";
import { createProduct } from "../../domain/ledger/products.ts";
import { createVendor } from "../../domain/ledger/vendors.ts";
import { fixedClock } from "../../platform/clock.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";

/**
 * The Orders screen over HTTP (docs/product.md "Orders") on both databases: 240 order lines paged
 * through in every order and filter (no row twice, none missing, in order) against the raw rows,
 * the detail of a storefront order split across artists with its refunds, the CSV export, the 400s
 * and who may read.
 */

const ORDERS = 240;
const BUYERS = 12;

interface Raw {
  id: string;
  vendor_id: string;
  status: string;
  customer_email: string | null;
  external_order_id: string | null;
  gross_cents: number;
  created_at: string;
  refunded_cents: number;
  dispute_open: number;
}

function compare(sort: OrderSort) {
  const key = (o: Raw): string | number => (sort.endsWith("amount") ? o.gross_cents : o.created_at);
  const descending = sort === "newest" || sort.startsWith("-");
  return (a: Raw, b: Raw) => {
    const ka = key(a);
    const kb = key(b);
    const c = ka < kb ? -1 : ka > kb ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    return descending ? -c : c;
  };
}

describe.each(testDatabaseKinds)("orders API (%s)", (kind) => {
  let ctx: TestContext;
  let admin: { token: string };
  const vendorIds: string[] = [];

  const get = async (path: string, token = admin.token) => {
    const res = await ctx.request(path, { token });
    return { status: res.status, body: (await res.json()) as { error?: { fields?: Record<string, string> } } & Record<string, unknown> };
  };
  const list = async (query: Record<string, string>) => {
    const res = await get(`/api/admin/orders?${new URLSearchParams(query)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return ordersResponseSchema.parse(res.body);
  };
  const allPages = async (query: Record<string, string>, limit = 7) => {
    const seen: OrderListItem[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await list({ ...query, limit: String(limit), ...(cursor ? { cursor } : {}) });
      expect(page.orders.length).toBeLessThanOrEqual(limit);
      seen.push(...page.orders);
      cursor = page.nextCursor;
      expect(++pages).toBeLessThan(ORDERS);
    } while (cursor);
    return seen;
  };
  const raw = async (): Promise<Raw[]> =>
    (
      await ctx.database.db.selectFrom("orders").select(["id", "vendor_id", "status", "customer_email", "external_order_id", "gross_cents", "created_at", "refunded_cents", "dispute_open"]).execute()
    ).map((r) => ({
      ...r,
      gross_cents: Number(r.gross_cents),
      refunded_cents: Number(r.refunded_cents),
      dispute_open: Number(r.dispute_open),
    }));

  beforeAll(async () => {
    ctx = await createTestContext(kind, { now: "2026-11-20T00:00:00.000Z" });
    admin = await ctx.createUser({ email: "orders-admin@hki.global", role: "admin" });
    const db = ctx.database.db;
    const productIds: string[] = [];
    for (let v = 0; v < 3; v++) {
      const vendor = await createVendor(db, { name: `Studio ${v}`, ownerName: `Owner ${v}`, email: `studio${v}@example.com`, slug: `studio-${v}`, joinedAt: "2026-01-01T00:00:00.000Z" }, ctx.clock);
      vendorIds.push(vendor.id);
      productIds.push((await createProduct(db, { vendorId: vendor.id, name: `Print ${v}`, priceCents: 2000 + v * 500 }, ctx.clock)).id);
    }
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < ORDERS; i++) {
        // Ties everywhere: three lines share each time (one storefront order, one line per artist), amounts repeat.
        const created = new Date(Date.UTC(2026, 9, 1) + Math.floor(i / 3) * 6 * 3_600_000).toISOString();
        const order = await placeOrder(
          trx,
          {
            vendorId: vendorIds[i % 3]!,
            productId: productIds[i % 3]!,
            quantity: 1 + (i % 2),
            grossCents: ((i * 37) % 20) * 100 + 500,
            feeRateBasisPoints: 1000,
            createdAt: created,
            customerEmail: i % 17 === 5 ? null : `buyer${Math.floor(i / 3) % BUYERS}@example.com`,
            externalOrderId: `ord_${Math.floor(i / 3)}`,
            externalLineId: `line_${i % 3}`,
          },
          ctx.clock,
        );
        if (i % 11 === 0) await refundOrder(trx, order.id, fixedClock(new Date(Date.parse(created) + 3_600_000).toISOString()));
        else if (i % 13 === 0) await cancelOrder(trx, order.id, fixedClock(new Date(Date.parse(created) + 3_600_000).toISOString()));
        else if (i % 7 === 0)
          await refundOrderPart(trx, order.id, { refundId: `re_${i}`, amountCents: 200, refundedAt: new Date(Date.parse(created) + 7_200_000).toISOString(), reason: "Arrived broken" });
      }
      // Lines whose charge is disputed (the flag the ledger's disputes keep, ledger/disputes.ts).
      await trx.updateTable("orders").set({ dispute_open: 1 }).where("external_order_id", "in", ["ord_4", "ord_9", "ord_30", "ord_61"]).execute();
    });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it("lists every order line exactly once, newest first by default", async () => {
    const all = await raw();
    const first = await list({});
    expect(first.orders).toHaveLength(50);
    expect(first.orders.map((o) => o.id)).toEqual(
      [...all]
        .sort(compare("newest"))
        .slice(0, 50)
        .map((o) => o.id),
    );
    expect(first.orders[0]).toMatchObject({ vendorName: expect.stringMatching(/^Studio /), productName: expect.stringMatching(/^Print /), externalOrderId: expect.stringMatching(/^ord_/) });
  });

  const cases: Array<[string, Record<string, string>, (o: Raw) => boolean]> = [
    ["no filter", {}, () => true],
    ["a status", { status: "refunded" }, (o) => o.status === "refunded"],
    ["an artist", { vendorId: "V1" }, (o) => o.vendor_id === "V1"],
    ["an artist and a status", { vendorId: "V2", status: "paid" }, (o) => o.vendor_id === "V2" && o.status === "paid"],
    ["a buyer's e-mail, in another case", { search: "  BUYER3@Example.com " }, (o) => o.customer_email === "buyer3@example.com"],
    ["a storefront order id", { search: "ord_40" }, (o) => o.external_order_id === "ord_40"],
    ["a date range", { from: "2026-10-10", to: "2026-10-20" }, (o) => o.created_at >= "2026-10-10T00:00:00.000Z" && o.created_at < "2026-10-21T00:00:00.000Z"],
    [
      "a date range, a status and an artist",
      { from: "2026-10-05T00:00:00Z", to: "2026-10-25", status: "paid", vendorId: "V0" },
      (o) => o.created_at >= "2026-10-05T00:00:00.000Z" && o.created_at < "2026-10-26T00:00:00.000Z" && o.status === "paid" && o.vendor_id === "V0",
    ],
    ["a buyer and a status", { search: "buyer4@example.com", status: "paid" }, (o) => o.customer_email === "buyer4@example.com" && o.status === "paid"],
    ["partly refunded lines", { status: "partially_refunded" }, (o) => o.status === "paid" && o.refunded_cents > 0],
    ["an artist's partly refunded lines", { vendorId: "V1", status: "partially_refunded" }, (o) => o.vendor_id === "V1" && o.status === "paid" && o.refunded_cents > 0],
    ["disputed lines", { status: "disputed" }, (o) => o.dispute_open === 1],
    ["a week of disputed lines", { status: "disputed", from: "2026-10-01", to: "2026-10-10" }, (o) => o.dispute_open === 1 && o.created_at < "2026-10-11T00:00:00.000Z"],
  ];
  const withVendor = (q: Record<string, string>) => (q.vendorId ? { ...q, vendorId: vendorIds[Number(q.vendorId.slice(1))]! } : q);
  const vendorOf = (test: (o: Raw) => boolean) => (o: Raw) => test({ ...o, vendor_id: `V${vendorIds.indexOf(o.vendor_id)}` });

  for (const [name, query, test] of cases) {
    it(`pages through ${name} in every order, each line once and in order`, async () => {
      const all = (await raw()).filter(vendorOf(test));
      expect(all.length).toBeGreaterThan(0);
      for (const sort of ORDER_SORTS) {
        const seen = await allPages({ ...withVendor(query), sort });
        expect(
          seen.map((o) => o.id),
          `${name} by ${sort}`,
        ).toEqual([...all].sort(compare(sort)).map((o) => o.id));
      }
    });
  }

  it("finds nothing for an unknown order id or e-mail", async () => {
    expect((await list({ search: "ord_nope" })).orders).toEqual([]);
    expect((await list({ search: "nobody@example.com" })).orders).toEqual([]);
  });

  it("opens a line with the other lines of its storefront order, its amounts, refunds and timeline", async () => {
    // Line 7 (ord_2, line_1): part-refunded $2.00 with a reason; its siblings are the other artists' lines.
    const line = (await list({ search: "ord_2" })).orders.find((o) => o.externalLineId === "line_1")!;
    expect(line.refundedInParts).toBe(2);
    const res = await get(`/api/admin/orders/${line.id}`);
    expect(res.status).toBe(200);
    const detail = orderDetailSchema.parse(res.body);
    expect(detail.siblings.map((s) => s.externalLineId)).toEqual(["line_0", "line_1", "line_2"]);
    expect(new Set(detail.siblings.map((s) => s.vendorId))).toEqual(new Set(vendorIds));
    expect(detail.vendor).toMatchObject({ id: vendorIds[1], name: "Studio 1", slug: "studio-1", isActive: true });
    const charged = ((7 * 37) % 20) + 5;
    expect(detail.amounts).toEqual({
      charged,
      refunded: 2,
      platformFee: Math.round((charged - 2) * 10) / 100,
      artistNet: charged - 2 - Math.round((charged - 2) * 10) / 100,
      feeRateBasisPoints: 1000,
    });
    expect(detail.refunds).toEqual([{ refundId: "re_7", amount: 2, refundedAt: expect.any(String), reason: "Arrived broken", by: null, nettedFromNextPayout: false }]);
    expect(detail.timeline.map((e) => [e.kind, e.amount])).toEqual([
      ["placed", charged],
      ["refunded", 2],
    ]);
  });

  it("shows a line refunded whole as refunded, with nothing left to the artist or the platform", async () => {
    const refunded = (await list({ status: "refunded", limit: "1" })).orders[0]!;
    const detail = orderDetailSchema.parse((await get(`/api/admin/orders/${refunded.id}`)).body);
    expect(detail.amounts.refunded).toBe(detail.amounts.charged);
    expect(detail.amounts.artistNet).toBe(0);
    expect(detail.amounts.platformFee).toBe(0);
    expect(detail.timeline.map((e) => e.kind)).toEqual(["placed", "refunded"]);
  });

  it("answers 404 for an unknown order", async () => {
    expect((await get("/api/admin/orders/no-such-order")).status).toBe(404);
  });

  it("refuses a bad query with a 400 naming the field", async () => {
    const bad: Array<[string, string]> = [
      ["status=lost", "status"],
      ["sort=price", "sort"],
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["from=yesterday", "from"],
      ["to=2026-02-30", "to"],
      ["from=2026-10-10&to=2026-10-01", "to"],
      ["cursor=not-a-cursor", "cursor"],
      ["page=2", "page"],
      ["status=paid&status=refunded", "status"],
    ];
    for (const [query, field] of bad) {
      const res = await get(`/api/admin/orders?${query}`);
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.body.error?.fields ?? {}), query).toContain(field);
    }
    // A cursor made for one order is refused in another.
    const byDate = await list({ limit: "5" });
    const res = await get(`/api/admin/orders?sort=amount&cursor=${byDate.nextCursor!}`);
    expect(res.status).toBe(400);
    expect(res.body.error?.fields).toHaveProperty("cursor");
  });

  it("lets every panel role read, and nobody else", async () => {
    const viewer = await ctx.createUser({ email: "orders-viewer@example.com", role: "viewer" });
    const artist = await ctx.createUser({ email: "orders-artist@example.com", role: "user" });
    const some = (await list({ limit: "1" })).orders[0]!;
    for (const path of ["/api/admin/orders", `/api/admin/orders/${some.id}`]) {
      expect((await ctx.request(path)).status, path).toBe(401);
      expect((await get(path, artist.token)).status, path).toBe(403);
      expect((await get(path, viewer.token)).status, path).toBe(200);
    }
  });

  it("exports the filters on screen as CSV, newest first", async () => {
    const filters = { vendorId: vendorIds[0]!, status: "paid" };
    const created = await ctx.request("/api/admin/exports", { method: "POST", token: admin.token, json: { kind: "orders", filters } });
    expect(created.status, await created.clone().text()).toBe(201);
    const res = await ctx.request(new URL(createExportResponseSchema.parse(await created.json()).url).pathname);
    expect(res.status).toBe(200);
    const lines = (await res.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toContain("Placed,Order id,Line id,Panel id,Buyer e-mail,Artist");
    const expected = (await raw()).filter((o) => o.vendor_id === vendorIds[0] && o.status === "paid").sort(compare("newest"));
    expect(lines.slice(1).map((l) => l.split(",")[3])).toEqual(expected.map((o) => o.id));
    const refused = await ctx.request("/api/admin/exports", { method: "POST", token: admin.token, json: { kind: "orders", filters: { state: "paid" } } });
    expect(refused.status).toBe(400);
  });
});

describe.each(testDatabaseKinds)("orders API: sorting by amount within dates (%s)", (kind) => {
  let ctx: TestContext;
  let token: string;
  beforeAll(async () => {
    ctx = await createTestContext(kind, { now: "2026-11-20T00:00:00.000Z" });
    token = (await ctx.createUser({ email: "orders-cap@hki.global", role: "admin" })).token;
    const vendor = await createVendor(ctx.database.db, { name: "Busy Studio", ownerName: "O", email: "busy@example.com", slug: "busy-studio" }, ctx.clock);
    // One more order in a day than an amount sort reads and sorts (rows written directly: only the list reads them).
    const rows = Array.from({ length: AMOUNT_SORT_CAP + 1 }, (_, i) => {
      const at = new Date(Date.UTC(2026, 9, 1) + i * 10_000).toISOString();
      return {
        id: `cap-${String(i).padStart(5, "0")}`,
        vendor_id: vendor.id,
        product_id: null,
        product_name: "Print",
        quantity: 1,
        gross_cents: (i * 7919) % 10_000,
        fee_cents: 0,
        fee_rate_basis_points: 0,
        status: "paid" as const,
        customer_email: null,
        created_at: at,
        updated_at: at,
      };
    });
    for (let i = 0; i < rows.length; i += 500)
      await ctx.database.db
        .insertInto("orders")
        .values(rows.slice(i, i + 500))
        .execute();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it(`sorts up to ${AMOUNT_SORT_CAP} orders of a date range by amount, and names \`sort\` beyond; by date any range pages`, async () => {
    const get = async (query: string) => {
      const res = await ctx.request(`/api/admin/orders?${query}`, { token });
      return { status: res.status, body: (await res.json()) as { error?: { fields?: Record<string, string> } } };
    };
    const within = await get("from=2026-10-01T00:00:00Z&to=2026-10-01T01:00:00Z&sort=-amount&limit=100");
    expect(within.status).toBe(200);
    const amounts = ordersResponseSchema.parse(within.body).orders.map((o) => o.amount);
    expect(amounts).toHaveLength(100);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    const beyond = await get("from=2026-10-01&to=2026-10-02&sort=-amount");
    expect(beyond.status).toBe(400);
    expect(Object.keys(beyond.body.error?.fields ?? {})).toEqual(["sort"]);
    expect((await get("from=2026-10-01&to=2026-10-02&sort=-created")).status).toBe(200);
    // Without dates the amount index serves every order.
    expect(ordersResponseSchema.parse((await get("sort=-amount&limit=1")).body).orders[0]!.amount).toBe(99.99);
  });
});
