import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { dashboardStatsSchema } from "../../../contract/dashboard.ts";
import { financialOverviewResponseSchema, balancesResponseSchema } from "../../../contract/financials.ts";
import { productsSummarySchema } from "../../../contract/products.ts";
import { vendorDetailSchema } from "../../../contract/vendors.ts";
import { rollPeriodWindows } from "../../domain/ledger/period-totals.ts";
import { lapseStorefrontSubscriptions, sweepStorefrontEvents } from "./storefront-events-retention.job.ts";
import { compareRollups } from "../../domain/ledger/recompute.ts";
import { databaseChecksum } from "../../testing/db-checksum.ts";
import { artist, event, order, postEvents, product, send, type StorefrontEvent } from "../../testing/storefront-events.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";

const NOW = "2026-11-22T12:00:00.000Z";
const EARLIER = "2026-11-22T11:00:00.000Z";
const LATER = "2026-11-22T12:30:00.000Z";
/** Tables a refused or repeated event must leave as they were (the key's rate and use are counted before reading). */
const UNCHANGED = { exclude: ["rate_limits", "api_keys"] };

describe.each(testDatabaseKinds)("POST /api/events (%s)", (kind) => {
  let ctx: TestContext;
  let admin: { token: string };
  let key: string;

  const get = async <T>(path: string, schema: { parse: (v: unknown) => T }): Promise<T> => {
    const res = await ctx.request(path, { token: admin.token });
    expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
    return schema.parse(await res.json());
  };
  const dashboard = () => get("/api/admin/dashboard/stats", dashboardStatsSchema);
  const vendorIdOf = async (artistId: string) => (await ctx.database.db.selectFrom("vendors").select("id").where("external_id", "=", artistId).executeTakeFirst())?.id;
  const vendor = async (artistId: string) => get(`/api/admin/vendors/${await vendorIdOf(artistId)}`, vendorDetailSchema);
  const summary = () => get("/api/admin/products/summary", productsSummarySchema);
  const overview = () => get("/api/admin/financial/overview?period=7", financialOverviewResponseSchema);
  const balanceOf = async (artistId: string) =>
    (await get("/api/admin/financial/balances", balancesResponseSchema)).balances.find((b) => b.vendorId === undefined || b.vendorName === `Studio ${artistId}`)?.balance ?? 0;
  const statuses = (results: Array<{ status: string }>) => results.map((r) => r.status);
  const rollupsExact = async () => expect(await compareRollups(ctx.database.db)).toEqual([]);

  beforeEach(async () => {
    ctx = await createTestContext(kind, { now: NOW });
    admin = await ctx.createUser({ email: "boss@hki.global", role: "admin" });
    key = (await ctx.createApiKey()).key;
  });
  afterEach(async () => {
    await ctx.close();
  });

  it("applies every event type, moving each screen's figures exactly, and every rollup equals a recompute", async () => {
    const start = await dashboard();
    expect(statuses(await send(ctx, key, [event("artist.created", artist("a1")), event("artist.created", artist("a2", { isInternal: false, stripeAccountId: "acct_123" }))]))).toEqual([
      "applied",
      "applied",
    ]);
    let d = await dashboard();
    expect([d.totalVendors - start.totalVendors, d.activeVendors - start.activeVendors]).toEqual([2, 2]);
    expect(d.recentActivity.map((a) => a.name)).toContain("Studio a1");

    await send(ctx, key, [
      event("product.created", product("p1", "a1", { priceCents: 2500 })),
      event("product.created", product("p2", "a2", { priceCents: 10_000 })),
      event("product.created", product("p3", "a2", { status: "draft" })),
    ]);
    d = await dashboard();
    expect(d.totalProducts - start.totalProducts).toBe(2);
    expect((await summary()).counts).toMatchObject({ total: 3, active: 2, draft: 1 });
    expect((await vendor("a2")).stats.totalProducts).toBe(1);

    // One storefront order over two artists: an order per line, each artist's sales and balance.
    const results = await send(ctx, key, [
      event(
        "order.paid",
        order("o1", [
          { lineId: "l1", productId: "p1", artistId: "a1", quantity: 2, unitPriceCents: 2500 },
          { lineId: "l2", productId: "p2", artistId: "a2", quantity: 1, unitPriceCents: 10_000 },
        ]),
      ),
    ]);
    expect(statuses(results)).toEqual(["applied"]);
    d = await dashboard();
    expect(d.todaySales).toBe(150);
    // 1.5 % of each line, fixed on the order: 0.75 + 1.50.
    expect(d.platformFees).toBe(2.25);
    expect((await vendor("a1")).stats).toMatchObject({ revenue: 50, totalSales: 1, lastSaleDate: NOW });
    expect((await vendor("a2")).stats).toMatchObject({ revenue: 100, totalSales: 1 });
    expect(await balanceOf("a1")).toBe(49.25);
    expect(await balanceOf("a2")).toBe(98.5);

    // A partial refund, then the rest of the line: refunds add up on the refund's day.
    ctx.clock.set(LATER);
    expect(statuses(await send(ctx, key, [event("order.refunded", { orderId: "o1", refundId: "r1", amountCents: 2000, lines: [{ lineId: "l2", amountCents: 2000 }] }, LATER)]))).toEqual(["applied"]);
    d = await dashboard();
    expect(d.todaySales).toBe(130);
    expect((await vendor("a2")).stats.revenue).toBe(80);
    expect(await balanceOf("a2")).toBe(78.8);
    expect(statuses(await send(ctx, key, [event("order.refunded", { orderId: "o1", refundId: "r2", amountCents: 8000, lines: [{ lineId: "l2", amountCents: 8000 }] }, LATER)]))).toEqual(["applied"]);
    expect((await vendor("a2")).stats).toMatchObject({ revenue: 0, totalSales: 0, lastSaleDate: null });
    expect((await overview()).refunds).toBe(100);
    expect((await dashboard()).todaySales).toBe(50);

    await send(ctx, key, [event("subscription.paid", { subscriptionId: "s1", artistId: "a1", periodStart: "2026-11-01T00:00:00Z", periodEnd: "2026-12-01T00:00:00Z", amountCents: 2999 })]);
    expect((await dashboard()).monthlyRecurring - start.monthlyRecurring).toBe(29.99);
    // A yearly payment counts as its monthly share.
    await send(ctx, key, [event("subscription.paid", { subscriptionId: "s2", artistId: "a2", periodStart: "2026-11-01T00:00:00Z", periodEnd: "2027-11-01T00:00:00Z", amountCents: 12_000 })]);
    expect((await dashboard()).monthlyRecurring - start.monthlyRecurring).toBe(39.99);

    await send(ctx, key, [event("store.visits", { artistId: "a1", day: "2026-11-22", visits: 40 })]);
    expect((await vendor("a1")).stats.conversionRate).toBe(2.5);
    // The day's count is set, not added: sending it again (as it grows) is harmless.
    await send(ctx, key, [event("store.visits", { artistId: "a1", day: "2026-11-22", visits: 50 }, LATER)]);
    expect((await vendor("a1")).stats.conversionRate).toBe(2);

    await send(ctx, key, [event("error.reported", { level: "error", message: "Checkout failed: upstream said password=hunter2-secret", endpoint: "/checkout", method: "POST", statusCode: 502 })]);
    const errors = (await (await ctx.request("/api/admin/errors?view=active", { token: admin.token })).json()) as { errors?: Array<{ message: string }>; items?: Array<{ message: string }> };
    const messages = JSON.stringify(errors);
    expect(messages).toContain("Checkout failed");
    expect(messages).not.toContain("hunter2-secret");

    await rollupsExact();

    await send(ctx, key, [event("product.deleted", { productId: "p1" }, LATER)]);
    expect((await dashboard()).totalProducts - start.totalProducts).toBe(1);
    // The sale stays the artist's: its order remains, no longer naming the product.
    expect((await vendor("a1")).stats.revenue).toBe(50);
    await send(ctx, key, [event("artist.deleted", { artistId: "a2" }, LATER)]);
    d = await dashboard();
    expect(d.totalVendors - start.totalVendors).toBe(1);
    expect(d.totalProducts - start.totalProducts).toBe(0);
    expect(d.monthlyRecurring - start.monthlyRecurring).toBe(29.99);
    await rollupsExact();
  });

  it("refuses bad events one by one, naming the field, applying the good ones around them and nothing of the bad", async () => {
    await send(ctx, key, [event("artist.created", artist("a1")), event("product.created", product("p1", "a1"))]);
    const before = await databaseChecksum(ctx.database.db, UNCHANGED);
    const bad: Array<[StorefrontEvent, string, string]> = [
      [event("artist.created", { ...artist("a9"), email: "not-an-email" }), "invalid_input", "data.email"],
      [event("artist.created", { ...artist("a9"), favouriteColour: "blue" }), "invalid_input", "data.favouriteColour"],
      [event("product.created", product("p9", "a1", { priceCents: -5 })), "invalid_input", "data.priceCents"],
      [event("product.created", product("p9", "a1", { priceCents: 1e20 })), "invalid_input", "data.priceCents"],
      [event("artist.exploded", {}), "invalid_input", "type"],
      [{ ...event("store.visits", { artistId: "a1", day: "2026-11-22", visits: 1 }), occurredAt: "yesterday" }, "invalid_input", "occurredAt"],
      [event("store.visits", { artistId: "a1", day: "2026-02-30", visits: 1 }), "invalid_input", "data.day"],
      [event("product.created", product("p9", "ghost")), "unknown_artist", "data.artistId"],
      [event("order.paid", order("o9", [{ lineId: "l1", productId: "nope", artistId: "a1" }])), "unknown_product", "data.lines.0.productId"],
      [
        event(
          "order.paid",
          order("o9", [
            { lineId: "l1", productId: "p1", artistId: "a1" },
            { lineId: "l1", productId: "p1", artistId: "a1" },
          ]),
        ),
        "invalid_input",
        "data.lines",
      ],
      [event("order.refunded", { orderId: "nope", refundId: "r1", amountCents: 100 }), "unknown_order", "data.orderId"],
      [event("subscription.paid", { subscriptionId: "s1", artistId: "a1", periodStart: "2026-11-02T00:00:00Z", periodEnd: "2026-11-01T00:00:00Z", amountCents: 1 }), "invalid_input", "data.periodEnd"],
      [event("artist.created", { ...artist("a9"), slug: "studio-a1" }), "invalid_input", "data.slug"],
      [event("artist.created", { ...artist("a9"), name: "Evil\u202Egnp.exe" }), "invalid_input", "data.name"],
      [event("error.reported", { level: "fatal", message: "x" }), "invalid_input", "data.level"],
    ];
    const results = await send(
      ctx,
      key,
      bad.map(([e]) => e),
    );
    for (const [i, [e, code, field]] of bad.entries()) {
      expect(results[i], e.type).toMatchObject({ id: e.id, status: "rejected", error: { code } });
      expect(Object.keys(results[i]!.error!.fields ?? {}), `${e.type} ${code}`).toContain(field);
    }
    expect(await databaseChecksum(ctx.database.db, UNCHANGED)).toEqual(before);

    // Refunds beyond what was paid: exceeds_paid, and nothing of it is kept.
    await send(ctx, key, [event("order.paid", order("o1", [{ lineId: "l1", productId: "p1", artistId: "a1", quantity: 1, unitPriceCents: 2500 }]))]);
    const paid = await databaseChecksum(ctx.database.db, UNCHANGED);
    const over = await send(ctx, key, [
      event("order.refunded", { orderId: "o1", refundId: "r1", amountCents: 2501 }),
      event("order.refunded", {
        orderId: "o1",
        refundId: "r2",
        amountCents: 10,
        lines: [
          { lineId: "l1", amountCents: 5 },
          { lineId: "lx", amountCents: 5 },
        ],
      }),
    ]);
    expect(over.map((r) => r.error?.code)).toEqual(["exceeds_paid", "invalid_input"]);
    expect(await databaseChecksum(ctx.database.db, UNCHANGED)).toEqual(paid);
    expect(
      statuses(await send(ctx, key, [event("order.refunded", { orderId: "o1", refundId: "r3", amountCents: 2000 }), event("order.refunded", { orderId: "o1", refundId: "r4", amountCents: 501 })])),
    ).toEqual(["applied", "rejected"]);

    // The same id with another body: id_reused; the first stays as it was.
    const first = event("artist.created", artist("a5"));
    await send(ctx, key, [first]);
    const reused = await send(ctx, key, [{ ...first, data: { ...artist("a5"), name: "Another" } }]);
    expect(reused[0]).toMatchObject({ status: "rejected", error: { code: "id_reused" } });
    expect((await ctx.database.db.selectFrom("vendors").select("name").where("external_id", "=", "a5").executeTakeFirstOrThrow()).name).toBe("Studio a5");
    await rollupsExact();
  });

  it("answers an unreadable envelope 400 and applies nothing of it; over 1 MB 413", async () => {
    const before = await databaseChecksum(ctx.database.db, UNCHANGED);
    for (const body of [
      {},
      { events: [] },
      { events: "x" },
      { events: [{ type: "artist.created" }] },
      { events: [{ id: "", type: "artist.created" }] },
      { events: [{ ...event("artist.created", artist("a1")), extra: 1 }] },
    ]) {
      const res = await ctx.request("/api/events", { method: "POST", token: key, json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { error: { fields?: object } }).error.fields).toBeDefined();
    }
    const tooMany = Array.from({ length: 501 }, (_, i) => event("store.visits", { artistId: "a1", day: "2026-11-22", visits: i }));
    expect((await postEvents(ctx, key, tooMany)).status).toBe(400);
    const huge = [event("error.reported", { level: "error", message: "x".repeat(1_100_000) })];
    // In-process: the answer to a body over the limit, whatever the socket does with the rest of it.
    const tooBig = await ctx.app.request("/api/events", { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ events: huge }) });
    expect(tooBig.status).toBe(413);
    expect((await ctx.request("/api/events", { method: "POST", token: key, body: "{not json", headers: { "content-type": "application/json" } })).status).toBe(400);
    expect(await databaseChecksum(ctx.database.db, UNCHANGED)).toEqual(before);
  });

  it("a re-sent batch and duplicates change nothing: applied once, answered duplicate", async () => {
    const batch = [
      event("artist.created", artist("a1")),
      event("product.created", product("p1", "a1")),
      event("order.paid", order("o1", [{ lineId: "l1", productId: "p1", artistId: "a1", quantity: 3 }])),
      event("order.refunded", { orderId: "o1", refundId: "r1", amountCents: 100 }),
      event("subscription.paid", { subscriptionId: "s1", artistId: "a1", periodStart: "2026-11-01T00:00:00Z", periodEnd: "2026-12-01T00:00:00Z", amountCents: 2999 }),
      event("store.visits", { artistId: "a1", day: "2026-11-22", visits: 7 }),
    ];
    expect(statuses(await send(ctx, key, batch))).toEqual(Array(6).fill("applied"));
    const after = await databaseChecksum(ctx.database.db, UNCHANGED);
    expect(statuses(await send(ctx, key, batch))).toEqual(Array(6).fill("duplicate"));
    // The same event twice in one batch, and the same order or refund under a new event id.
    const again = await send(ctx, key, [
      batch[2]!,
      batch[2]!,
      event("order.paid", order("o1", [{ lineId: "l1", productId: "p1", artistId: "a1", quantity: 3 }])),
      event("order.refunded", { orderId: "o1", refundId: "r1", amountCents: 100 }),
    ]);
    expect(statuses(again)).toEqual(["duplicate", "duplicate", "duplicate", "duplicate"]);
    expect(await databaseChecksum(ctx.database.db, UNCHANGED)).toEqual(after);
    await rollupsExact();
  });

  it("an update older than the last applied is stale and changes nothing; a deletion makes later creations of it stale", async () => {
    await send(ctx, key, [event("artist.created", artist("a1"), NOW), event("product.created", product("p1", "a1"), NOW)]);
    const before = await databaseChecksum(ctx.database.db, UNCHANGED);
    const late = await send(ctx, key, [
      event("artist.updated", artist("a1", { name: "Old name" }), EARLIER),
      event("product.updated", product("p1", "a1", { name: "Old title", status: "draft" }), EARLIER),
      event("store.visits", { artistId: "a1", day: "2026-11-22", visits: 3 }, LATER),
      event("store.visits", { artistId: "a1", day: "2026-11-22", visits: 2 }, NOW),
    ]);
    expect(statuses(late)).toEqual(["stale", "stale", "applied", "stale"]);
    expect((await vendor("a1")).name).toBe("Studio a1");
    expect((await ctx.database.db.selectFrom("store_visits").select("visits").executeTakeFirstOrThrow()).visits).toBe(3);
    expect(before).not.toEqual(await databaseChecksum(ctx.database.db, UNCHANGED));

    await send(ctx, key, [event("artist.updated", artist("a1", { name: "New name", customization: { about: "Prints", primaryColor: "#112233" } }), LATER)]);
    expect(await vendor("a1")).toMatchObject({ name: "New name", customization: { about: "Prints", primaryColor: "#112233" } });

    // Deleted before its creation arrived (out of order): the creation is stale, nothing made.
    expect(statuses(await send(ctx, key, [event("artist.deleted", { artistId: "a7" }, LATER), event("artist.created", artist("a7"), NOW)]))).toEqual(["applied", "stale"]);
    expect(await vendorIdOf("a7")).toBeUndefined();
    // A product of a deleted artist: refused, the artist is gone.
    const gone = await send(ctx, key, [event("product.created", product("p7", "a7"), LATER)]);
    expect(gone[0]).toMatchObject({ status: "rejected", error: { code: "unknown_artist" } });
    await rollupsExact();
  });

  it("a product an operator hid stays hidden after product.updated, and is restored to what the artist has it as", async () => {
    await send(ctx, key, [event("artist.created", artist("a1")), event("product.created", product("p1", "a1"))]);
    const id = (await ctx.database.db.selectFrom("products").select("id").where("external_id", "=", "p1").executeTakeFirstOrThrow()).id;
    const hide = await ctx.request(`/api/admin/products/${id}/status`, { method: "PATCH", token: admin.token, json: { status: "hidden", reason: "Copyright claim" } });
    expect(hide.status).toBe(200);
    const listedBefore = (await dashboard()).totalProducts;
    for (const status of ["active", "draft", "archived", "active"]) {
      ctx.clock.set(new Date(ctx.clock.now().getTime() + 60_000).toISOString());
      const r = await send(ctx, key, [event("product.updated", product("p1", "a1", { status, name: `Renamed ${status}`, priceCents: 3000 }), ctx.clock.now().toISOString())]);
      expect(statuses(r)).toEqual(["applied"]);
      const row = await ctx.database.db.selectFrom("products").select(["status", "name", "price_cents"]).where("id", "=", id).executeTakeFirstOrThrow();
      expect(row.status).toBe("hidden");
      expect(row.name).toBe(`Renamed ${status}`);
    }
    expect((await dashboard()).totalProducts).toBe(listedBefore);
    // The artist archived it meanwhile: restoring brings it back as not live.
    await send(ctx, key, [event("product.updated", product("p1", "a1", { status: "archived" }), new Date(ctx.clock.now().getTime() + 120_000).toISOString())]);
    expect((await ctx.request(`/api/admin/products/${id}/status`, { method: "PATCH", token: admin.token, json: { status: "active" } })).status).toBe(200);
    expect((await ctx.database.db.selectFrom("products").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status).toBe("draft");
    await rollupsExact();
  });

  it("an artist turned into one of the platform's own stores leaves the top lists' windows, and comes back when turned back", async () => {
    await send(ctx, key, [
      event("artist.created", artist("a1")),
      event("product.created", product("p1", "a1")),
      event("order.paid", order("o1", [{ lineId: "l1", productId: "p1", artistId: "a1", quantity: 2, unitPriceCents: 2500 }])),
    ]);
    await rollPeriodWindows(ctx.database.db, "2026-11-22");
    const id = (await vendorIdOf("a1"))!;
    const windows = () => ctx.database.db.selectFrom("vendor_period_totals").select(["period_days", "gross_cents"]).where("vendor_id", "=", id).orderBy("period_days").execute();
    expect((await windows()).map((w) => [w.period_days, Number(w.gross_cents)])).toEqual([
      [7, 5000],
      [30, 5000],
      [90, 5000],
    ]);
    await send(ctx, key, [event("artist.updated", artist("a1", { isInternal: true }), LATER)]);
    expect(await windows()).toEqual([]);
    expect((await vendor("a1")).isInternal).toBe(true);
    await rollupsExact();
    await send(ctx, key, [event("artist.updated", artist("a1", { isInternal: false }), "2026-11-22T13:00:00.000Z")]);
    expect((await windows()).map((w) => Number(w.gross_cents))).toEqual([5000, 5000, 5000]);
    await rollupsExact();
  });

  it("the daily job cancels a subscription not paid again a week after its period ended, and forgets event ids after 35 days", async () => {
    const start = (await dashboard()).monthlyRecurring;
    await send(ctx, key, [
      event("artist.created", artist("a1")),
      event("subscription.paid", { subscriptionId: "old", artistId: "a1", periodStart: "2026-10-01T00:00:00Z", periodEnd: "2026-11-01T00:00:00Z", amountCents: 1000 }),
      event("subscription.paid", { subscriptionId: "current", artistId: "a1", periodStart: "2026-11-10T00:00:00Z", periodEnd: "2026-12-10T00:00:00Z", amountCents: 2000 }),
    ]);
    expect((await dashboard()).monthlyRecurring - start).toBe(30);
    expect(await lapseStorefrontSubscriptions(ctx.database.db, ctx.clock)).toEqual({ cancelled: 1, stopped: false });
    expect((await dashboard()).monthlyRecurring - start).toBe(20);
    const old = await ctx.database.db.selectFrom("subscriptions").select(["status", "cancelled_at"]).where("external_id", "=", "old").executeTakeFirstOrThrow();
    expect(old).toEqual({ status: "cancelled", cancelled_at: "2026-11-01T00:00:00.000Z" });
    await rollupsExact();

    const recorded = async () =>
      Number(
        (
          await ctx.database.db
            .selectFrom("storefront_events")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await recorded()).toBe(3);
    ctx.clock.set("2026-12-26T12:00:00.000Z");
    expect((await sweepStorefrontEvents(ctx.database.db, ctx.clock)).deleted).toBe(0);
    ctx.clock.set("2026-12-28T12:00:00.000Z");
    expect((await sweepStorefrontEvents(ctx.database.db, ctx.clock)).deleted).toBe(3);
    expect(await recorded()).toBe(0);
  });

  it("an operator finds an artist and a product by their storefront ids on Vendors and Products", async () => {
    await send(ctx, key, [event("artist.created", artist("art_77")), event("product.created", product("prd_77", "art_77", { name: "Heron at dawn" }))]);
    const vendors = (await (await ctx.request("/api/admin/vendors?search=art_77", { token: admin.token })).json()) as { vendors: Array<{ name: string }>; total: number };
    expect(vendors.vendors.map((v) => v.name)).toEqual(["Studio art_77"]);
    expect(vendors.total).toBe(1);
    const inactive = (await (await ctx.request("/api/admin/vendors?search=art_77&status=inactive", { token: admin.token })).json()) as { vendors: unknown[] };
    expect(inactive.vendors).toEqual([]);
    const products = (await (await ctx.request("/api/admin/products?search=prd_77", { token: admin.token })).json()) as { products: Array<{ name: string }>; total: number };
    expect(products.products.map((p) => p.name)).toEqual(["Heron at dawn"]);
    expect(products.total).toBe(1);
    const hidden = (await (await ctx.request("/api/admin/products?search=prd_77&status=hidden", { token: admin.token })).json()) as { products: unknown[] };
    expect(hidden.products).toEqual([]);
  });

  it("charges the fee in force when the order was paid, not the one in force when it arrives", async () => {
    await send(ctx, key, [event("artist.created", artist("a1")), event("product.created", product("p1", "a1"))]);
    const res = await ctx.request("/api/admin/settings", { method: "PUT", token: admin.token, json: { platform_fee_percentage: "10" } });
    expect(res.status).toBe(200);
    await send(ctx, key, [
      event("order.paid", order("o1", [{ lineId: "l1", productId: "p1", artistId: "a1", quantity: 1, unitPriceCents: 10_000 }], EARLIER)),
      event("order.paid", order("o2", [{ lineId: "l1", productId: "p1", artistId: "a1", quantity: 1, unitPriceCents: 10_000 }], NOW)),
    ]);
    const fees = await ctx.database.db.selectFrom("orders").select(["external_order_id", "fee_cents"]).orderBy("external_order_id").execute();
    expect(fees.map((f) => [f.external_order_id, Number(f.fee_cents)])).toEqual([
      ["o1", 150],
      ["o2", 1000],
    ]);
  });

  it("answers the screens while a large batch is being applied, not only after its last event", async () => {
    const events = [event("artist.created", artist("busy"))];
    for (let i = 0; i < 300; i++) events.push(event("product.created", product(`busy-${i}`, "busy")));
    let batchAnswered = false;
    const batch = postEvents(ctx, key, events).then((res) => {
      batchAnswered = true;
      return res;
    });
    // The batch has started once its first event's artist exists.
    while ((await vendorIdOf("busy")) === undefined) await new Promise((resolve) => setTimeout(resolve, 1));
    const read = await ctx.request("/api/admin/products/summary", { token: admin.token });
    expect(read.status).toBe(200);
    expect(batchAnswered).toBe(false);
    expect((await batch).status).toBe(200);
    expect((await summary()).counts.total).toBeGreaterThanOrEqual(300);
  });

  it.runIf(kind === "sqlite")("applies one event per turn of the event loop however many batches come in at once, so a request waits for one event", async () => {
    await send(ctx, key, [event("artist.created", artist("turn-a")), event("artist.created", artist("turn-b"))]);
    const recorded = ctx.database.sqlite!.prepare("select count(*) from storefront_events").pluck();
    const batch = (artistId: string) => Array.from({ length: 30 }, (_, i) => event("product.created", product(`${artistId}-${i}`, artistId)));
    let sampling = true;
    let last = recorded.get() as number;
    let mostPerTurn = 0;
    // Runs once per turn of the event loop (its check phase), as the batches' events do.
    // A sample already queued when the batches end must not read: the database may be closed by then.
    const sample = () => {
      if (!sampling) return;
      const now = recorded.get() as number;
      mostPerTurn = Math.max(mostPerTurn, now - last);
      last = now;
      setImmediate(sample);
    };
    setImmediate(sample);
    let answers: Response[];
    try {
      answers = await Promise.all([postEvents(ctx, key, batch("turn-a")), postEvents(ctx, key, batch("turn-b"))]);
    } finally {
      sampling = false;
    }
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(mostPerTurn).toBe(1);
  });
});
