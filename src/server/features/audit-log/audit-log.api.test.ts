import { Kysely, SqliteDialect } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { auditLogResponseSchema } from "../../../contract/audit-log.ts";
import { createExportResponseSchema } from "../../../contract/exports.ts";
import { ConfigError, loadConfig } from "../../platform/config/config.ts";
import { newId } from "../../platform/db/ids.ts";
import type { DB } from "../../platform/db/schema.ts";
import { JobWorker } from "../../platform/jobs/job-worker.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { auditJobs, sweepAuditRetention } from "./audit-retention.job.ts";
import { type AuditRowFilters, listAuditRowsQuery } from "../../domain/audit/audit.queries.ts";

const DAY_MS = 86_400_000;
const NOW = Date.parse("2026-11-22T12:00:00.000Z");

/** Rows written straight into audit_log: `minutesAgo` apart, for filters and paging. */
async function seedRows(
  t: TestContext,
  rows: Array<Partial<{ actor: string; action: string; type: string; id: string; label: string; minutesAgo: number; before: object; after: object }>>,
): Promise<void> {
  for (const [i, r] of rows.entries()) {
    await t.database.db
      .insertInto("audit_log")
      .values({
        id: newId(),
        actor_email: r.actor ?? "ops@hki.global",
        actor_id: null,
        actor_role: "admin",
        action: r.action ?? "vendor.disable",
        target_type: r.type ?? "vendor",
        target_id: r.id ?? `v${i}`,
        target_label: r.label ?? `Vendor ${i}`,
        before_value: r.before ? JSON.stringify(r.before) : null,
        after_value: r.after ? JSON.stringify(r.after) : null,
        details: "{}",
        ip_address: "203.0.113.7",
        user_agent: "tests",
        request_id: `req-${i}`,
        created_at: new Date(NOW - (r.minutesAgo ?? i) * 60_000).toISOString(),
      })
      .execute();
  }
}

