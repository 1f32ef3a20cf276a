import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ErrorListResponse, errorListResponseSchema, errorMessageResponseSchema } from "../../../contract/error-logs.ts";
import { newId } from "../../platform/db/ids.ts";
import type { NewErrorLog } from "../../platform/db/schema.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { listErrorLogsQuery } from "./error-logs.queries.ts";

/** The error log oldest first (keyset pages) and the archive of selected entries (all or nothing, one audit row). */

const NOW = "2026-11-22T12:00:00.000Z";

function entry(i: number, overrides: Partial<NewErrorLog> = {}): NewErrorLog {
  // Pairs of entries share a time, so the id breaks the tie.
  const created_at = new Date(Date.parse(NOW) - Math.floor(i / 2) * 60_000).toISOString();
  return {
    id: newId(),
    level: i % 3 === 0 ? "warning" : "error",
    message: `failure ${i}`,
    endpoint: "/api/x",
    method: "GET",
    status_code: 500,
    user_email: null,
    ip_address: "10.0.0.1",
    user_agent: null,
    stack_trace: null,
    context: null,
    fingerprint: null,
    archived_at: null,
    archived: 0,
    created_at,
    ...overrides,
  };
}

describe.each(testDatabaseKinds)("error logs sort and archive selected on %s", (kind) => {
  let ctx: TestContext;
  let admin: { token: string };
  let rows: NewErrorLog[];

  beforeEach(async () => {
    ctx = await createTestContext(kind, { now: NOW });
    admin = await ctx.createUser({ email: "ops@hki.global" });
    rows = Array.from({ length: 23 }, (_, i) => entry(i, i >= 20 ? { archived: 1, archived_at: NOW } : {}));
    await ctx.database.db.insertInto("error_logs").values(rows).execute();
  });
  afterEach(async () => {
    await ctx.close();
  });

  async function list(query: string): Promise<ErrorListResponse> {
    const res = await ctx.request(`/api/admin/errors?${query}`, { token: admin.token });
    expect(res.status, await res.clone().text()).toBe(200);
    return errorListResponseSchema.parse(await res.json());
  }

  async function walk(query: string): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    for (let n = 0; n < 30; n++) {
      const page = await list(`${query}&limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      ids.push(...page.errors.map((e) => e.id));
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    return ids;
  }

  const ordered = (keep: (e: NewErrorLog) => boolean, oldest: boolean) =>
    rows
      .filter(keep)
      .sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1) * (oldest ? 1 : -1))
      .map((e) => e.id);

  it("pages oldest first and newest first across pages, in each view and level", async () => {
    expect(await walk("sort=oldest")).toEqual(ordered((e) => e.archived === 0, true));
    expect(await walk("sort=newest")).toEqual(ordered((e) => e.archived === 0, false));
    expect(await walk("sort=oldest&level=warning")).toEqual(ordered((e) => e.archived === 0 && e.level === "warning", true));
    expect(await walk("sort=oldest&archived=true")).toEqual(ordered((e) => e.archived === 1, true));
    // Page numbers follow the order too.
    expect((await list("sort=oldest&page=2&limit=5")).errors.map((e) => e.id)).toEqual(ordered((e) => e.archived === 0, true).slice(5, 10));
  });

  it.runIf(kind === "sqlite")("oldest first walks the same index forwards: no scan, no sort", () => {
    for (const level of [undefined, "warning" as const]) {
      for (const after of [undefined, { createdAt: "2026-10-10T00:00:00.000Z", id: "z" }]) {
        const compiled = listErrorLogsQuery(ctx.database.db, { archived: false, level, limit: 20, offset: 0, after, oldestFirst: true }).compile();
        const plan = (ctx.database.sqlite!.prepare(`explain query plan ${compiled.sql}`).all(...(compiled.parameters as unknown[])) as Array<{ detail: string }>).map((r) => r.detail).join(" | ");
        expect(plan).toMatch(level ? /USING INDEX error_logs_view_level_idx/ : /USING INDEX error_logs_view_idx/);
        expect(plan).not.toMatch(/TEMP B-TREE|SCAN error_logs$/);
      }
    }
  });

  it("400 for an unknown sort or a cursor of the other order", async () => {
    expect((await ctx.request("/api/admin/errors?sort=random", { token: admin.token })).status).toBe(400);
    const newest = await list("limit=2");
    const oldest = await list("sort=oldest&limit=2");
    for (const query of [`sort=oldest&cursor=${encodeURIComponent(newest.nextCursor!)}`, `sort=newest&cursor=${encodeURIComponent(oldest.nextCursor!)}`]) {
      const res = await ctx.request(`/api/admin/errors?${query}`, { token: admin.token });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("cursor");
    }
  });

  describe("POST /api/admin/errors/archive", () => {
    const archive = (json: unknown) => ctx.request("/api/admin/errors/archive", { method: "POST", token: admin.token, json });
    const state = async () => ({
      rows: await ctx.database.db.selectFrom("error_logs").select(["id", "archived", "archived_at"]).orderBy("id").execute(),
      counts: (await list("")).counts,
      audit: await ctx.database.db.selectFrom("audit_log").select("action").execute(),
    });

    it("one unknown id archives nothing", async () => {
      const before = await state();
      const res = await archive({ ids: [rows[0]!.id, rows[1]!.id, "no-such-entry"] });
      expect(res.status).toBe(404);
      expect(await res.text()).toContain("no-such-entry");
      expect(await state()).toEqual(before);
    });

    it("archives the selected entries with one audit row; archived ones stay as they were", async () => {
      const before = (await list("")).counts;
      const ids = [rows[0]!.id, rows[1]!.id, rows[3]!.id, rows[21]!.id];
      const res = await archive({ ids });
      expect(res.status).toBe(200);
      expect(errorMessageResponseSchema.parse(await res.json())).toEqual({ message: "Archived 3 errors", count: 3 });
      // rows 0 and 3 are warnings, row 1 an error (i % 3 === 0).
      expect((await list("")).counts).toEqual({ ...before, all: before.all - 3, warning: before.warning - 2, error: before.error - 1 });
      const kept = await ctx.database.db.selectFrom("error_logs").select("archived_at").where("id", "=", rows[21]!.id).executeTakeFirstOrThrow();
      expect(kept.archived_at).toBe(NOW);
      const audit = await ctx.database.db.selectFrom("audit_log").selectAll().execute();
      expect(audit.map((a) => a.action)).toEqual(["error_logs.archive_selected"]);
      // The row names the entries this archived; the one already archived is only counted.
      expect(JSON.parse(audit[0]!.details!)).toEqual({ ids: ids.slice(0, 3), archived: 3, unchanged: 1 });
    });

    it("400 for no ids, more than 500, a repeated id or an extra key", async () => {
      const id = rows[0]!.id;
      for (const body of [{ ids: [] }, { ids: Array.from({ length: 501 }, (_, i) => `e-${i}`) }, { ids: [id, id] }, { ids: [id], level: "error" }]) {
        expect((await archive(body)).status).toBe(400);
      }
      expect((await list("")).counts.all).toBe(20);
    });
  });
});
