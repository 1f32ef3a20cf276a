import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WEBHOOK_EVENT_TYPES } from "../../../contract/integrations-webhooks.ts";
import { createProduct } from "../ledger/products.ts";
import { addPendingPayouts, insertPayoutRun, markPayoutFailed, markPayoutPaid, markPayoutProcessing } from "../ledger/payouts.ts";
import { createVendor } from "../ledger/vendors.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { createFullVendor } from "../../testing/vendors-fixtures.ts";
import { recordEventOut } from "./events-out.ts";

const NOW = "2026-11-22T12:00:00.000Z";

/**
 * Every decision the storefront must hear of records its event once, in the decision's transaction
 * (docs/integration.md "Webhooks"): a decision that changes nothing or fails records none.
 */
describe.each(testDatabaseKinds)("events out, one per decision, in its transaction (%s)", (kind) => {
  let ctx: TestContext;
  let admin: { token: string };
  let endpointId: string;

  const call = async (path: string, method: string, json?: unknown) => {
    const res = await ctx.request(path, { method, token: admin.token, ...(json !== undefined ? { json } : {}) });
    return res;
  };
  /** The events recorded since the last call, as the storefront receives them. */
  let seen = 0;
  const newEvents = async () => {
    const rows = await ctx.database.db.selectFrom("webhook_events").select(["id", "body"]).orderBy("id").execute();
    const fresh = rows.slice(seen).map((r) => JSON.parse(r.body) as { id: string; type: string; createdAt: string; data: Record<string, unknown> });
    seen = rows.length;
    return fresh;
  };
  const vendor = (slug: string, extra: { externalId?: string } = {}) =>
    createVendor(ctx.database.db, { name: `Artist ${slug}`, ownerName: "Owner", email: `${slug}@example.com`, slug, isInternal: false, isActive: true, joinedAt: NOW, ...extra }, ctx.clock);

  beforeEach(async () => {
    ctx = await createTestContext(kind, { now: NOW });
    admin = await ctx.createUser({ email: "boss@hki.global", role: "admin" });
    const res = await call("/api/admin/integrations/webhooks", "POST", { url: "https://shop.example.com/hooks", events: [...WEBHOOK_EVENT_TYPES] });
    endpointId = ((await res.json()) as { endpoint: { id: string } }).endpoint.id;
    seen = 0;
  });
  afterEach(async () => {
    await ctx.close();
  });

  it("an artist enabled, disabled (one by one or in bulk) or deleted: artist.status_changed / artist.deleted with both ids, each with a delivery", async () => {
    const a = await vendor("ada");
    await ctx.database.db.updateTable("vendors").set({ external_id: "art_ada" }).where("id", "=", a.id).execute();
    const b = await vendor("bea");
    expect((await call(`/api/vendors/${a.id}/status`, "PATCH", { isActive: false, reason: "Orders not shipped" })).status).toBe(200);
    expect(await newEvents()).toEqual([
      { id: expect.any(String), type: "artist.status_changed", createdAt: NOW, data: { vendorId: a.id, artistId: "art_ada", status: "inactive", reason: "Orders not shipped" } },
    ]);
    // Asking for the status it has already: no decision, no event.
    expect((await call(`/api/vendors/${a.id}/status`, "PATCH", { isActive: false, reason: "Orders not shipped" })).status).toBe(200);
    expect(await newEvents()).toEqual([]);
    expect((await call("/api/admin/vendors/bulk-status", "POST", { ids: [a.id, b.id], isActive: false, reason: "Orders not shipped" })).status).toBe(200);
    expect((await newEvents()).map((e) => [e.type, e.data.vendorId, e.data.status, e.data.reason])).toEqual([["artist.status_changed", b.id, "inactive", "Orders not shipped"]]);
    // An enable needs no reason: the event says so with null.
    expect((await call("/api/admin/vendors/bulk-status", "POST", { ids: [a.id, b.id], isActive: true })).status).toBe(200);
    expect((await newEvents()).map((e) => [e.data.vendorId, e.data.status, e.data.reason])).toEqual([
      [a.id, "active", null],
      [b.id, "active", null],
    ]);
    expect((await call(`/api/vendors/${b.id}?action=delete`, "DELETE", { deleteFromClerk: false })).status).toBe(200);
    expect(await newEvents()).toEqual([expect.objectContaining({ type: "artist.deleted", data: { vendorId: b.id, artistId: null } })]);

    const deliveries = await ctx.database.db.selectFrom("webhook_deliveries").select(["endpoint_id", "event_type", "status"]).execute();
    expect(deliveries).toHaveLength(5);
    expect(new Set(deliveries.map((d) => `${d.endpoint_id} ${d.status}`))).toEqual(new Set([`${endpointId} pending`]));
  });

  it("a decision that fails records nothing: an unknown id in a bulk change, a refused feature, a rolled-back transaction", async () => {
    const a = await vendor("cy");
    expect((await call("/api/admin/vendors/bulk-status", "POST", { ids: [a.id, "no-such-vendor"], isActive: false, reason: "Orders not shipped" })).status).toBe(404);
    await ctx.database.db.updateTable("vendors").set({ is_active: 0 }).where("id", "=", a.id).execute();
    expect((await call("/api/admin/featured-artist", "POST", { vendorId: a.id, duration: 7 })).status).toBe(422);
    await expect(
      ctx.database.db.transaction().execute(async (trx) => {
        await recordEventOut(trx, "artist.deleted", { vendorId: a.id, artistId: null }, NOW);
        throw new Error("the decision failed after its event was written");
      }),
    ).rejects.toThrow();
    expect(await newEvents()).toEqual([]);
    expect(await ctx.database.db.selectFrom("webhook_deliveries").select("id").execute()).toEqual([]);
    expect(await ctx.database.db.selectFrom("jobs").select("id").where("kind", "=", "webhooks.deliver").execute()).toEqual([]);
  });

  it("a product hidden (with the reason the artist is shown) or restored, one by one or in bulk: product.status_changed", async () => {
    const a = await vendor("dee");
    await ctx.database.db.updateTable("vendors").set({ external_id: "art_dee" }).where("id", "=", a.id).execute();
    const p = await createProduct(ctx.database.db, { vendorId: a.id, name: "Print", priceCents: 2500, inventory: 3 }, ctx.clock);
    const q = await createProduct(ctx.database.db, { vendorId: a.id, name: "Sketch", priceCents: 900, inventory: 1 }, ctx.clock);
    await ctx.database.db.updateTable("products").set({ external_id: "prod_print" }).where("id", "=", p.id).execute();
    expect((await call(`/api/admin/products/${p.id}/status`, "PATCH", { status: "hidden", reason: "  Uses a trademarked logo " })).status).toBe(200);
    expect(await newEvents()).toEqual([
      expect.objectContaining({
        type: "product.status_changed",
        data: { productId: p.id, externalProductId: "prod_print", vendorId: a.id, artistId: "art_dee", status: "hidden", reason: "Uses a trademarked logo" },
      }),
    ]);
    expect((await call("/api/admin/products/bulk-status", "POST", { ids: [p.id, q.id], status: "hidden", reason: "Counterfeit" })).status).toBe(200);
    expect((await newEvents()).map((e) => [e.data.productId, e.data.status, e.data.reason])).toEqual([[q.id, "hidden", "Counterfeit"]]);
    expect((await call("/api/admin/products/bulk-status", "POST", { ids: [p.id, q.id], status: "active" })).status).toBe(200);
    expect((await newEvents()).map((e) => [e.data.productId, e.data.status, e.data.reason])).toEqual([
      [p.id, "restored", null],
      [q.id, "restored", null],
    ]);
  });

  it("the featured artist or the next one changed: featured_artist.changed {current, next}; a change further down the queue is not one", async () => {
    const [a, b, c] = [await vendor("e1"), await vendor("e2"), await vendor("e3")];
    expect((await call("/api/admin/featured-artist", "POST", { vendorId: a.id, duration: 7 })).status).toBe(201);
    expect(await newEvents()).toEqual([
      expect.objectContaining({ type: "featured_artist.changed", data: { current: { vendorId: a.id, artistId: null, startsAt: NOW, endsAt: "2026-11-29T12:00:00.000Z" }, next: null } }),
    ]);
    await call("/api/admin/featured-artist", "POST", { vendorId: b.id, duration: 3, startAfterCurrent: true });
    expect((await newEvents()).map((e) => (e.data.next as { vendorId: string }).vendorId)).toEqual([b.id]);
    await call("/api/admin/featured-artist", "POST", { vendorId: c.id, duration: 3, startAfterCurrent: true });
    expect(await newEvents()).toEqual([]);
    // Disabling the current artist ends its feature: the next one starts now.
    await call(`/api/vendors/${a.id}/status`, "PATCH", { isActive: false, reason: "Orders not shipped" });
    const events = await newEvents();
    expect(events.map((e) => e.type)).toEqual(["artist.status_changed", "featured_artist.changed"]);
    expect(events[1]!.data).toEqual({ current: { vendorId: b.id, artistId: null, startsAt: NOW, endsAt: "2026-11-25T12:00:00.000Z" }, next: expect.objectContaining({ vendorId: c.id }) });
    expect((await call("/api/admin/featured-artist/current", "DELETE")).status).toBe(200);
    expect((await newEvents()).map((e) => (e.data.current as { vendorId: string }).vendorId)).toEqual([c.id]);
  });

  it("public settings changed: settings.changed with the new values of those only", async () => {
    expect((await call("/api/admin/settings", "PUT", { maintenance_mode: "true", platform_fee_percentage: "12.5", support_email: "help@hki.global" })).status).toBe(200);
    expect(await newEvents()).toEqual([expect.objectContaining({ type: "settings.changed", data: { changes: { maintenance_mode: "true", platform_fee_percentage: "12.5" } } })]);
    await call("/api/admin/settings", "PUT", { support_email: "desk@hki.global" });
    await call("/api/admin/settings", "PUT", { maintenance_mode: "true" });
    expect(await newEvents()).toEqual([]);
  });

  it("an announcement put on or taken off artists' dashboards: announcement.published / announcement.withdrawn; an e-mail only is neither", async () => {
    await vendor("f1");
    const res = await call("/api/admin/communications/announcement", "POST", { title: "Holiday dates", message: "Orders after **Dec 18** ship in January.", audience: "all", channels: ["dashboard"] });
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { announcement: { id: string } }).announcement.id;
    expect(await newEvents()).toEqual([
      expect.objectContaining({
        type: "announcement.published",
        data: {
          announcementId: id,
          title: "Holiday dates",
          message: "Orders after **Dec 18** ship in January.",
          html: expect.stringContaining("<strong>Dec 18</strong>"),
          audience: "all",
          publishedAt: NOW,
          showUntil: null,
        },
      }),
    ]);
    expect((await call(`/api/admin/communications/announcements/${id}/dashboard`, "DELETE")).status).toBe(200);
    expect(await newEvents()).toEqual([expect.objectContaining({ type: "announcement.withdrawn", data: { announcementId: id, withdrawnAt: NOW } })]);
    await call("/api/admin/communications/announcement", "POST", { title: "By mail", message: "Hello", audience: "all", channels: ["email"] });
    expect(await newEvents()).toEqual([]);
  });

  it("a payout paid or failed: payout.paid / payout.failed with the amount, the transfer or the reason", async () => {
    const { vendor: v } = await createFullVendor(ctx, { name: "Gus", slug: "gus", email: "gus@example.com" });
    await ctx.database.db.updateTable("vendors").set({ external_id: "art_gus" }).where("id", "=", v.id).execute();
    seen = (await ctx.database.db.selectFrom("webhook_events").select("id").execute()).length;
    const planned = (id: string) => ({ id, vendorId: v.id, vendorName: v.name, destination: "acct_gus", amountCents: 100 });
    for (const [run, payout] of [
      ["run-1", "po-1"],
      ["run-2", "po-2"],
    ] as const) {
      await insertPayoutRun(ctx.database.db, { id: run, minimumCents: 0, expectedPayouts: 1, expectedCents: 100, skipped: 0, skippedCents: 0, createdBy: null, createdAt: NOW });
      await addPendingPayouts(ctx.database.db, run, [planned(payout)], NOW);
      await markPayoutProcessing(ctx.database.db, payout, NOW);
      // One run at a time.
      await ctx.database.db.updateTable("payout_runs").set({ active: null, status: "completed" }).where("id", "=", run).execute();
    }
    await markPayoutPaid(ctx.database.db, "po-1", "tr_123", NOW);
    await markPayoutFailed(ctx.database.db, "po-2", "The destination account is restricted", false, NOW);
    // Done again (a replay after a crash): the payout does not move, and no second event.
    await markPayoutPaid(ctx.database.db, "po-1", "tr_123", NOW);
    expect((await newEvents()).map((e) => [e.type, e.data])).toEqual([
      ["payout.paid", { vendorId: v.id, artistId: "art_gus", payoutId: "po-1", amountCents: 100, transferId: "tr_123" }],
      ["payout.failed", { vendorId: v.id, artistId: "art_gus", payoutId: "po-2", amountCents: 100, reason: "The destination account is restricted" }],
    ]);
  });
});