describe.each(testDatabaseKinds)("the audit log API on %s (docs/product.md §14.4)", (kind) => {
  let t: TestContext;
  let admin: Awaited<ReturnType<TestContext["createUser"]>>;
  beforeEach(async () => {
    t = await createTestContext(kind);
    admin = await t.createUser({ email: "auditor@hki.global" });
  });
  afterEach(async () => {
    await t.close();
  });

  const get = async (query: string, token = admin.token) => {
    const res = await t.request(`/api/admin/audit-log${query}`, { token });
    expect(res.status, await res.clone().text()).toBe(200);
    return auditLogResponseSchema.parse(await res.json());
  };

  it("answers newest first with actor, target, before/after, origin and request id, page by page", async () => {
    await seedRows(
      t,
      Array.from({ length: 7 }, (_, i) => ({ minutesAgo: i, before: { isActive: true }, after: { isActive: false } })),
    );
    const first = await get("?limit=3");
    expect(first.entries.map((e) => e.target.id)).toEqual(["v0", "v1", "v2"]);
    expect(first.entries[0]).toMatchObject({
      actor: { id: null, email: "ops@hki.global", role: "admin" },
      action: "vendor.disable",
      target: { type: "vendor", id: "v0", label: "Vendor 0" },
      before: { isActive: true },
      after: { isActive: false },
      details: {},
      ipAddress: "203.0.113.7",
      userAgent: "tests",
      requestId: "req-0",
      createdAt: "2026-11-22T12:00:00.000Z",
    });
    const second = await get(`?limit=3&cursor=${first.nextCursor}`);
    const third = await get(`?limit=3&cursor=${second.nextCursor}`);
    expect([...second.entries, ...third.entries].map((e) => e.target.id)).toEqual(["v3", "v4", "v5", "v6"]);
    expect(third.nextCursor).toBeNull();
  });

  it("filters by actor, action, target, target type and time", async () => {
    await seedRows(t, [
      { actor: "a@hki.global", action: "vendor.disable", type: "vendor", id: "v1", minutesAgo: 10 },
      { actor: "b@hki.global", action: "vendor.enable", type: "vendor", id: "v1", minutesAgo: 5 },
      { actor: "a@hki.global", action: "settings.update", type: "settings", id: "platform", minutesAgo: 2 * 24 * 60 },
      { actor: "b@hki.global", action: "vendor.delete", type: "vendor", id: "v2", minutesAgo: 1 },
    ]);
    const ids = async (q: string) => (await get(q)).entries.map((e) => `${e.action}:${e.target.id}`);
    expect(await ids("?actor=A@HKI.global")).toEqual(["vendor.disable:v1", "settings.update:platform"]);
    expect(await ids("?action=vendor.enable")).toEqual(["vendor.enable:v1"]);
    expect(await ids("?targetType=vendor&targetId=v1")).toEqual(["vendor.enable:v1", "vendor.disable:v1"]);
    expect(await ids("?targetType=settings")).toEqual(["settings.update:platform"]);
    expect(await ids("?from=2026-11-22")).toEqual(["vendor.delete:v2", "vendor.enable:v1", "vendor.disable:v1"]);
    expect(await ids("?to=2026-11-21")).toEqual(["settings.update:platform"]);
    expect(await ids("?from=2026-11-22T11:52:00Z&to=2026-11-22T11:58:00.000Z")).toEqual(["vendor.enable:v1"]);
    expect(await ids("?actor=b@hki.global&action=vendor.delete")).toEqual(["vendor.delete:v2"]);
  });

  it("refuses bad filters, naming the field", async () => {
    for (const [query, field] of [
      ["?targetId=v1", "targetId"],
      ["?from=yesterday", "from"],
      ["?to=2026-13-45", "to"],
      ["?cursor=not-ours", "cursor"],
      ["?limit=0", "limit"],
    ] as const) {
      const res = await t.request(`/api/admin/audit-log${query}`, { token: admin.token });
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { error: { fields: Record<string, string> } }).error.fields, query).toHaveProperty(field);
    }
  });

  it("is readable by a viewer", async () => {
    const viewer = await t.createUser({ email: "accountant@example.com", role: "viewer" });
    await seedRows(t, [{}]);
    expect((await get("", viewer.token)).entries).toHaveLength(1);
  });

  it("exports the same filter as CSV through the one export mechanism, formulas neutralised", async () => {
    await seedRows(t, [
      { action: "vendor.disable", id: "v1", label: '=HYPERLINK("http://evil.example")', before: { isActive: true }, after: { isActive: false } },
      { action: "vendor.enable", id: "v2", label: "Calm Studio" },
    ]);
    const link = await t.request("/api/admin/exports", { method: "POST", token: admin.token, json: { kind: "audit-log", filters: { action: "vendor.disable" } } });
    expect(link.status).toBe(201);
    const { url, filename } = createExportResponseSchema.parse(await link.json());
    expect(filename).toBe("audit-log-2026-11-22.csv");
    const csv = await (await t.request(url)).text();
    const lines = csv
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toBe("Time,Actor,Actor role,Action,Target type,Target id,Target,Before,After,Details,IP address,User agent,Request id");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`vendor.disable,vendor,v1,"'=HYPERLINK(""http://evil.example"")","{""isActive"":true}","{""isActive"":false}",,203.0.113.7,tests,req-0`);
    const bad = await t.request("/api/admin/exports", { method: "POST", token: admin.token, json: { kind: "audit-log", filters: { targetId: "v1" } } });
    expect(bad.status).toBe(400);
  });

  it("removes rows older than the retention in chunks, records the sweep, and keeps the rest", async () => {
    await seedRows(t, [...Array.from({ length: 7 }, (_, i) => ({ id: `old${i}`, minutesAgo: 400 * 24 * 60 + i })), { id: "boundary", minutesAgo: 365 * 24 * 60 - 1 }, { id: "new", minutesAgo: 1 }]);
    const chunks: number[] = [];
    const result = await sweepAuditRetention(t.database.db, t.clock, 365, { chunkRows: 3, onChunk: async (n) => void chunks.push(n) });
    expect(result).toEqual({ deleted: 7, cutoff: new Date(NOW - 365 * DAY_MS).toISOString(), stopped: false });
    expect(chunks).toEqual([3, 6, 7]);
    const left = await t.database.db.selectFrom("audit_log").select(["target_id", "action"]).orderBy("created_at").execute();
    expect(left.map((r) => r.target_id)).toEqual(["boundary", "new", "retention"]);
    expect(left[2]!.action).toBe("audit_log.retention");
    // Nothing older left: the next sweep deletes nothing and records nothing.
    expect((await sweepAuditRetention(t.database.db, t.clock, 365)).deleted).toBe(0);
    expect(await t.database.db.selectFrom("audit_log").select("id").execute()).toHaveLength(3);
  });

  it("runs the sweep as a daily job with AUDIT_RETENTION_DAYS, never in a request", async () => {
    await t.close();
    t = await createTestContext(kind, { env: { AUDIT_RETENTION_DAYS: "30" } });
    await seedRows(t, [
      { id: "old", minutesAgo: 31 * 24 * 60 },
      { id: "recent", minutesAgo: 29 * 24 * 60 },
    ]);
    const worker = new JobWorker(t.database, t.clock);
    auditJobs(worker, t.deps);
    await worker.enqueueDueSchedules();
    expect(await worker.runOnce()).toBe(true);
    const job = await t.database.db.selectFrom("jobs").select(["kind", "status", "result"]).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ kind: "audit.retention", status: "completed" });
    expect(JSON.parse(job.result!)).toMatchObject({ deleted: 1 });
    // Once a day: the same day's schedule does not queue it again.
    await worker.enqueueDueSchedules();
    expect(await worker.runOnce()).toBe(false);
    await worker.stop();
  });

  it("sweeps a large log in slices: a run that used its slice queues a continuation, so other jobs get their turn", async () => {
    await seedRows(
      t,
      Array.from({ length: 7 }, (_, i) => ({ id: `old${i}`, minutesAgo: 400 * 24 * 60 + i })),
    );
    const worker = new JobWorker(t.database, t.clock);
    // A slice of 0 ms: every run stops after its first chunk (3 rows) and hands over.
    auditJobs(worker, t.deps, { sliceMs: 0, chunkRows: 3 });
    await worker.enqueueDueSchedules();
    for (let run = 0; run < 10 && (await worker.runOnce()); run++);
    const runs = await t.database.db.selectFrom("jobs").select(["status", "result"]).where("kind", "=", "audit.retention").orderBy("created_at").orderBy("id").execute();
    const results = runs.map((r) => JSON.parse(r.result!) as { deleted: number; continued: boolean });
    expect(runs.every((r) => r.status === "completed")).toBe(true);
    expect(results.map((r) => r.deleted).sort()).toEqual([0, 1, 3, 3]);
    expect(results.filter((r) => !r.continued)).toEqual([expect.objectContaining({ deleted: 0, continued: false })]);
    const left = await t.database.db.selectFrom("audit_log").select("target_id").where("target_id", "like", "old%").execute();
    expect(left).toEqual([]);
    await worker.stop();
  });
});

