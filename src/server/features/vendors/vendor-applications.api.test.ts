import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { attentionResponseSchema } from "../../../contract/dashboard.ts";
import { applicationsResponseSchema, vendorDetailSchema, type AdminVendorsResponse } from "../../../contract/vendors.ts";
import { compareRollups } from "../../domain/ledger/recompute.ts";
import { artist, event, send } from "../../testing/storefront-events.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";

const NOW = "2026-11-22T12:00:00.000Z";
const STORE = "http://store.test";
const application = (extra: Record<string, unknown> = {}) => ({
  portfolioUrl: "https://portfolio.example.com/ada",
  statement: "I print herons in three colours.",
  sampleImageUrls: [`${STORE}/uploads/heron-1.jpg`, `${STORE}/uploads/heron-2.jpg`],
  referral: "Met at the Helsinki print fair",
  ...extra,
});

/**
 * Who may sell (docs/product.md §20.2): with 'Artist approval' on, an artist from the storefront
 * waits as `pending` (not active, not featured, not paid) until an operator approves it, rejects it
 * with a reason or asks for changes; each decision writes one audit row, one webhook event and one mail.
 */
describe.each(testDatabaseKinds)("artist applications (%s)", (kind) => {
  let ctx: TestContext;
  let admin: { token: string };
  let key: string;

  const call = (path: string, method = "GET", json?: unknown) => ctx.request(path, { method, token: admin.token, ...(json !== undefined ? { json } : {}) });
  const idOf = async (artistId: string) => (await ctx.database.db.selectFrom("vendors").select("id").where("external_id", "=", artistId).executeTakeFirstOrThrow()).id;
  const detail = async (artistId: string) => vendorDetailSchema.parse(await (await call(`/api/admin/vendors/${await idOf(artistId)}`)).json());
  const counts = async () => ((await (await call("/api/admin/vendors")).json()) as AdminVendorsResponse).counts;
  const queue = async (query = "") => applicationsResponseSchema.parse(await (await call(`/api/admin/vendors/applications${query}`)).json());
  const events = async () =>
    (await ctx.database.db.selectFrom("webhook_events").select("body").orderBy("id").execute()).map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> });
  const mails = () => ctx.database.db.selectFrom("mail_outbox").select(["to_address", "subject", "text_body"]).orderBy("id").execute();
  const audits = () => ctx.database.db.selectFrom("audit_log").select(["action", "target_id", "details"]).where("action", "like", "vendor.%").orderBy("id").execute();
  const approvalOn = async () => expect((await call("/api/admin/settings", "PUT", { artist_approval: true })).status).toBe(200);
  const apply = (artistId: string, at = NOW, extra: Record<string, unknown> = {}) => send(ctx, key, [event("artist.created", artist(artistId, { application: application(), ...extra }), at)]);

  beforeEach(async () => {
    ctx = await createTestContext(kind, { now: NOW });
    admin = await ctx.createUser({ email: "boss@hki.global", role: "admin" });
    key = (await ctx.createApiKey()).key;
  });
  afterEach(async () => {
    await ctx.close();
  });

  it("with approval off (the default) a new artist is active at once, its application kept", async () => {
    expect((await apply("a0")).map((r) => r.status)).toEqual(["applied"]);
    expect(await detail("a0")).toMatchObject({ status: "active", artistStatus: "active", application: application() });
    expect((await counts()).applications).toBe(0);
  });

  it("with approval on, artist.created makes a pending artist: in the queue, not active, not featured, not enabled by a status change; the storefront is told", async () => {
    await approvalOn();
    const before = await counts();
    expect((await apply("a1")).map((r) => r.status)).toEqual(["applied"]);
    const d = await detail("a1");
    expect(d).toMatchObject({ status: "suspended", artistStatus: "pending", appliedAt: NOW, application: application() });
    expect(await counts()).toEqual({ ...before, total: before.total + 1, inactive: before.inactive + 1, applications: 1 });
    expect((await events()).map((e) => [e.type, e.data.status])).toEqual([["artist.status_changed", "pending"]]);
    const q = await queue();
    expect(q).toMatchObject({ total: 1, nextCursor: null });
    expect(q.applications).toEqual([
      { id: d.id, name: "Studio a1", owner: "Owner a1", email: "a1@example.com", slug: "studio-a1", artistId: "a1", status: "pending", appliedAt: NOW, application: application() },
    ]);

    expect((await call("/api/admin/featured-artist", "POST", { vendorId: d.id, duration: 7 })).status).toBe(422);
    const enable = await call(`/api/vendors/${d.id}/status`, "PATCH", { isActive: true });
    expect(enable.status).toBe(409);
    expect(((await enable.json()) as { error: { message: string } }).error.message).toContain("decide the application");
    expect((await detail("a1")).artistStatus).toBe("pending");
    expect(await compareRollups(ctx.database.db)).toEqual([]);
  });

  it("an image from another host than the storefront's is refused, naming the image", async () => {
    await approvalOn();
    const [result] = await apply("a2", NOW, { application: application({ sampleImageUrls: [`${STORE}/ok.jpg`, "https://evil.example/x.jpg"] }) });
    expect(result).toMatchObject({ status: "rejected", error: { code: "invalid_input", fields: { "data.application.sampleImageUrls.1": "must be on the storefront's host (http://store.test)" } } });
    const [tooMany] = await apply("a3", NOW, { application: application({ sampleImageUrls: Array.from({ length: 7 }, (_, i) => `${STORE}/${i}.jpg`) }) });
    expect(tooMany).toMatchObject({ status: "rejected", error: { code: "invalid_input", fields: { "data.application.sampleImageUrls": "must hold at most 6 images" } } });
    const [unknownKey] = await apply("a4", NOW, { application: { ...application(), extra: true } });
    expect(unknownKey!.status).toBe("rejected");
    expect((await counts()).total).toBe(0);
  });

  it("approve, reject and ask for changes: each one audit row, one webhook event and one e-mail; a reject without a reason is a 400 naming it", async () => {
    await approvalOn();
    await apply("b1");
    await apply("b2");
    await apply("b3");
    const [b1, b2, b3] = [await idOf("b1"), await idOf("b2"), await idOf("b3")];
    const seen = { events: (await events()).length, mails: (await mails()).length };

    for (const body of [{ decision: "reject" }, { decision: "request_changes", reason: " " }]) {
      const res = await call(`/api/admin/vendors/${b2}/application`, "POST", body);
      expect(res.status).toBe(400);
      expect(Object.keys(((await res.json()) as { error: { fields: Record<string, string> } }).error.fields)).toEqual(["reason"]);
    }

    const approved = await call(`/api/admin/vendors/${b1}/application`, "POST", { decision: "approve" });
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({ id: b1, isActive: true, artistStatus: "active" });
    expect((await call(`/api/admin/vendors/${b2}/application`, "POST", { decision: "reject", reason: "The portfolio does not show enough original work yet" })).status).toBe(200);
    expect((await call(`/api/admin/vendors/${b3}/application`, "POST", { decision: "request_changes", reason: "Please add a portfolio link that shows your recent work" })).status).toBe(200);

    expect((await audits()).map((a) => [a.action, a.target_id, (JSON.parse(a.details!) as { reason?: string }).reason ?? null])).toEqual([
      ["vendor.application_approve", b1, null],
      ["vendor.application_reject", b2, "The portfolio does not show enough original work yet"],
      ["vendor.application_request_changes", b3, "Please add a portfolio link that shows your recent work"],
    ]);
    expect((await events()).slice(seen.events).map((e) => [e.data.vendorId, e.data.status, e.data.reason])).toEqual([
      [b1, "active", null],
      [b2, "rejected", "The portfolio does not show enough original work yet"],
      [b3, "changes_requested", "Please add a portfolio link that shows your recent work"],
    ]);
    const sent = (await mails()).slice(seen.mails);
    expect(sent.map((m) => [m.to_address, m.subject])).toEqual([
      ["b1@example.com", "Welcome: your application for Studio b1 is approved"],
      ["b2@example.com", "Your application for Studio b2 was not accepted"],
      ["b3@example.com", "Your application for Studio b3: changes needed"],
    ]);
    expect(sent[1]!.text_body).toContain("Reason: The portfolio does not show enough original work yet");
    expect(sent[2]!.text_body).toContain("What we need: Please add a portfolio link");

    expect(await counts()).toMatchObject({ active: 1, applications: 0 });
    expect((await detail("b2")).statusHistory.map((h) => [h.action, h.fromStatus, h.toStatus, h.actorEmail])).toEqual([["reject", "pending", "rejected", "boss@hki.global"]]);
    // A decided application is not decided again.
    expect((await call(`/api/admin/vendors/${b2}/application`, "POST", { decision: "approve" })).status).toBe(409);

    // The artist asked for changes sends its application again: pending again, in the queue with the new time.
    const LATER = "2026-11-23T09:00:00.000Z";
    expect((await send(ctx, key, [event("artist.updated", artist("b3", { application: application({ statement: "Now with a portfolio." }) }), LATER)])).map((r) => r.status)).toEqual(["applied"]);
    const again = await queue();
    expect(again.applications.map((a) => [a.id, a.appliedAt, a.application?.statement])).toEqual([[b3, LATER, "Now with a portfolio."]]);
    expect((await events()).at(-1)!.data).toMatchObject({ vendorId: b3, status: "pending" });
    expect(await compareRollups(ctx.database.db)).toEqual([]);
  });

  it("the queue is oldest first in keyset pages; bulk approve is all or nothing", async () => {
    await approvalOn();
    const times = ["2026-11-20T08:00:00.000Z", "2026-11-18T08:00:00.000Z", "2026-11-21T08:00:00.000Z", "2026-11-19T08:00:00.000Z"];
    for (const [i, at] of times.entries()) await apply(`c${i}`, at);
    const first = await queue("?limit=3");
    expect(first.total).toBe(4);
    expect(first.applications.map((a) => a.artistId)).toEqual(["c1", "c3", "c0"]);
    const second = await queue(`?limit=3&cursor=${first.nextCursor}`);
    expect(second).toMatchObject({ nextCursor: null });
    expect(second.applications.map((a) => a.artistId)).toEqual(["c2"]);
    expect((await call("/api/admin/vendors/applications?cursor=nonsense")).status).toBe(400);

    const ids = await Promise.all(["c0", "c1", "c2", "c3"].map(idOf));
    // c3 decided first: a bulk approve naming it approves none.
    expect((await call(`/api/admin/vendors/${ids[3]}/application`, "POST", { decision: "reject", reason: "Not original work" })).status).toBe(200);
    const refused = await call("/api/admin/vendors/applications/bulk-approve", "POST", { ids });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain("Studio c3 (rejected)");
    expect((await call("/api/admin/vendors/applications/bulk-approve", "POST", { ids: [ids[0], "no-such-vendor"] })).status).toBe(404);
    expect((await queue()).total).toBe(3);
    expect((await audits()).map((a) => a.action)).toEqual(["vendor.application_reject"]);

    const ok = await call("/api/admin/vendors/applications/bulk-approve", "POST", { ids: ids.slice(0, 3) });
    expect(await ok.json()).toEqual({ approved: 3 });
    expect((await queue()).total).toBe(0);
    const rows = await audits();
    expect(rows.map((a) => a.action)).toEqual(["vendor.application_reject", "vendor.bulk_application_approve"]);
    expect(JSON.parse(rows[1]!.details!)).toEqual({ vendorIds: ids.slice(0, 3) });
    expect((await mails()).filter((m) => m.subject.startsWith("Welcome")).map((m) => m.to_address)).toEqual(["c0@example.com", "c1@example.com", "c2@example.com"]);
  });

  it("the attention inbox says how many wait and how long the oldest has waited", async () => {
    await approvalOn();
    await apply("d1", "2026-11-19T10:00:00.000Z");
    await apply("d2", "2026-11-22T10:00:00.000Z");
    const { items } = attentionResponseSchema.parse(await (await call("/api/admin/dashboard/attention")).json());
    expect(items.find((i) => i.key === "applications_waiting")).toEqual({
      key: "applications_waiting",
      label: "Artist applications waiting for a decision",
      count: 2,
      capped: false,
      detail: "The oldest has waited 3 days",
      severity: "warning",
      href: "/vendors?tab=applications",
    });
  });
});
