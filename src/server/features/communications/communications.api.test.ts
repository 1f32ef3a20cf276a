import { JSDOM } from "jsdom";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { announcementResponseSchema, announcementsResponseSchema, previewResponseSchema, publicAnnouncementsResponseSchema, recipientsResponseSchema } from "../../../contract/communications.ts";
import { createVendor } from "../../domain/ledger/vendors.ts";
import { JobWorker } from "../../platform/jobs/job-worker.ts";
import { type SmtpSink, startSmtpSink } from "../../testing/smtp-sink.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { ANNOUNCEMENT_SEND_JOB, announcementJobs } from "./communications.job.ts";
import { claimBatch } from "./communications.queries.ts";

/** Announcements over a real SMTP server in this process (docs/product.md §17). */
describe.each(testDatabaseKinds)("announcements on %s", (kind) => {
  let sink: SmtpSink;
  let t: TestContext;
  let worker: JobWorker;
  let admin: Awaited<ReturnType<TestContext["createUser"]>>;
  const vendors: Record<string, { id: string; email: string }> = {};

  beforeAll(async () => {
    sink = await startSmtpSink({ parse: true });
  });
  afterAll(async () => {
    await sink.close();
  });
  beforeEach(async () => {
    sink.received.length = 0;
    sink.answer = () => null;
    sink.onAccepted = () => undefined;
    t = await createTestContext(kind, { env: { SMTP_URL: sink.url, MAIL_FROM: "HKI Global Admin <no-reply@hki.global>" } });
    admin = await t.createUser({ email: "ops@hki.global", role: "admin" });
    const make = async (key: string, isActive: boolean, isInternal = false) => {
      const v = await createVendor(t.database.db, { name: `Artist ${key}`, ownerName: `Owner ${key}`, email: `${key}@artists.test`, slug: `artist-${key}`, isActive, isInternal }, t.clock);
      vendors[key] = { id: v.id, email: v.email };
    };
    for (const key of ["a1", "a2", "a3"]) await make(key, true);
    for (const key of ["i1", "i2"]) await make(key, false);
    await make("int-a", true, true);
    await make("int-i", false, true);
    worker = new JobWorker(t.database, t.clock, { retryBaseMs: 1000 });
    announcementJobs(worker, t.deps, { maxPerSecond: 1000, retryBaseMs: 1000, batchSize: 2 });
  });
  afterEach(async () => {
    await worker.stop();
    await t.close();
  });

  const drain = async () => {
    let runs = 0;
    while (await worker.runOnce()) runs++;
    return runs;
  };
  const post = (path: string, json?: unknown, token = admin.token) => t.request(path, { method: "POST", token, ...(json !== undefined ? { json } : {}) });
  const send = async (body: Record<string, unknown>) => {
    const res = await post("/api/admin/communications/announcement", {
      title: "Studio news",
      message: "Hello **artists**!\n\nSee [the guide](https://hki.global/guide).",
      channels: ["email"],
      ...body,
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return announcementResponseSchema.parse(await res.json()).announcement;
  };
  const get = async (id: string) => announcementResponseSchema.parse(await (await t.request(`/api/admin/communications/announcements/${id}`, { token: admin.token })).json()).announcement;
  const recipients = async (id: string, status?: string) =>
    recipientsResponseSchema.parse(await (await t.request(`/api/admin/communications/announcements/${id}/recipients?limit=100${status ? `&status=${status}` : ""}`, { token: admin.token })).json())
      .recipients;
  const mailsTo = (email: string) => sink.received.filter((m) => m.to.includes(email));

  it("sends every artist of the audience exactly one mail, with both parts, the title as subject, Reply-To and a stable Message-ID", async () => {
    const ann = await send({ audience: "all" });
    expect(ann).toMatchObject({ recipients: 5, pending: 5, sent: 0, status: "sending" });
    expect(sink.received).toHaveLength(0);
    await drain();
    const expected = ["a1", "a2", "a3", "i1", "i2"].map((k) => vendors[k]!.email).sort();
    expect(sink.received.map((m) => m.to[0]).sort()).toEqual(expected);
    for (const key of ["a1", "a2", "a3", "i1", "i2"]) {
      const [m] = mailsTo(vendors[key]!.email);
      const mail = m!.mail!;
      expect(mail.subject).toBe("Studio news");
      expect(mail.from?.text).toBe('"HKI Global Admin" <no-reply@hki.global>');
      expect(mail.replyTo?.text).toBe("support@hki.global");
      expect(mail.messageId).toBe(`<${ann.id}.${vendors[key]!.id}@hki-global-admin>`);
      expect(mail.text).toContain("Hello artists!");
      expect(mail.text).toContain("the guide (https://hki.global/guide)");
      expect(mail.html).toContain("<strong>artists</strong>");
      expect(mail.html).toContain('href="https://hki.global/guide"');
    }
    expect(await get(ann.id)).toMatchObject({ status: "sent", recipients: 5, sent: 5, failed: 0, pending: 0 });
    const list = await recipients(ann.id, "sent");
    expect(list).toHaveLength(5);
    expect(list.every((r) => r.attempts === 1 && r.sentAt === "2026-11-22T12:00:00.000Z" && r.lastError === null)).toBe(true);
    // The guard job set for a request dying mid-queueing finds nothing to do: no second mail.
    t.clock.advance(60_000);
    await drain();
    expect(sink.received).toHaveLength(5);
    const audit = await t.database.db.selectFrom("audit_log").select(["action", "target_id", "actor_email"]).where("action", "like", "announcement.%").execute();
    expect(audit).toEqual([{ action: "announcement.send", target_id: ann.id, actor_email: "ops@hki.global" }]);
  });

  it("reaches exactly the audience chosen: active, inactive, internal stores only when asked, chosen artists", async () => {
    const count = async (body: Record<string, unknown>) => {
      const res = await post("/api/admin/communications/preview", { title: "T", message: "M", channels: ["email"], ...body });
      expect(res.status, await res.clone().text()).toBe(200);
      return previewResponseSchema.parse(await res.json()).recipients;
    };
    expect(await count({ audience: "all" })).toBe(5);
    expect(await count({ audience: "all", includeInternal: true })).toBe(7);
    expect(await count({ audience: "active" })).toBe(3);
    expect(await count({ audience: "active", includeInternal: true })).toBe(4);
    expect(await count({ audience: "inactive" })).toBe(2);
    expect(await count({ audience: "inactive", includeInternal: true })).toBe(3);
    expect(await count({ audience: "vendorIds", vendorIds: [vendors.a1!.id, vendors["int-a"]!.id] })).toBe(1);
    expect(await count({ audience: "vendorIds", vendorIds: [vendors.a1!.id, vendors["int-a"]!.id], includeInternal: true })).toBe(2);
    // The preview sends and writes nothing.
    expect(await t.database.db.selectFrom("announcements").selectAll().execute()).toEqual([]);
    expect(await drain()).toBe(0);

    const ann = await send({ audience: "inactive" });
    await drain();
    expect(sink.received.map((m) => m.to[0]).sort()).toEqual([vendors.i1!.email, vendors.i2!.email].sort());
    const chosen = await send({ audience: "vendorIds", vendorIds: [vendors.a2!.id, vendors["int-i"]!.id], includeInternal: true });
    expect(chosen.recipients).toBe(2);
    await drain();
    expect(mailsTo(vendors.a2!.email)).toHaveLength(1);
    expect(mailsTo(vendors["int-i"]!.email)).toHaveLength(1);
    expect((await get(ann.id)).sent).toBe(2);
  });

  it("answers field errors for bad input and 422 naming the audience when it is empty", async () => {
    const bad = async (body: Record<string, unknown>, field: string) => {
      const res = await post("/api/admin/communications/announcement", { title: "T", message: "M", audience: "all", channels: ["email"], ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      const error = ((await res.json()) as { error: { fields: Record<string, string> } }).error;
      expect(
        Object.keys(error.fields).some((k) => k === field || k.startsWith(`${field}.`)),
        JSON.stringify(error),
      ).toBe(true);
    };
    await bad({ title: "  " }, "title");
    await bad({ title: "two\nlines" }, "title");
    await bad({ message: "" }, "message");
    await bad({ audience: "everyone" }, "audience");
    await bad({ channels: [] }, "channels");
    await bad({ channels: ["sms"] }, "channels");
    await bad({ channels: ["email", "email"] }, "channels");
    await bad({ vendorIds: [vendors.a1!.id] }, "vendorIds");
    await bad({ audience: "vendorIds" }, "vendorIds");
    await bad({ audience: "vendorIds", vendorIds: ["no-such-vendor"] }, "vendorIds");
    await bad({ audience: "vendorIds", vendorIds: [vendors.a1!.id], channels: ["dashboard"] }, "channels");
    await bad({ showUntil: "2026-12-01T00:00:00.000Z" }, "showUntil");
    await bad({ channels: ["dashboard"], showUntil: "2026-11-01T00:00:00.000Z" }, "showUntil");
    await bad({ channels: ["dashboard"], showUntil: "tomorrow" }, "showUntil");
    await bad({ extra: true }, "extra");

    await t.database.db.updateTable("vendors").set({ is_active: 1 }).where("is_internal", "=", 0).execute();
    // Counters come from the ledger: keep them true to the rows changed by hand above.
    await t.database.db.updateTable("counters").set({ value: 6 }).where("name", "=", "vendors_active").execute();
    const res = await post("/api/admin/communications/announcement", { title: "T", message: "M", audience: "inactive", channels: ["email"] });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { code: string; message: string; fields: Record<string, string> } };
    expect(body.error.code).toBe("empty_audience");
    expect(body.error.fields.audience).toContain("no inactive artists");
    expect(await t.database.db.selectFrom("announcements").selectAll().execute()).toEqual([]);
  });

  it("retries a temporary refusal (4xx) later and sends it once the server accepts", async () => {
    let refusals = 1;
    sink.answer = (to) => (to === vendors.a2!.email && refusals-- > 0 ? { code: 451, message: "Mailbox busy, try again later" } : null);
    const ann = await send({ audience: "active" });
    await drain();
    expect(mailsTo(vendors.a2!.email)).toHaveLength(0);
    const [waiting] = await recipients(ann.id, "pending");
    expect(waiting).toMatchObject({ vendorId: vendors.a2!.id, status: "pending", attempts: 1 });
    expect(waiting!.lastError).toContain("451");
    expect(await get(ann.id)).toMatchObject({ status: "sending", sent: 2, pending: 1 });
    // Not before its time.
    expect(await drain()).toBe(0);
    t.clock.advance(1_000);
    await drain();
    expect(mailsTo(vendors.a2!.email)).toHaveLength(1);
    expect(sink.received).toHaveLength(3);
    expect(await get(ann.id)).toMatchObject({ status: "sent", sent: 3, pending: 0, failed: 0 });
    expect((await recipients(ann.id, "sent")).find((r) => r.vendorId === vendors.a2!.id)).toMatchObject({ attempts: 2, lastError: null });
  });

  it("fails a permanent refusal (5xx) with the server's answer; retry-failed sends it once, with an audit row", async () => {
    let refuse = true;
    sink.answer = (to) => (refuse && to === vendors.a3!.email ? { code: 550, message: "No such mailbox here" } : null);
    const ann = await send({ audience: "active" });
    await drain();
    expect(await get(ann.id)).toMatchObject({ status: "sent", sent: 2, failed: 1, pending: 0 });
    const [failed] = await recipients(ann.id, "failed");
    expect(failed).toMatchObject({ vendorId: vendors.a3!.id, email: vendors.a3!.email, status: "failed", attempts: 1 });
    expect(failed!.lastError).toMatch(/550.*No such mailbox here/);

    refuse = false;
    const res = await post(`/api/admin/communications/announcements/${ann.id}/retry-failed`);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(announcementResponseSchema.parse(await res.json()).announcement).toMatchObject({ status: "sending", failed: 0, pending: 1 });
    await drain();
    expect(mailsTo(vendors.a3!.email)).toHaveLength(1);
    expect(sink.received).toHaveLength(3);
    expect(await get(ann.id)).toMatchObject({ status: "sent", sent: 3, failed: 0 });
    // Nothing failed any more: a second retry has nothing to do.
    expect((await post(`/api/admin/communications/announcements/${ann.id}/retry-failed`)).status).toBe(409);
    const actions = await t.database.db.selectFrom("audit_log").select("action").where("target_id", "=", ann.id).orderBy("created_at").orderBy("id").execute();
    expect(actions.map((a) => a.action)).toEqual(["announcement.send", "announcement.retry_failed"]);
  });

  it("cancel stops what is pending: the batch being sent finishes, nobody else gets a mail", async () => {
    let canceled = false;
    sink.onAccepted = async () => {
      if (canceled) return;
      canceled = true;
      const res = await post(`/api/admin/communications/announcements/${annId}/cancel`);
      expect(res.status, await res.clone().text()).toBe(200);
    };
    let annId = "";
    annId = (await send({ audience: "all", includeInternal: true })).id;
    await drain();
    // Batches of 2: the first mail triggered the cancel, its batch-mate still went.
    expect(sink.received).toHaveLength(2);
    const after = await get(annId);
    expect(after).toMatchObject({ status: "canceled", sent: 2, pending: 0, canceled: 5, recipients: 7 });
    expect(await recipients(annId, "canceled")).toHaveLength(5);
    t.clock.advance(120_000);
    await drain();
    expect(sink.received).toHaveLength(2);
    expect((await post(`/api/admin/communications/announcements/${annId}/cancel`)).status).toBe(409);
    expect((await post(`/api/admin/communications/announcements/${annId}/retry-failed`)).status).toBe(409);
  });

  it("resends a batch a dead sender left claimed, once, and counts it as interrupted", async () => {
    const ann = await send({ audience: "all" });
    // A sender that died mid-batch: its claim token names a job attempt that is not running.
    const claimed = await claimBatch(t.database.db, ann.id, "0190dead-0000-7000-8000-000000000000:1", t.clock.now().toISOString(), 2);
    expect(claimed).toHaveLength(2);
    await drain();
    expect(sink.received).toHaveLength(5);
    expect([...sink.countsByMessageId().values()].every((n) => n === 1)).toBe(true);
    const rows = await t.database.db.selectFrom("announcement_recipients").select(["vendor_id", "interrupted", "status"]).where("announcement_id", "=", ann.id).execute();
    expect(
      rows
        .filter((r) => r.interrupted === 1)
        .map((r) => r.vendor_id)
        .sort(),
    ).toEqual(claimed.map((c) => c.vendor_id).sort());
    expect(rows.every((r) => r.status === "sent")).toBe(true);
    expect(await get(ann.id)).toMatchObject({ status: "sent", sent: 5, pending: 0 });
  });

  it("hands over to a continuation after its time slice, so other jobs run in between, and still sends each mail once", async () => {
    await worker.stop();
    worker = new JobWorker(t.database, t.clock, { retryBaseMs: 1000 });
    announcementJobs(worker, t.deps, { maxPerSecond: 1000, batchSize: 2, sliceMs: 0 });
    const ann = await send({ audience: "all" });
    // 5 recipients in batches of 2, one batch per run, then a run that finds nothing left and ends it.
    expect(await drain()).toBe(4);
    expect(sink.received).toHaveLength(5);
    expect([...sink.countsByMessageId().values()].every((n) => n === 1)).toBe(true);
    expect(await get(ann.id)).toMatchObject({ status: "sent", sent: 5 });
  });

  it("writes no script, event handler or javascript: link into the mail, whatever the message says", async () => {
    const message = [
      '<script>alert("x")</script> <img src=x onerror=alert(1)> <a href="javascript:alert(1)">a</a>',
      "[click](javascript:alert(1)) [data](data:text/html;base64,PHNjcmlwdD4=) **<b onmouseover=alert(1)>bold</b>**",
      "JaVaScRiPt:alert(1) https://ok.test/?next=javascript:alert(1)",
    ].join("\n\n");
    await send({ audience: "vendorIds", vendorIds: [vendors.a1!.id], title: '<svg onload=alert(1)>"title', message });
    await drain();
    const html = sink.received[0]!.mail!.html as string;
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/javascript:/i);
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    const doc = new JSDOM(html).window.document;
    expect(doc.querySelectorAll("script, img, svg, b").length).toBe(0);
    for (const el of doc.querySelectorAll("*")) for (const attr of el.getAttributeNames()) expect(attr.startsWith("on"), `${el.tagName} ${attr}`).toBe(false);
    expect([...doc.querySelectorAll("a")].map((a) => a.getAttribute("href"))).toEqual(["https://ok.test/?next=javascript%3Aalert(1)"]);
    expect(doc.querySelector("h1")!.textContent).toBe('<svg onload=alert(1)>"title');
  });

  it("serves current dashboard announcements publicly, cacheable, with nothing private; take-down and the end date remove them", async () => {
    const banner = await send({ audience: "active", channels: ["dashboard", "email"], showUntil: "2026-11-25T00:00:00.000Z", title: "Banner", message: "Hi **all**" });
    await send({ audience: "all", channels: ["email"], title: "Mail only" });
    await send({ audience: "inactive", channels: ["dashboard"], title: "Come back" });
    const read = async () => {
      const res = await t.request("/api/public/announcements");
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=30");
      const text = await res.text();
      return { text, body: publicAnnouncementsResponseSchema.parse(JSON.parse(text)) };
    };
    let { text, body } = await read();
    expect(body.announcements.map((a) => a.title)).toEqual(["Come back", "Banner"]);
    expect(Object.keys(body.announcements[1]!).sort()).toEqual(["audience", "html", "message", "publishedAt", "showUntil", "title"]);
    expect(body.announcements[1]).toMatchObject({ audience: "active", html: "<p>Hi <strong>all</strong></p>", showUntil: "2026-11-25T00:00:00.000Z" });
    for (const secret of [...Object.values(vendors).flatMap((v) => [v.email, v.id]), "ops@hki.global", banner.id]) expect(text).not.toContain(secret);

    const down = await t.request(`/api/admin/communications/announcements/${banner.id}/dashboard`, { method: "DELETE", token: admin.token });
    expect(down.status).toBe(200);
    expect(announcementResponseSchema.parse(await down.json()).announcement).toMatchObject({ onDashboard: false });
    expect((await t.request(`/api/admin/communications/announcements/${banner.id}/dashboard`, { method: "DELETE", token: admin.token })).status).toBe(409);
    ({ body } = await read());
    expect(body.announcements.map((a) => a.title)).toEqual(["Come back"]);
    const later = await send({ audience: "all", channels: ["dashboard"], showUntil: "2026-11-23T00:00:00.000Z", title: "Until tomorrow" });
    expect(later).toMatchObject({ recipients: 0, status: "sent" });
    ({ body } = await read());
    expect(body.announcements.map((a) => a.title)).toEqual(["Until tomorrow", "Come back"]);
    t.clock.advance(86_400_000);
    ({ body, text } = await read());
    expect(body.announcements.map((a) => a.title)).toEqual(["Come back"]);
    // Dashboard-only announcements send no mail.
    await drain();
    expect(sink.received.filter((m) => m.mail?.subject === "Come back" || m.mail?.subject === "Until tomorrow")).toHaveLength(0);
  });

  it("lists history newest first by keyset with counts, and recipients by status, page by page", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await send({ audience: "all", title: `News ${i}` })).id);
      t.clock.advance(1_000);
    }
    await drain();
    const page1 = announcementsResponseSchema.parse(await (await t.request("/api/admin/communications/announcements?limit=2", { token: admin.token })).json());
    expect(page1.announcements.map((a) => a.title)).toEqual(["News 2", "News 1"]);
    expect(page1.announcements[0]).toMatchObject({ sent: 5, failed: 0, pending: 0, recipients: 5 });
    const page2 = announcementsResponseSchema.parse(await (await t.request(`/api/admin/communications/announcements?limit=2&cursor=${page1.nextCursor}`, { token: admin.token })).json());
    expect(page2.announcements.map((a) => a.title)).toEqual(["News 0"]);
    expect(page2.nextCursor).toBeNull();
    expect((await t.request("/api/admin/communications/announcements?cursor=bogus", { token: admin.token })).status).toBe(400);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await t.request(`/api/admin/communications/announcements/${ids[0]}/recipients?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { token: admin.token });
      const body = recipientsResponseSchema.parse(await res.json());
      seen.push(...body.recipients.map((r) => r.vendorId));
      cursor = body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...seen].sort());
    expect(new Set(seen).size).toBe(5);
    expect((await t.request(`/api/admin/communications/announcements/nope/recipients`, { token: admin.token })).status).toBe(404);
    expect((await t.request(`/api/admin/communications/announcements/${ids[0]}/recipients?status=lost`, { token: admin.token })).status).toBe(400);
  });

  it("lets viewers read everything and change nothing", async () => {
    const viewer = await t.createUser({ email: "viewer@example.com", role: "viewer" });
    const ann = await send({ audience: "all" });
    expect((await t.request("/api/admin/communications/announcements", { token: viewer.token })).status).toBe(200);
    expect((await t.request(`/api/admin/communications/announcements/${ann.id}/recipients`, { token: viewer.token })).status).toBe(200);
    expect((await post("/api/admin/communications/announcement", { title: "T", message: "M", audience: "all", channels: ["email"] }, viewer.token)).status).toBe(403);
    expect((await post(`/api/admin/communications/announcements/${ann.id}/cancel`, undefined, viewer.token)).status).toBe(403);
    expect(await t.database.db.selectFrom("jobs").select("kind").where("kind", "=", ANNOUNCEMENT_SEND_JOB).execute()).toHaveLength(2);
  });
});
