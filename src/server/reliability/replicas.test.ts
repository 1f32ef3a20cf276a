import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import type { Hono } from "hono";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import { createVendor } from "../domain/ledger/vendors.ts";
import { type Database, openDatabase } from "../platform/db/connect.ts";
import { createLogger } from "../platform/logging/logger.ts";
import { cacheLookups } from "../platform/metrics/metrics.ts";
import type { AppEnv } from "../platform/request/app-env.ts";
import { createRuntime } from "../runtime.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../testing/test-app.ts";

/**
 * Two server instances on ONE database (docs/decisions/0014-caches-across-replicas.md): replica A is
 * the test context's app, replica B a second runtime with its own connection(s) — on SQLite a second
 * connection to the same file (what a second process has), on PostgreSQL its own pool and its own
 * change feed on the same schema. Each keeps sessions and read answers cached; a change made through
 * A must be refused or shown by B within a second. The clock is fixed, so the read cache's age limit
 * never expires an answer here: only the invalidation can make B see the change.
 */
const SEEN_WITHIN_MS = 1000;

async function eventually(check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > SEEN_WITHIN_MS) return Number.POSITIVE_INFINITY;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function hits(cache: "session" | "read"): Promise<number> {
  const metric = await cacheLookups.get();
  return metric.values.filter((v) => v.labels.cache === cache && v.labels.result === "hit").reduce((sum, v) => sum + v.value, 0);
}

/** True once `read` is answered from B's `cache` (the set-up's own writes may still be arriving as notifications). */
async function answeredFromCache(cache: "session" | "read", read: () => Promise<unknown>): Promise<boolean> {
  const ms = await eventually(async () => {
    const before = await hits(cache);
    await read();
    return (await hits(cache)) > before;
  });
  return ms <= SEEN_WITHIN_MS;
}

