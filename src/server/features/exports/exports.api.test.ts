import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExportResponseSchema } from "../../../contract/exports.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";

/**
 * Issue 18, finding 9, through the API: a HEAD request (a link checker, a mail scanner, a proxy)
 * used to spend the single-use link, and neither making nor downloading an export left an audit row.
 */
describe.each(testDatabaseKinds)("export links over HTTP (%s)", (kind) => {
  let ctx: TestContext;
  let admin: { id: string; email: string; token: string };
  beforeAll(async () => {
    ctx = await createTestContext(kind, { seedDemo: true });
    admin = await ctx.createUser({ email: "exports-admin@hki.global" });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it("HEAD tells whether the link works without spending it; the GET after it downloads; the export is one audit row with the rows sent", async () => {
    const created = await ctx.request("/api/admin/exports", {
      method: "POST",
      token: admin.token,
      headers: { "x-request-id": "export-api-1" },
      json: { kind: "audit-log", filters: { targetType: "vendor" } },
    });
    expect(created.status).toBe(201);
    const path = new URL(createExportResponseSchema.parse(await created.json()).url).pathname;

    for (let i = 0; i < 2; i++) {
      const head = await ctx.request(path, { method: "HEAD" });
      expect(head.status).toBe(200);
      expect(head.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(head.headers.get("content-disposition")).toMatch(/^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/);
      expect(await head.text()).toBe("");
    }
    const download = await ctx.request(path);
    expect(download.status).toBe(200);
    const csv = (await download.text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(csv[0]).toMatch(/^Time,Actor,/);
    expect((await ctx.request(path)).status).toBe(410);
    expect((await ctx.request(path, { method: "HEAD" })).status).toBe(410);

    const rows = await ctx.database.db.selectFrom("audit_log").selectAll().where("action", "=", "export.create").execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor_email: admin.email, actor_id: admin.id, actor_role: "admin", target_type: "export", target_label: "audit-log", request_id: "export-api-1" });
    // targetType is free text in the audit log's filters, so only its key is kept.
    expect(JSON.parse(rows[0]!.details)).toMatchObject({ kind: "audit-log", filters: { targetType: "[redacted]" }, rowCount: csv.length - 1, complete: true });
  });
});
