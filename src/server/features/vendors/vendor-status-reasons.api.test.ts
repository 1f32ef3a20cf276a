import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { VendorDetail } from "../../../contract/vendors.ts";
import { createProduct } from "../../domain/ledger/products.ts";
import { createVendor } from "../../domain/ledger/vendors.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";

const NOW = "2026-11-22T12:00:00.000Z";

/**
 * Reasons for every decision (docs/product.md "Reasons for every decision"): a disable or suspend
 * names its reason, which is kept with the change in the artist's status history, shown on its page,
 * written in the audit row, sent in `artist.status_changed` and e-mailed to the artist; a hidden
 * listing's reason is e-mailed to its artist too.
 */
describe.each(testDatabaseKinds)("reasons of status decisions (%s)", (kind) => {
  let ctx: TestContext;
  let admin: { token: string };

  const call = (path: string, method: string, json?: unknown) => ctx.request(path, { method, token: admin.token, ...(json !== undefined ? { json } : {}) });
  const vendor = (slug: string) =>
    createVendor(ctx.database.db, { name: `Artist ${slug}`, ownerName: `Owner ${slug}`, email: `${slug}@example.com`, slug, externalId: `art_${slug}`, joinedAt: NOW }, ctx.clock);
  const mails = () => ctx.database.db.selectFrom("mail_outbox").select(["to_address", "subject", "text_body"]).orderBy("created_at").orderBy("id").execute();
  const events = async () =>
    (await ctx.database.db.selectFrom("webhook_events").select("body").orderBy("id").execute()).map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> });

  beforeEach(async () => {
    ctx = await createTestContext(kind, { now: NOW });
    admin = await ctx.createUser({ email: "boss@hki.global", role: "admin" });
  });
  afterEach(async () => {
    await ctx.close();
  });

  it("a disable without a reason is a 400 naming `reason` and changes nothing, one by one or in bulk", async () => {
    const a = await vendor("ada");
    for (const [path, method, body] of [
      [`/api/vendors/${a.id}/status`, "PATCH", { isActive: false }],
      [`/api/vendors/${a.id}/status`, "PATCH", { isActive: false, reason: "   " }],
      ["/api/admin/vendors/bulk-status", "POST", { ids: [a.id], isActive: false }],
    ] as const) {
      const res = await call(path, method, body);
      expect(res.status).toBe(400);
      const error = ((await res.json()) as { error: { fields: Record<string, string> } }).error;
      expect(Object.keys(error.fields)).toEqual(["reason"]);
    }
    const row = await ctx.database.db.selectFrom("vendors").select(["is_active"]).where("id", "=", a.id).executeTakeFirstOrThrow();
    expect(row.is_active).toBe(1);
    expect(await mails()).toEqual([]);
    expect(await ctx.database.db.selectFrom("vendor_status_changes").select("id").execute()).toEqual([]);
  });

  it("a suspend keeps its reason: on the artist's page, in its history, the audit row, the webhook and the artist's e-mail", async () => {
    const a = await vendor("bea");
    expect((await call(`/api/vendors/${a.id}/status`, "PATCH", { isActive: false, reason: "  Orders not shipped for 30 days " })).status).toBe(200);

    const detail = (await (await call(`/api/admin/vendors/${a.id}`, "GET")).json()) as VendorDetail;
    expect(detail).toMatchObject({ status: "suspended", artistStatus: "inactive", statusReason: "Orders not shipped for 30 days" });
    expect(detail.statusHistory).toEqual([
      { id: expect.any(String), action: "disable", fromStatus: "active", toStatus: "inactive", reason: "Orders not shipped for 30 days", actorEmail: "boss@hki.global", createdAt: NOW },
    ]);

    const audit = await ctx.database.db.selectFrom("audit_log").select(["action", "details"]).where("target_id", "=", a.id).execute();
    expect(audit.map((r) => [r.action, (JSON.parse(r.details!) as { reason?: string }).reason])).toEqual([["vendor.disable", "Orders not shipped for 30 days"]]);

    expect((await events()).map((e) => [e.type, e.data.status, e.data.reason])).toEqual([["artist.status_changed", "inactive", "Orders not shipped for 30 days"]]);

    const [mail, ...others] = await mails();
    expect(others).toEqual([]);
    expect(mail).toMatchObject({ to_address: "bea@example.com", subject: "Your store Artist bea has been suspended" });
    expect(mail!.text_body).toContain("Hello Owner bea,");
    expect(mail!.text_body).toContain("Reason: Orders not shipped for 30 days");

    // Reactivating with a note: a second history row (newest first), the note in the event and the mail; the page's reason follows.
    expect((await call(`/api/vendors/${a.id}/status`, "PATCH", { isActive: true, reason: "Shipping resumed" })).status).toBe(200);
    const again = (await (await call(`/api/admin/vendors/${a.id}`, "GET")).json()) as VendorDetail;
    expect(again.statusHistory.map((h) => [h.action, h.toStatus, h.reason])).toEqual([
      ["enable", "active", "Shipping resumed"],
      ["disable", "inactive", "Orders not shipped for 30 days"],
    ]);
    expect(again.statusReason).toBe("Shipping resumed");
    expect((await events()).at(-1)!.data).toMatchObject({ status: "active", reason: "Shipping resumed" });
    expect((await mails()).at(-1)).toMatchObject({ subject: "Your store Artist bea is active again" });
  });

  it("a bulk disable tells each artist whose status changed, once; an artist already disabled is not told again", async () => {
    const [a, b] = [await vendor("cy"), await vendor("dee")];
    expect((await call(`/api/vendors/${b.id}/status`, "PATCH", { isActive: false, reason: "First" })).status).toBe(200);
    const res = await call("/api/admin/vendors/bulk-status", "POST", { ids: [a.id, b.id], isActive: false, reason: "Season closed" });
    expect(await res.json()).toEqual({ changed: 1, unchanged: 1 });
    expect((await mails()).map((m) => [m.to_address, m.text_body.includes("Reason: Season closed")])).toEqual([
      ["dee@example.com", false],
      ["cy@example.com", true],
    ]);
  });

  it("a hidden listing's reason is e-mailed to its artist: one e-mail per artist for a bulk hide", async () => {
    const [a, b] = [await vendor("eve"), await vendor("fay")];
    const p1 = await createProduct(ctx.database.db, { vendorId: a.id, name: "Heron", priceCents: 1000 }, ctx.clock);
    const p2 = await createProduct(ctx.database.db, { vendorId: a.id, name: "Crane", priceCents: 1000 }, ctx.clock);
    const p3 = await createProduct(ctx.database.db, { vendorId: b.id, name: "Owl", priceCents: 1000 }, ctx.clock);
    expect((await call("/api/admin/products/bulk-status", "POST", { ids: [p1.id, p2.id, p3.id], status: "hidden", reason: "Infringement: not the artist's own" })).status).toBe(200);
    const sent = await mails();
    expect(sent.map((m) => [m.to_address, m.subject]).sort()).toEqual([
      ["eve@example.com", "Your 2 listings have been taken down"],
      ["fay@example.com", 'Your listing "Owl" has been taken down'],
    ]);
    expect(sent.every((m) => m.text_body.includes("Reason: Infringement: not the artist's own"))).toBe(true);
    expect(sent.find((m) => m.to_address === "eve@example.com")!.text_body).toContain("- Heron\n- Crane");
  });

  it("the reason templates are settings: one per line, at most 20, each at most 500 characters", async () => {
    const settings = (await (await call("/api/admin/settings", "GET")).json()) as Record<string, { value: string }>;
    expect(settings.artist_reason_templates!.value.split("\n").length).toBeGreaterThan(1);
    const tooMany = Array.from({ length: 21 }, (_, i) => `Reason ${i}`).join("\n");
    const res = await call("/api/admin/settings", "PUT", { listing_reason_templates: tooMany });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { fields: Record<string, string> } }).error.fields).toEqual({ listing_reason_templates: "must hold at most 20 templates (one per line)" });
    expect((await call("/api/admin/settings", "PUT", { listing_reason_templates: "Counterfeit\nLow quality images" })).status).toBe(200);
  });
});
