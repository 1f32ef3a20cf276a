import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Actor } from "../../platform/identity/actor.ts";
import { HttpError } from "../../platform/http/http-error.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { defineExport } from "../../platform/exports/export-kind.ts";
import { ExportsService } from "./exports.service.ts";

/** A kind over the vendors table, for the mechanism's own tests (areas define their real kinds). */
const vendorsKind = defineExport({
  kind: "test-vendors",
  fileStem: "vendors",
  filters: z.object({ active: z.enum(["true", "false"]).optional() }),
  columns: [
    { header: "Name", value: (row: { id: string; name: string; is_active: number }) => row.name },
    { header: "Active", value: (row) => row.is_active === 1 },
  ],
  async readPage(db, filters, cursor: string | undefined, limit) {
    let query = db.selectFrom("vendors").select(["id", "name", "is_active"]).orderBy("id").limit(limit);
    if (filters.active) query = query.where("is_active", "=", filters.active === "true" ? 1 : 0);
    if (cursor) query = query.where("id", ">", cursor);
    const rows = await query.execute();
    return { rows, next: rows.at(-1)?.id };
  },
});

const admin: Actor = { user: { id: "u1", email: "exporter@hki.global", name: null, role: "admin", isAdmin: true }, clientIp: "127.0.0.1", userAgent: "exports-test", requestId: "exports-test-1" };

describe.each(testDatabaseKinds)("CSV exports (%s)", (kind) => {
  let ctx: TestContext;
  let service: ExportsService;
  beforeEach(async () => {
    ctx = await createTestContext(kind, { seedDemo: true });
    service = new ExportsService(ctx.deps, [vendorsKind as never], 7);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const tokenOf = (url: string) => url.split("/").pop()!;

  it("streams every matching row page by page, with the header and the filters applied", async () => {
    const link = await service.createLink(admin, "test-vendors", { active: "true" });
    // The link starts with PUBLIC_URL (the test config's default, http://HOST:PORT), never the request's Host.
    expect(link.url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/api\/exports\/[\w-]{40,}$/);
    expect(link.filename).toBe("vendors-2026-11-22.csv");
    const res = await service.download(tokenOf(link.url));
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="vendors-2026-11-22.csv"');
    const lines = (await res.text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    const active = await ctx.database.db.selectFrom("vendors").select("name").where("is_active", "=", 1).orderBy("id").execute();
    expect(active.length).toBeGreaterThan(14); // more than two pages of 7
    expect(lines[0]).toBe("Name,Active");
    expect(lines.slice(1)).toEqual(active.map((v) => `${v.name.includes(",") ? `"${v.name}"` : v.name},true`));
  });

  it("works once, for a minute; unknown links are 404 and bad filters name the field", async () => {
    const link = await service.createLink(admin, "test-vendors", {});
    await (await service.download(tokenOf(link.url))).text();
    await expect(service.download(tokenOf(link.url))).rejects.toMatchObject({ status: 410 });

    const late = await service.createLink(admin, "test-vendors", {});
    ctx.clock.advance(61_000);
    await expect(service.download(tokenOf(late.url))).rejects.toMatchObject({ status: 410 });
    await expect(service.download("not-a-link")).rejects.toMatchObject({ status: 404 });

    const badKind = await service.createLink(admin, "payroll", {}).catch((e: unknown) => e);
    expect(badKind).toBeInstanceOf(HttpError);
    expect((badKind as HttpError).fields).toHaveProperty("kind");
    const badFilter = await service.createLink(admin, "test-vendors", { active: "maybe" }).catch((e: unknown) => e);
    expect((badFilter as HttpError).fields).toEqual({ "filters.active": expect.any(String) as unknown });
  });

  it("finding 9: HEAD answers the headers without spending the link (the GET after it still downloads)", async () => {
    const link = await service.createLink(admin, "test-vendors", {});
    const head = await service.peek(tokenOf(link.url));
    expect(head.status).toBe(200);
    expect(head.headers.get("content-disposition")).toBe('attachment; filename="vendors-2026-11-22.csv"');
    expect(head.body).toBeNull();
    expect((await service.peek(tokenOf(link.url))).status).toBe(200);
    const text = await (await service.download(tokenOf(link.url))).text();
    expect(text).toContain("Name,Active");
    // Spent by the GET: HEAD now says so too, and an unknown link is 404.
    await expect(service.peek(tokenOf(link.url))).rejects.toMatchObject({ status: 410 });
    await expect(service.peek("not-a-link")).rejects.toMatchObject({ status: 404 });
  });

  it("finding 9: creating an export is one audit row (who, kind, plain filters), completed with the rows the download sent", async () => {
    const link = await service.createLink(admin, "test-vendors", { active: "true" });
    const rows = () => ctx.database.db.selectFrom("audit_log").selectAll().where("action", "=", "export.create").execute();
    const [row] = await rows();
    expect(row).toMatchObject({ actor_email: "exporter@hki.global", actor_id: "u1", target_type: "export", target_label: "test-vendors", request_id: "exports-test-1", ip_address: "127.0.0.1" });
    expect(JSON.parse(row!.details)).toEqual({ kind: "test-vendors", filters: { active: "true" }, rowCount: null });
    // The token is never stored: the row names the link by its hash.
    expect(JSON.stringify(row)).not.toContain(tokenOf(link.url));

    const csv = await (await service.download(tokenOf(link.url))).text();
    const dataRows = csv.trimEnd().split("\r\n").length - 1;
    expect(dataRows).toBeGreaterThan(14);
    const after = await rows();
    expect(after).toHaveLength(1);
    expect(JSON.parse(after[0]!.details)).toMatchObject({ kind: "test-vendors", filters: { active: "true" }, rowCount: dataRows, complete: true });
  });

  it("finding 9: a download the client abandons records the rows it was sent, marked incomplete", async () => {
    const link = await service.createLink(admin, "test-vendors", {});
    const reader = (await service.download(tokenOf(link.url))).body!.getReader();
    await reader.read(); // header
    await reader.read(); // first page of 7
    await reader.cancel();
    const row = await ctx.database.db.selectFrom("audit_log").select("details").where("action", "=", "export.create").executeTakeFirstOrThrow();
    expect(JSON.parse(row.details)).toMatchObject({ rowCount: 7, complete: false });
  });

  it("neutralises cells that would run as spreadsheet formulas", async () => {
    await ctx.database.db
      .updateTable("vendors")
      .set({ name: '=HYPERLINK("http://evil.example","x")' })
      .where("id", "=", (await ctx.database.db.selectFrom("vendors").select("id").orderBy("id").limit(1).executeTakeFirstOrThrow()).id)
      .execute();
    const link = await service.createLink(admin, "test-vendors", {});
    const text = await (await service.download(tokenOf(link.url))).text();
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(text).not.toMatch(/(^|\r\n)=HYPERLINK/);
  });
});