describe("AUDIT_RETENTION_DAYS", () => {
  it("defaults to 365 and takes a whole number of days", () => {
    expect(loadConfig({}).auditRetentionDays).toBe(365);
    expect(loadConfig({ AUDIT_RETENTION_DAYS: "90" }).auditRetentionDays).toBe(90);
  });
  it.each(["0", "-5", "1.5", "forever", "36501"])("refuses %s with one clear line", (value) => {
    expect(() => loadConfig({ AUDIT_RETENTION_DAYS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ AUDIT_RETENTION_DAYS: value })).toThrow("Invalid AUDIT_RETENTION_DAYS: must be a whole number of days from 1 to 36500");
  });
});

/**
 * Every filter of the log walks an index (docs/product.md §12.3): with the statistics of a
 * million-row log, EXPLAIN QUERY PLAN of each list statement shows a SEARCH, never a SCAN of
 * audit_log, and no sort (the index gives the order).
 */
describe("audit log query plans (sqlite, a million rows)", () => {
  let t: TestContext;
  let db: Kysely<DB>;
  beforeAll(async () => {
    t = await createTestContext("sqlite");
    await seedRows(
      t,
      Array.from({ length: 50 }, (_, i) => ({ actor: `a${i % 5}@hki.global`, action: `act.${i % 7}`, type: i % 2 ? "vendor" : "settings", id: `t${i % 11}` })),
    );
    const sqlite = t.database.sqlite!;
    sqlite.exec("ANALYZE");
    const stats = sqlite.prepare("select idx, stat from sqlite_stat1 where tbl = 'audit_log'").all() as Array<{ idx: string | null; stat: string }>;
    const update = sqlite.prepare("update sqlite_stat1 set stat = ? where tbl = 'audit_log' and idx is ?");
    for (const s of stats) update.run(["1000000", ...s.stat.split(" ").slice(1)].join(" "), s.idx);
    sqlite.exec("ANALYZE sqlite_schema");
    db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
  });
  afterAll(async () => {
    await t.close();
  });

  const cursor = { createdAt: "2026-11-22T11:30:00.000Z", id: "01890000-0000-7000-8000-000000000000" };
  it.each<[string, AuditRowFilters]>([
    ["no filter", {}],
    ["actor", { actorEmail: "a1@hki.global" }],
    ["action", { action: "act.3" }],
    ["target", { targetType: "vendor", targetId: "t3" }],
    ["target type", { targetType: "vendor" }],
    ["time range", { from: "2026-11-22T00:00:00.000Z", to: "2026-11-22T11:00:00.000Z" }],
    ["actor and time", { actorEmail: "a1@hki.global", from: "2026-11-22T00:00:00.000Z" }],
  ])("%s: an index walk, no scan, no sort", (_label, filters) => {
    for (const after of [undefined, cursor]) {
      const compiled = listAuditRowsQuery(db, filters, after, 51).compile();
      const plan = (t.database.sqlite!.prepare(`EXPLAIN QUERY PLAN ${compiled.sql}`).all(...(compiled.parameters as unknown[])) as Array<{ detail: string }>).map((r) => r.detail).join(" | ");
      expect(plan, plan).toMatch(/SEARCH audit_log USING (COVERING )?INDEX|SCAN audit_log USING INDEX audit_log_created_idx/);
      expect(plan, plan).not.toMatch(/SCAN audit_log$|SCAN audit_log \||USE TEMP B-TREE/);
    }
  });
});