describe.each(testDatabaseKinds)("changes made through one replica, seen by the other (%s)", (kind) => {
  let dir: string;
  let a: TestContext;
  let bDatabase: Database;
  let b: Hono<AppEnv>;

  const onB = (path: string, token: string) => Promise.resolve(b.request(path, { headers: { authorization: `Bearer ${token}` } }));

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "hki-replicas-"));
    const path = join(dir, "admin.sqlite");
    a = await createTestContext(kind, kind === "sqlite" ? { sqlitePath: path } : {});
    if (kind === "sqlite") {
      bDatabase = openDatabase({ kind: "sqlite", path });
    } else {
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(a.database.db);
      bDatabase = openDatabase({ kind: "postgres", url: process.env.TEST_DATABASE_URL!, searchPath: rows[0]!.schema });
    }
    const deps = await createRuntime(a.config, { clock: a.clock, database: bDatabase, announce: () => undefined, logger: createLogger("silent") });
    b = createApp(deps);
    // Both replicas cache across processes: SQLite by its data_version, PostgreSQL by the change feed.
    expect(a.database.versionCoversOtherProcesses).toBe(true);
    expect(bDatabase.versionCoversOtherProcesses).toBe(true);
  });
  afterEach(async () => {
    await bDatabase.close();
    await a.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a sign-out through A is refused by B within a second", async () => {
    const admin = await a.createUser({ email: "boss@hki.global", role: "admin" });
    expect((await onB("/api/auth/me", admin.token)).status).toBe(200);
    expect(await answeredFromCache("session", () => onB("/api/auth/me", admin.token))).toBe(true);

    expect((await a.request("/api/auth/sign-out", { method: "POST", token: admin.token })).status).toBe(204);

    expect(await eventually(async () => (await onB("/api/auth/me", admin.token)).status === 401)).toBeLessThanOrEqual(SEEN_WITHIN_MS);
  });

  it("a role change through A is applied by B within a second", async () => {
    const root = await a.createUser({ email: "root@hki.global", role: "admin" });
    // Not of the company domain, so the role alone decides (admin-rule.ts).
    const staff = await a.createUser({ email: "staff@example.com", role: "admin" });
    const role = async () => ((await (await onB("/api/auth/me", staff.token)).json()) as { user: { role: string } }).user.role;
    expect(await role()).toBe("admin");
    expect(await answeredFromCache("session", role)).toBe(true);

    const res = await a.request(`/api/admin/users/${staff.id}`, { method: "PATCH", token: root.token, json: { role: "viewer" } });
    expect(res.status).toBe(200);

    expect(await eventually(async () => (await role()) === "viewer")).toBeLessThanOrEqual(SEEN_WITHIN_MS);
    // And the viewer rule holds on B: reads yes, writes no.
    const write = await b.request("/api/admin/users/invite", {
      method: "POST",
      headers: { authorization: `Bearer ${staff.token}`, "content-type": "application/json" },
      body: JSON.stringify({ email: "x@example.com", role: "viewer" }),
    });
    expect(write.status).toBe(403);
  });

  it("a vendor status change through A shows on B's cached dashboard within a second", async () => {
    const admin = await a.createUser({ email: "boss@hki.global", role: "admin" });
    const vendor = await createVendor(a.database.db, { name: "Replica Store", ownerName: "O", email: "owner@store.example", slug: "replica-store" }, a.clock);
    const activeOnB = async () => ((await (await onB("/api/admin/dashboard/stats", admin.token)).json()) as { activeVendors: number }).activeVendors;
    const active = await activeOnB();
    expect(active).toBeGreaterThanOrEqual(1);
    expect(await answeredFromCache("read", activeOnB)).toBe(true);
    expect(await activeOnB()).toBe(active);

    const res = await a.request(`/api/vendors/${vendor.id}/status`, { method: "PATCH", token: admin.token, json: { isActive: false, reason: "Orders not shipped" } });
    expect(res.status).toBe(200);

    expect(await eventually(async () => (await activeOnB()) === active - 1)).toBeLessThanOrEqual(SEEN_WITHIN_MS);
  });
  it("the lists, a vendor's detail and tabs, and the settings kept on B follow changes made through A within a second", async () => {
    const admin = await a.createUser({ email: "lists@hki.global", role: "admin" });
    const vendor = await createVendor(a.database.db, { name: "Kept Answers Store", ownerName: "O", email: "kept@store.example", slug: "kept-answers" }, a.clock);
    await a.database.db
      .insertInto("error_logs")
      .values({ id: "err-kept-1", level: "error", message: "Kept answer failure", created_at: "2026-01-01T00:00:00.000Z", archived_at: null, archived: 0 } as never)
      .execute();
    const json = async <T>(path: string) => (await (await onB(path, admin.token)).json()) as T;
    const reads = {
      inactiveVendors: async () => (await json<{ counts: { inactive: number } }>("/api/admin/vendors?page=1&limit=20")).counts.inactive,
      detail: async () => (await json<{ status: string }>(`/api/admin/vendors/${vendor.id}`)).status,
      sales: async () => (await json<{ total: number }>(`/api/admin/vendors/${vendor.id}/sales?page=1&limit=20`)).total,
      errors: async () => (await json<{ errors: Array<{ id: string }> }>("/api/admin/errors?page=1&limit=20")).errors.map((e) => e.id),
      fee: async () => (await json<Record<string, { value: string }>>("/api/admin/settings")).platform_fee_percentage?.value,
    };
    const inactive = await reads.inactiveVendors();
    expect(await reads.detail()).toBe("active");
    expect(await reads.errors()).toContain("err-kept-1");
    const fee = await reads.fee();
    // Each of them is answered from B's read cache once the set-up's writes have arrived.
    for (const read of Object.values(reads)) expect(await answeredFromCache("read", read)).toBe(true);

    expect((await a.request(`/api/vendors/${vendor.id}/status`, { method: "PATCH", token: admin.token, json: { isActive: false, reason: "Orders not shipped" } })).status).toBe(200);
    expect((await a.request("/api/admin/errors/err-kept-1/archive", { method: "POST", token: admin.token })).status).toBe(200);
    const newFee = fee === "12" ? "13" : "12";
    expect((await a.request("/api/admin/settings", { method: "PUT", token: admin.token, json: { platform_fee_percentage: newFee } })).status).toBe(200);

    expect(await eventually(async () => (await reads.inactiveVendors()) === inactive + 1)).toBeLessThanOrEqual(SEEN_WITHIN_MS);
    expect(await reads.detail()).toBe("suspended");
    expect(await reads.errors()).not.toContain("err-kept-1");
    expect(await reads.fee()).toBe(newFee);
  });
});
