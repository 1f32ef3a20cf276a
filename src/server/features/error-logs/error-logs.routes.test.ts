import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ErrorLevel, ErrorListResponse, ErrorMessageResponse } from "../../../contract/error-logs.ts";
import { newId } from "../../platform/db/ids.ts";
import type { NewErrorLog } from "../../platform/db/schema.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";

const NOW = "2026-11-22T12:00:00.000Z";
const MINUTE = 60_000;
const DAY = 86_400_000;
const LEVELS: ErrorLevel[] = ["error", "warning", "info"];

function entry(overrides: Partial<NewErrorLog> & { created_at: string }): NewErrorLog {
  return {
    id: newId(),
    level: "error",
    message: "boom",
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
    ...overrides,
  };
}

const minutesBefore = (n: number) => new Date(Date.parse(NOW) - n * MINUTE).toISOString();

describe.each(testDatabaseKinds)("error logs API on %s", (kind) => {
  let ctx: TestContext;
  let admin: { token: string; email: string };

  beforeEach(async () => {
    ctx = await createTestContext(kind, { now: NOW });
    admin = await ctx.createUser({ email: "ops@hki.global" });
  });
  afterEach(async () => {
    await ctx.close();
  });

  async function insert(rows: NewErrorLog[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 500) {
      await ctx.database.db
        .insertInto("error_logs")
        .values(rows.slice(i, i + 500))
        .execute();
    }
  }

  async function list(query: string): Promise<ErrorListResponse> {
    const res = await ctx.request(`/api/admin/errors${query}`, { token: admin.token });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as ErrorListResponse;
  }

  /** Ground truth by count(*), for comparison with the trigger-kept counts. */
  async function countsByScan(archived: 0 | 1) {
    const rows = await ctx.database.db
      .selectFrom("error_logs")
      .select(["level", (eb) => eb.fn.countAll<number>().as("n")])
      .where("archived", "=", archived)
      .groupBy("level")
      .execute();
    const out = { all: 0, error: 0, warning: 0, info: 0 };
    for (const r of rows) {
      out[r.level] = Number(r.n);
      out.all += Number(r.n);
    }
    return out;
  }

  /** 7 active (3 error, 2 warning, 2 info) and 4 archived (1 error, 1 warning, 2 info), distinct times. */
  async function insertMix(): Promise<NewErrorLog[]> {
    const plan: Array<[ErrorLevel, 0 | 1]> = [
      ["error", 0],
      ["warning", 0],
      ["info", 0],
      ["error", 0],
      ["error", 1],
      ["warning", 1],
      ["warning", 0],
      ["info", 1],
      ["info", 0],
      ["error", 0],
      ["info", 1],
    ];
    const rows = plan.map(([level, archived], i) =>
      entry({
        level,
        archived,
        archived_at: archived ? minutesBefore(1) : null,
        message: `${level} #${i}`,
        created_at: minutesBefore(100 - i),
      }),
    );
    await insert(rows);
    return rows;
  }

  it("filters by view and level, newest first, with counts for the view and total for the filter", async () => {
    const rows = await insertMix();
    for (const archivedParam of [undefined, "false", "true"] as const) {
      const archived = archivedParam === "true" ? 1 : 0;
      const counts = await countsByScan(archived);
      expect(counts.all).toBe(archived ? 4 : 7);
      for (const level of [undefined, ...LEVELS]) {
        const params = new URLSearchParams();
        if (archivedParam) params.set("archived", archivedParam);
        if (level) params.set("level", level);
        const body = await list(`?${params}`);
        const expected = rows
          .filter((r) => r.archived === archived && (!level || r.level === level))
          .sort((a, b) => b.created_at.localeCompare(a.created_at))
          .map((r) => r.message);
        expect(
          body.errors.map((e) => e.message),
          `${params}`,
        ).toEqual(expected);
        expect(body.total).toBe(expected.length);
        expect(body.counts).toEqual(counts);
        expect(body.nextCursor).toBeNull();
        for (const e of body.errors) expect(e.archived_at === null).toBe(!archived);
      }
    }
  });

  it("answers the product's entity fields", async () => {
    await insert([entry({ created_at: minutesBefore(5), user_email: "a@b.c", user_agent: "UA", stack_trace: "at x", context: '{"a":1}' })]);
    const [e] = (await list("")).errors;
    expect(Object.keys(e!).sort()).toEqual(
      ["archived_at", "context", "created_at", "endpoint", "id", "ip_address", "level", "message", "method", "stack_trace", "status_code", "user_agent", "user_email"].sort(),
    );
    expect(e).toMatchObject({ user_email: "a@b.c", user_agent: "UA", stack_trace: "at x", context: '{"a":1}', status_code: 500 });
  });

  it.each([
    ["?level=fatal", "level"],
    ["?level=", "level"],
    ["?archived=yes", "archived"],
    ["?archived=1", "archived"],
    ["?limit=0", "limit"],
    ["?limit=101", "limit"],
    ["?limit=abc", "limit"],
    ["?page=0", "page"],
    ["?page=-2", "page"],
    ["?page=1.5", "page"],
    ["?page=102&limit=100", "page"],
    ["?page=502", "page"],
    ["?cursor=nonsense", "cursor"],
    [`?cursor=${Buffer.from('["yesterday","x"]').toString("base64url")}`, "cursor"],
    ["?level=error&level=info", "level"],
  ])("rejects %s with a 400 naming %s", async (query, field) => {
    const res = await ctx.request(`/api/admin/errors${query}`, { token: admin.token });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message.startsWith(`${field}`)).toBe(true);
  });

  it("accepts the deepest allowed page number", async () => {
    const body = await list("?page=101&limit=100");
    expect(body.errors).toEqual([]);
  });

  it("pages by number and by cursor through the same rows, ties broken by id", async () => {
    // 45 entries, 5 of them sharing one timestamp, so the id tie-break is exercised.
    const rows = Array.from({ length: 45 }, (_, i) => entry({ created_at: minutesBefore(i < 5 ? 1000 : i), message: `m${i}` }));
    await insert(rows);
    const byPage: string[] = [];
    for (const page of [1, 2, 3]) byPage.push(...(await list(`?page=${page}&limit=20`)).errors.map((e) => e.id));
    const byCursor: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const body: ErrorListResponse = await list(`?limit=20${cursor ? `&cursor=${cursor}` : ""}`);
      byCursor.push(...body.errors.map((e) => e.id));
      expect(body.total).toBe(45);
      cursor = body.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(byCursor).toEqual(byPage);
    expect(new Set(byCursor).size).toBe(45);
    const expected = [...rows].sort((a, b) => b.created_at.localeCompare(a.created_at) || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0));
    expect(byCursor).toEqual(expected.map((r) => r.id));
    // Exactly a page's worth left: the last full page says there is nothing after it.
    expect((await list("?page=3&limit=15")).nextCursor).toBeNull();
    expect((await list("?page=2&limit=15")).nextCursor).not.toBeNull();
  });

  it("keyset pages stay within the filter", async () => {
    await insertMix();
    const first = await list("?level=error&limit=2");
    expect(first.errors.map((e) => e.message)).toEqual(["error #9", "error #3"]);
    const second = await list(`?level=error&limit=2&cursor=${first.nextCursor}`);
    expect(second.errors.map((e) => e.message)).toEqual(["error #0"]);
    expect(second.nextCursor).toBeNull();
  });

  it("archives one entry, idempotently, and 404s an unknown id", async () => {
    const [row] = [entry({ created_at: minutesBefore(10), level: "warning" })];
    await insert([row!]);
    const res = await ctx.request(`/api/admin/errors/${row!.id}/archive`, { method: "POST", token: admin.token });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { error: { archived_at: string } };
    expect(body.error.archived_at).toBe(NOW);
    ctx.clock.advance(30 * MINUTE);
    const again = await ctx.request(`/api/admin/errors/${row!.id}/archive`, { method: "POST", token: admin.token });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { error: { archived_at: string } }).error.archived_at).toBe(NOW);
    expect((await list("")).counts).toEqual({ all: 0, error: 0, warning: 0, info: 0 });
    expect((await list("?archived=true")).counts).toEqual({ all: 1, error: 0, warning: 1, info: 0 });
    const missing = await ctx.request(`/api/admin/errors/${newId()}/archive`, { method: "POST", token: admin.token });
    expect(missing.status).toBe(404);
    const tooLong = await ctx.request(`/api/admin/errors/${"x".repeat(300)}/archive`, { method: "POST", token: admin.token });
    expect(tooLong.status).toBe(404);
  });

  it("archive-all archives every active entry, or one level's, and says how many", async () => {
    await insertMix();
    const warn = await ctx.request("/api/admin/errors/archive-all", { method: "POST", token: admin.token, json: { level: "warning" } });
    expect(warn.status).toBe(200);
    expect(((await warn.json()) as ErrorMessageResponse).message).toBe("Archived 2 warning errors");
    expect((await list("")).counts).toEqual({ all: 5, error: 3, warning: 0, info: 2 });
    expect((await list("?archived=true")).counts).toEqual({ all: 6, error: 1, warning: 3, info: 2 });

    const all = await ctx.request("/api/admin/errors/archive-all", { method: "POST", token: admin.token });
    expect(((await all.json()) as ErrorMessageResponse).message).toBe("Archived 5 errors");
    expect((await list("")).counts).toEqual({ all: 0, error: 0, warning: 0, info: 0 });
    expect(await countsByScan(1)).toEqual((await list("?archived=true")).counts);
    const archived = await list("?archived=true&limit=100");
    expect(archived.errors.filter((e) => e.archived_at === NOW)).toHaveLength(7);

    const none = await ctx.request("/api/admin/errors/archive-all", { method: "POST", token: admin.token, json: {} });
    expect(((await none.json()) as ErrorMessageResponse).message).toBe("Archived 0 errors");

    // Each bulk action that archived anything is in the audit log with who did it and how many rows
    // it touched; the last one changed nothing and left no row.
    const audit = await ctx.database.db.selectFrom("audit_log").selectAll().where("action", "=", "error_logs.archive_all").orderBy("id").execute();
    expect(audit.map((a) => [a.actor_email, a.target_id, JSON.parse(a.details)])).toEqual([
      [admin.email, "warning", { level: "warning", archived: 2 }],
      [admin.email, "all", { level: null, archived: 5 }],
    ]);
  });

  it("formats large archive counts and the singular", async () => {
    await insert(Array.from({ length: 1234 }, (_, i) => entry({ created_at: minutesBefore(i + 1) })));
    await insert([entry({ created_at: minutesBefore(1), level: "info" })]);
    const info = await ctx.request("/api/admin/errors/archive-all", { method: "POST", token: admin.token, json: { level: "info" } });
    expect(((await info.json()) as ErrorMessageResponse).message).toBe("Archived 1 info error");
    const res = await ctx.request("/api/admin/errors/archive-all", { method: "POST", token: admin.token, json: { level: null } });
    expect(((await res.json()) as ErrorMessageResponse).message).toBe("Archived 1,234 errors");
  });

  it("archive-all rejects a bad level and writes nothing", async () => {
    await insertMix();
    for (const json of [{ level: "fatal" }, { level: 3 }, { other: true }]) {
      const res = await ctx.request("/api/admin/errors/archive-all", { method: "POST", token: admin.token, json });
      expect(res.status).toBe(400);
    }
    expect((await list("")).counts.all).toBe(7);
  });

  it("cleanup deletes only entries archived more than 30 days ago (the edge is kept)", async () => {
    const t0 = Date.parse(NOW);
    const at = (ms: number) => new Date(t0 - ms).toISOString();
    const rows = [
      entry({ created_at: at(40 * DAY), archived: 1, archived_at: at(30 * DAY), message: "exactly 30 days" }),
      entry({ created_at: at(40 * DAY), archived: 1, archived_at: at(30 * DAY + 1), message: "30 days + 1 ms" }),
      entry({ created_at: at(90 * DAY), archived: 1, archived_at: at(60 * DAY), level: "info", message: "60 days" }),
      entry({ created_at: at(40 * DAY), archived: 1, archived_at: at(29 * DAY), message: "29 days" }),
      entry({ created_at: at(400 * DAY), message: "old but active" }),
    ];
    await insert(rows);
    const res = await ctx.request("/api/admin/errors/cleanup-archived", { method: "DELETE", token: admin.token });
    expect(res.status).toBe(200);
    expect(((await res.json()) as ErrorMessageResponse).message).toBe("Deleted 2 archived errors older than 30 days");
    const audit = await ctx.database.db.selectFrom("audit_log").selectAll().where("action", "=", "error_logs.cleanup_archived").execute();
    expect(audit.map((a) => JSON.parse(a.details))).toEqual([{ deleted: 2, retentionDays: 30 }]);
    const left = await ctx.database.db.selectFrom("error_logs").select("message").orderBy("message").execute();
    expect(left.map((r) => r.message)).toEqual(["29 days", "exactly 30 days", "old but active"]);
    expect((await list("?archived=true")).counts).toEqual({ all: 2, error: 2, warning: 0, info: 0 });

    // One millisecond later the edge entry has passed 30 days.
    ctx.clock.advance(1);
    const next = await ctx.request("/api/admin/errors/cleanup-archived", { method: "DELETE", token: admin.token });
    expect(((await next.json()) as ErrorMessageResponse).message).toBe("Deleted 1 archived error older than 30 days");
    ctx.clock.advance(DAY);
    // Test sessions last an hour: sign in again after moving the clock a day.
    admin = await ctx.createUser({ email: "ops2@hki.global" });
    const last = await ctx.request("/api/admin/errors/cleanup-archived", { method: "DELETE", token: admin.token });
    expect(((await last.json()) as ErrorMessageResponse).message).toBe("Deleted 1 archived error older than 30 days");
    expect((await list("?archived=true")).counts.all).toBe(0);
    expect((await list("")).counts.all).toBe(1);
  });

  it("counts include entries the ErrorRecorder writes (rejected admin access is a warning)", async () => {
    const user = await ctx.createUser({ email: "someone@example.com" });
    const res = await ctx.request("/api/admin/errors", { token: user.token });
    expect(res.status).toBe(403);
    const body = await list("");
    expect(body.counts).toEqual({ all: 1, error: 0, warning: 1, info: 0 });
    expect(body.errors[0]).toMatchObject({ level: "warning", status_code: 403, user_email: "someone@example.com", method: "GET" });
    expect(await countsByScan(0)).toEqual(body.counts);
  });

  it("requires an admin", async () => {
    expect((await ctx.request("/api/admin/errors")).status).toBe(401);
    expect((await ctx.request("/api/admin/errors/archive-all", { method: "POST" })).status).toBe(401);
    expect((await ctx.request("/api/admin/errors/cleanup-archived", { method: "DELETE" })).status).toBe(401);
  });
});
