import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { attentionResponseSchema } from "../../../contract/dashboard.ts";
import { productDetailSchema, productsSummarySchema, reviewResponseSchema } from "../../../contract/products.ts";
import { vendorDetailSchema } from "../../../contract/vendors.ts";
import { compareRollups } from "../../domain/ledger/recompute.ts";
import { artist, event, product, send } from "../../testing/storefront-events.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";

const NOW = "2026-11-22T12:00:00.000Z";
const INFRINGEMENT = "Infringement: the work is not the artist's own";

/**
 * Listing review (docs/product.md §20.4): with 'Review new listings' on, a new listing from the
 * storefront waits as `pending_review` (not live, the storefront told) until an operator approves or
 * rejects it; a trusted artist's listings skip the queue; each decision writes one audit row, one
 * webhook event and one e-mail; an infringement counts a takedown against the artist.
 */
describe.each(testDatabaseKinds)("listing review (%s)", (kind) => {
  let ctx: TestContext;
  let admin: { token: string };
  let key: string;

  const call = (path: string, method = "GET", json?: unknown) => ctx.request(path, { method, token: admin.token, ...(json !== undefined ? { json } : {}) });
  const setReview = async (mode: string, first?: number) =>
    expect((await call("/api/admin/settings", "PUT", { listing_review: mode, ...(first !== undefined ? { listing_review_first_count: first } : {}) })).status).toBe(200);
  const productIdOf = async (externalId: string) => (await ctx.database.db.selectFrom("products").select("id").where("external_id", "=", externalId).executeTakeFirstOrThrow()).id;
  const vendorIdOf = async (artistId: string) => (await ctx.database.db.selectFrom("vendors").select("id").where("external_id", "=", artistId).executeTakeFirstOrThrow()).id;
  const statusOf = async (externalId: string) => productDetailSchema.parse(await (await call(`/api/admin/products/${await productIdOf(externalId)}`)).json()).product.status;
  const queue = async (query = "") => reviewResponseSchema.parse(await (await call(`/api/admin/products/review${query}`)).json());
  const summary = async () => productsSummarySchema.parse(await (await call("/api/admin/products/summary")).json());
  const events = async () =>
    (await ctx.database.db.selectFrom("webhook_events").select("body").where("type", "=", "product.status_changed").orderBy("id").execute()).map(
      (r) => (JSON.parse(r.body) as { data: { productId: string; externalProductId: string | null; status: string; reason: string | null } }).data,
    );
  const mails = () => ctx.database.db.selectFrom("mail_outbox").select(["to_address", "subject", "text_body"]).orderBy("id").execute();
  const audits = () => ctx.database.db.selectFrom("audit_log").select(["action", "target_id", "details"]).where("action", "like", "product.%").orderBy("id").execute();
  const listing = (productId: string, artistId: string, at = NOW, extra: Record<string, unknown> = {}) => send(ctx, key, [event("product.created", product(productId, artistId, extra), at)]);
  const update = (productId: string, artistId: string, at: string, extra: Record<string, unknown> = {}) => send(ctx, key, [event("product.updated", product(productId, artistId, extra), at)]);
  const fieldsOf = async (res: Response) => Object.keys(((await res.json()) as { error: { fields?: Record<string, string> } }).error.fields ?? {});

  beforeEach(async () => {
    ctx = await createTestContext(kind, { now: NOW });
    admin = await ctx.createUser({ email: "boss@hki.global", role: "admin" });
    key = (await ctx.createApiKey()).key;
    await send(ctx, key, [event("artist.created", artist("a1"), NOW), event("artist.created", artist("a2"), NOW)]);
  });
  afterEach(async () => {
    await ctx.close();
  });

  it("off (the default): a new listing is live at once and nothing waits", async () => {
    expect((await listing("p1", "a1")).map((r) => r.status)).toEqual(["applied"]);
    expect(await statusOf("p1")).toBe("active");
    expect((await queue()).total).toBe(0);
    expect(await events()).toEqual([]);
  });

  it("all: every new listing waits, not live, the storefront told; the queue lists it oldest first with its age; summary and attention count it", async () => {
    await setReview("all");
    await listing("p1", "a1", "2026-11-20T12:00:00.000Z");
    await listing("p2", "a2", "2026-11-21T12:00:00.000Z", { status: "draft" });
    expect(await statusOf("p1")).toBe("pending_review");
    expect(await statusOf("p2")).toBe("pending_review");
    expect((await events()).map((e) => [e.externalProductId, e.status, e.reason])).toEqual([
      ["p1", "pending_review", null],
      ["p2", "pending_review", null],
    ]);
    const q = await queue();
    expect(q.total).toBe(2);
    expect(q.products.map((p) => [p.name, p.vendorName, p.createdAt])).toEqual([
      ["Print p1", "Studio a1", "2026-11-20T12:00:00.000Z"],
      ["Print p2", "Studio a2", "2026-11-21T12:00:00.000Z"],
    ]);
    const page1 = await queue("?limit=1");
    expect(page1.products.map((p) => p.name)).toEqual(["Print p1"]);
    expect((await queue(`?limit=1&cursor=${page1.nextCursor}`)).products.map((p) => p.name)).toEqual(["Print p2"]);
    expect((await summary()).counts).toEqual({ total: 2, active: 0, draft: 0, hidden: 0, pendingReview: 2, rejected: 0 });
    const attention = attentionResponseSchema.parse(await (await call("/api/admin/dashboard/attention")).json());
    expect(attention.items.find((i) => i.key === "listings_waiting_review")).toMatchObject({ count: 2, detail: "The oldest has waited 2 days", href: "/products?tab=review" });
    expect(await compareRollups(ctx.database.db)).toEqual([]);
  });

  it("first N: only each artist's first N listings wait; a trusted artist's go live", async () => {
    await setReview("first_listings", 2);
    for (const p of ["p1", "p2", "p3"]) await listing(p, "a1");
    expect([await statusOf("p1"), await statusOf("p2"), await statusOf("p3")]).toEqual(["pending_review", "pending_review", "active"]);

    const a2 = await vendorIdOf("a2");
    const trust = await call(`/api/admin/vendors/${a2}/trusted`, "PUT", { trusted: true, reason: "Gallery artist" });
    expect(trust.status).toBe(200);
    expect(await trust.json()).toEqual({ id: a2, trusted: true });
    // Trusting again changes nothing: no second history or audit row.
    expect((await call(`/api/admin/vendors/${a2}/trusted`, "PUT", { trusted: true })).status).toBe(200);
    const d = vendorDetailSchema.parse(await (await call(`/api/admin/vendors/${a2}`)).json());
    expect(d.trusted).toBe(true);
    expect(d.statusHistory.map((h) => [h.action, h.reason])).toEqual([["trust", "Gallery artist"]]);
    expect((await ctx.database.db.selectFrom("audit_log").select(["action", "details"]).where("action", "like", "vendor.%trust").execute()).map((a) => a.action)).toEqual(["vendor.trust"]);

    await listing("q1", "a2");
    expect(await statusOf("q1")).toBe("active");
    await setReview("all");
    await listing("q2", "a2");
    expect(await statusOf("q2")).toBe("active");
  });

  it("approve and reject: one audit row, one webhook event and one e-mail each; a reject without a reason is a 400 naming it; an infringement counts a takedown", async () => {
    await setReview("all");
    await listing("p1", "a1");
    await listing("p2", "a1", NOW, { status: "draft" });
    await listing("p3", "a1");
    const [p1, p2, p3] = [await productIdOf("p1"), await productIdOf("p2"), await productIdOf("p3")];
    const seenMails = (await mails()).length;

    for (const body of [{ decision: "reject" }, { decision: "reject", reason: "  " }]) {
      const res = await call(`/api/admin/products/${p1}/review`, "POST", body);
      expect(res.status).toBe(400);
      expect(await fieldsOf(res)).toEqual(["reason"]);
    }
    const wrong = await call(`/api/admin/products/${p1}/review`, "POST", { decision: "approve", infringement: true });
    expect(wrong.status).toBe(400);
    expect(await fieldsOf(wrong)).toEqual(["infringement"]);

    const approved = await call(`/api/admin/products/${p1}/review`, "POST", { decision: "approve" });
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({ id: p1, status: "active" });
    // An approved draft stays a draft: it shows as its artist has it.
    expect((await call(`/api/admin/products/${p2}/review`, "POST", { decision: "approve", reason: "Welcome" })).status).toBe(200);
    expect(await statusOf("p2")).toBe("draft");
    expect((await call(`/api/admin/products/${p3}/review`, "POST", { decision: "reject", reason: INFRINGEMENT, infringement: true })).status).toBe(200);
    expect(await statusOf("p3")).toBe("rejected");
    // Decided once: a second decision is refused and writes nothing.
    expect((await call(`/api/admin/products/${p3}/review`, "POST", { decision: "approve" })).status).toBe(409);

    expect((await audits()).map((a) => [a.action, a.target_id, (JSON.parse(a.details!) as { reason?: string }).reason ?? null])).toEqual([
      ["product.review_approve", p1, null],
      ["product.review_approve", p2, "Welcome"],
      ["product.review_reject", p3, INFRINGEMENT],
    ]);
    expect((await events()).slice(3).map((e) => [e.productId, e.status, e.reason])).toEqual([
      [p1, "approved", null],
      [p2, "approved", "Welcome"],
      [p3, "rejected", INFRINGEMENT],
    ]);
    const sent = (await mails()).slice(seenMails);
    expect(sent.map((m) => [m.to_address, m.subject])).toEqual([
      ["a1@example.com", 'Your listing "Print p1" is live'],
      ["a1@example.com", 'Your listing "Print p2" is live'],
      ["a1@example.com", 'Your listing "Print p3" was not approved'],
    ]);
    expect(sent[2]!.text_body).toContain(`Reason: ${INFRINGEMENT}`);

    const vendor = vendorDetailSchema.parse(await (await call(`/api/admin/vendors/${await vendorIdOf("a1")}`)).json());
    expect(vendor.takedowns).toBe(1);
    const history = productDetailSchema.parse(await (await call(`/api/admin/products/${p3}`)).json()).history;
    expect(history.map((h) => [h.action, h.infringement, h.fromStatus, h.toStatus])).toEqual([["reject", true, "pending_review", "rejected"]]);
    expect((await summary()).counts).toMatchObject({ active: 1, draft: 1, pendingReview: 0, rejected: 1 });
    expect(await compareRollups(ctx.database.db)).toEqual([]);
  });

  it("hidden, waiting and rejected listings stay so whatever the storefront later sends", async () => {
    await listing("h1", "a1");
    const h1 = await productIdOf("h1");
    expect((await call(`/api/admin/products/${h1}/status`, "PATCH", { status: "hidden", reason: "Trademarked logo" })).status).toBe(200);
    await setReview("all");
    await listing("w1", "a1");
    await listing("r1", "a1");
    expect((await call(`/api/admin/products/${await productIdOf("r1")}/review`, "POST", { decision: "reject", reason: "Images are missing" })).status).toBe(200);

    for (const [i, id] of ["h1", "w1", "r1"].entries()) {
      expect((await update(id, "a1", `2026-11-22T13:0${i}:00.000Z`, { status: "draft", name: `Renamed ${id}` })).map((r) => r.status)).toEqual(["applied"]);
      expect((await update(id, "a1", `2026-11-22T14:0${i}:00.000Z`, { status: "active" })).map((r) => r.status)).toEqual(["applied"]);
    }
    expect([await statusOf("h1"), await statusOf("w1"), await statusOf("r1")]).toEqual(["hidden", "pending_review", "rejected"]);
    expect(await compareRollups(ctx.database.db)).toEqual([]);
  });

  it("bulk approve is all or nothing: one listing not waiting approves none; then one audit row, an event per listing and an e-mail per artist", async () => {
    await setReview("all");
    await listing("p1", "a1");
    await listing("p2", "a1");
    await listing("p3", "a2");
    const ids = [await productIdOf("p1"), await productIdOf("p2"), await productIdOf("p3")];
    expect((await call(`/api/admin/products/${ids[2]}/review`, "POST", { decision: "reject", reason: "Images are missing" })).status).toBe(200);
    const seen = { events: (await events()).length, mails: (await mails()).length, audits: (await audits()).length };

    const refused = await call("/api/admin/products/review/bulk-approve", "POST", { ids });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain("Print p3");
    const unknown = await call("/api/admin/products/review/bulk-approve", "POST", { ids: [ids[0], "no-such-product"] });
    expect(unknown.status).toBe(404);
    expect([await statusOf("p1"), await statusOf("p2")]).toEqual(["pending_review", "pending_review"]);
    expect((await events()).length).toBe(seen.events);
    expect((await mails()).length).toBe(seen.mails);
    expect((await audits()).length).toBe(seen.audits);

    const ok = await call("/api/admin/products/review/bulk-approve", "POST", { ids: ids.slice(0, 2) });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ approved: 2 });
    expect([await statusOf("p1"), await statusOf("p2")]).toEqual(["active", "active"]);
    expect((await audits()).slice(seen.audits).map((a) => a.action)).toEqual(["product.bulk_review_approve"]);
    expect((await events()).slice(seen.events).map((e) => [e.productId, e.status])).toEqual([
      [ids[0], "approved"],
      [ids[1], "approved"],
    ]);
    expect((await mails()).slice(seen.mails).map((m) => m.subject)).toEqual(["Your 2 listings are live"]);
    expect(await compareRollups(ctx.database.db)).toEqual([]);
  });

  it("the settings refuse an unknown mode and a count out of range, naming the key", async () => {
    const bad = await call("/api/admin/settings", "PUT", { listing_review: "sometimes" });
    expect(bad.status).toBe(400);
    expect(await fieldsOf(bad)).toEqual(["listing_review"]);
    const zero = await call("/api/admin/settings", "PUT", { listing_review_first_count: 0 });
    expect(zero.status).toBe(400);
    expect(await fieldsOf(zero)).toEqual(["listing_review_first_count"]);
  });
});
