import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compareRollups } from "../../domain/ledger/recompute.ts";
import { storefrontOrdersTogether } from "../../platform/metrics/metrics.ts";
import { databaseChecksum } from "../../testing/db-checksum.ts";
import { artist, event, order, product, send, type StorefrontEvent } from "../../testing/storefront-events.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { SQLITE_READS_RECENTLY_MS } from "./storefront-events.service.ts";

const NOW = "2026-11-22T12:00:00.000Z";
const UNCHANGED = { exclude: ["rate_limits", "api_keys"] };

const ordersTogether = async () => (await storefrontOrdersTogether.get()).values[0]?.value ?? 0;
/** On SQLite paid orders are applied together only while no screen is being read (decision 0022). */
const noReadsLately = () => new Promise((resolve) => setTimeout(resolve, SQLITE_READS_RECENTLY_MS + 50));

describe.each(testDatabaseKinds)("POST /api/events: paid orders applied together (%s)", (kind) => {
  let ctx: TestContext;
  let key: string;

  beforeEach(async () => {
    ctx = await createTestContext(kind, { now: NOW });
    key = (await ctx.createApiKey()).key;
    await send(ctx, key, [
      event("artist.created", artist("a1")),
      event("artist.created", artist("a2")),
      event("artist.created", artist("own", { isInternal: true })),
      event("product.created", product("p1", "a1", { priceCents: 2500 })),
      event("product.created", product("p2", "a2", { priceCents: 10_000 })),
      event("product.created", product("p3", "own", { priceCents: 4000 })),
    ]);
    expect((await send(ctx, key, [event("order.paid", order("o0", [{ lineId: "l1", productId: "p1", artistId: "a1" }]))]))[0]!.status).toBe("applied");
  });
  afterEach(async () => {
    await ctx.close();
  });

  /** A batch of paid orders with every answer a paid order can get, each where the run must hand it over. */
  function mixedBatch(): StorefrontEvent[] {
    const again = event("order.paid", order("o6", [{ lineId: "l1", productId: "p2", artistId: "a2", quantity: 3 }]));
    return [
      event("order.paid", order("o1", [{ lineId: "l1", productId: "p1", artistId: "a1", quantity: 2, unitPriceCents: 2500 }])),
      event(
        "order.paid",
        order("o2", [
          { lineId: "l1", productId: "p1", artistId: "a1" },
          { lineId: "l2", productId: "p2", artistId: "a2", quantity: 2 },
        ]),
      ),
      // Recorded by an earlier batch.
      event("order.paid", order("o0", [{ lineId: "l1", productId: "p1", artistId: "a1" }])),
      event("order.paid", order("o4", [{ lineId: "l1", productId: "nope", artistId: "a1" }])),
      event("order.paid", order("o5", [{ lineId: "l1", productId: "p2", artistId: "a1" }])),
      again,
      // The same event again, and the same storefront order under another event id.
      again,
      event("order.paid", order("o1", [{ lineId: "l1", productId: "p1", artistId: "a1", quantity: 2, unitPriceCents: 2500 }])),
      // One of the platform's own stores: in the sales, out of the top lists' windows.
      event("order.paid", order("o8", [{ lineId: "l1", productId: "p3", artistId: "own" }])),
      event("order.paid", order("o9", [{ lineId: "l1", productId: "p2", artistId: "a2" }])),
    ];
  }

  it("answers each event as it would alone, and every figure equals a recompute from the raw rows", async () => {
    await noReadsLately();
    const before = await ordersTogether();
    const results = await send(ctx, key, mixedBatch());
    expect(results.map((r) => r.status)).toEqual(["applied", "applied", "duplicate", "rejected", "rejected", "applied", "duplicate", "duplicate", "applied", "applied"]);
    expect(results.map((r) => r.error?.code)).toEqual([undefined, undefined, undefined, "unknown_product", "invalid_input", undefined, undefined, undefined, undefined, undefined]);
    expect(results[3]!.error!.fields).toEqual({ "data.lines.0.productId": "no such product yet" });
    // Three of the first six in one transaction; after the repeated id, two more together.
    expect((await ordersTogether()) - before).toBe(5);
    expect(await compareRollups(ctx.database.db)).toEqual([]);

    const rows = await ctx.database.db
      .selectFrom("orders")
      .select(["external_order_id", "quantity", "gross_cents"])
      .where("external_order_id", "is not", null)
      .orderBy("external_order_id")
      .orderBy("external_line_id")
      .execute();
    expect(rows.map((r) => [r.external_order_id, Number(r.quantity), Number(r.gross_cents)])).toEqual([
      ["o0", 1, 2500],
      ["o1", 2, 5000],
      ["o2", 1, 2500],
      ["o2", 2, 5000],
      ["o6", 3, 7500],
      ["o8", 1, 2500],
      ["o9", 1, 2500],
    ]);
    const a1 = await ctx.database.db
      .selectFrom("vendor_totals")
      .innerJoin("vendors", "vendors.id", "vendor_totals.vendor_id")
      .select(["orders", "gross_cents"])
      .where("vendors.external_id", "=", "a1")
      .executeTakeFirstOrThrow();
    expect([Number(a1.orders), Number(a1.gross_cents)]).toEqual([3, 10_000]);
  });

  it("a batch sent again changes nothing", async () => {
    await noReadsLately();
    const batch = mixedBatch();
    await send(ctx, key, batch);
    const checksum = await databaseChecksum(ctx.database.db, UNCHANGED);
    await noReadsLately();
    const again = await send(ctx, key, batch);
    expect(again.map((r) => r.status)).toEqual(["duplicate", "duplicate", "duplicate", "rejected", "rejected", "duplicate", "duplicate", "duplicate", "duplicate", "duplicate"]);
    expect(await databaseChecksum(ctx.database.db, UNCHANGED)).toEqual(checksum);
  });

  it.runIf(kind === "sqlite")("applies them one by one while screens are being read, with the same answers and figures", async () => {
    const before = await ordersTogether();
    const token = (await ctx.createUser({ email: "boss@hki.global", role: "admin" })).token;
    expect((await ctx.request("/api/admin/dashboard/stats", { token })).status).toBe(200);
    const results = await send(ctx, key, mixedBatch());
    expect(results.map((r) => r.status)).toEqual(["applied", "applied", "duplicate", "rejected", "rejected", "applied", "duplicate", "duplicate", "applied", "applied"]);
    expect((await ordersTogether()) - before).toBe(0);
    expect(await compareRollups(ctx.database.db)).toEqual([]);
  });

  it.runIf(kind === "sqlite")("applies a longer run while nobody reads", async () => {
    await noReadsLately();
    const before = await ordersTogether();
    const three = ["o11", "o12", "o13"].map((id) => event("order.paid", order(id, [{ lineId: "l1", productId: "p1", artistId: "a1" }])));
    expect((await send(ctx, key, three)).map((r) => r.status)).toEqual(["applied", "applied", "applied"]);
    expect((await ordersTogether()) - before).toBe(3);
  });
});
