import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Hono } from "hono";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { apiKeysResponseSchema, createdApiKeySchema } from "../../../contract/integrations.ts";
import { createApp } from "../../app.ts";
import { type Database, openDatabase } from "../../platform/db/connect.ts";
import { hashApiKey } from "../../platform/identity/api-keys.ts";
import { createLogger } from "../../platform/logging/logger.ts";
import type { AppEnv } from "../../platform/request/app-env.ts";
import { API_KEY_RATE_RULE } from "../../platform/request/api-key-guard.ts";
import { createRuntime } from "../../runtime.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { artist, event, postEvents, send } from "../../testing/storefront-events.ts";

const NOW = "2026-11-22T12:00:00.000Z";

describe.each(testDatabaseKinds)("API keys (%s)", (kind) => {
  let ctx: TestContext;
  let admin: { token: string; email: string };

  const create = (json: unknown, token = admin.token) => ctx.request("/api/admin/integrations/api-keys", { method: "POST", token, json });
  const list = async () => {
    const res = await ctx.request("/api/admin/integrations/api-keys", { token: admin.token });
    expect(res.status).toBe(200);
    return apiKeysResponseSchema.parse(await res.json()).items;
  };
  const revoke = (id: string, token = admin.token) => ctx.request(`/api/admin/integrations/api-keys/${id}`, { method: "DELETE", token });

  beforeEach(async () => {
    ctx = await createTestContext(kind, { now: NOW });
    admin = await ctx.createUser({ email: "boss@hki.global", role: "admin" });
  });
  afterEach(async () => {
    await ctx.close();
  });

  it("creates a key shown once (hki_sk_ + 32 random bytes), stores only its hash, lists name, scopes, prefix, last four, who and when", async () => {
    const res = await create({ name: "Storefront (production)", scopes: ["events:write"] });
    expect(res.status).toBe(201);
    const { apiKey, key } = createdApiKeySchema.parse(await res.json());
    expect(key).toMatch(/^hki_sk_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(key.slice("hki_sk_".length), "base64url")).toHaveLength(32);
    expect(apiKey).toMatchObject({
      name: "Storefront (production)",
      scopes: ["events:write"],
      prefix: key.slice(0, 11),
      lastFour: key.slice(-4),
      createdBy: "boss@hki.global",
      createdAt: NOW,
      lastUsedAt: null,
      revokedAt: null,
    });

    const rows = await ctx.database.db.selectFrom("api_keys").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key_hash).toBe(hashApiKey(key));
    expect(JSON.stringify(rows)).not.toContain(key.slice("hki_sk_".length));

    const items = await list();
    expect(items).toEqual([apiKey]);
    expect(JSON.stringify(items)).not.toContain(key);

    const audit = await ctx.database.db.selectFrom("audit_log").select(["action", "target_id", "details", "after_value"]).where("action", "like", "api_key.%").execute();
    expect(audit).toEqual([expect.objectContaining({ action: "api_key.create", target_id: apiKey.id })]);
    expect(JSON.stringify(audit)).not.toContain(key.slice("hki_sk_".length));
  });

  it("refuses a bad name or scopes with the field named, and changes nothing", async () => {
    for (const [json, field] of [
      [{ name: "", scopes: ["events:write"] }, "name"],
      [{ name: "x", scopes: [] }, "scopes"],
      [{ name: "x", scopes: ["admin:everything"] }, "scopes.0"],
      [{ name: "x", scopes: ["events:write", "events:write"] }, "scopes"],
      [{ name: "a\u202Eb", scopes: ["events:write"] }, "name"],
    ] as const) {
      const res = await create(json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(((await res.json()) as { error: { fields: Record<string, string> } }).error.fields).toHaveProperty(field);
    }
    expect(await list()).toEqual([]);
  });

  it("is for admins only: a viewer reads but cannot create or revoke (403), anyone else gets 401/403", async () => {
    const viewer = await ctx.createUser({ email: "viewer@example.com", role: "viewer" });
    const user = await ctx.createUser({ email: "someone@example.com", role: "user" });
    expect((await create({ name: "x", scopes: ["events:write"] }, viewer.token)).status).toBe(403);
    expect((await create({ name: "x", scopes: ["events:write"] }, user.token)).status).toBe(403);
    expect((await ctx.request("/api/admin/integrations/api-keys", { method: "POST", json: { name: "x", scopes: ["events:write"] } })).status).toBe(401);
    expect(await list()).toEqual([]);
  });

  it("a key authorises only its scopes and only API-key routes: on an admin route 401, a session on /api/events 401, a key without the scope 403", async () => {
    const { key: writer } = createdApiKeySchema.parse(await (await create({ name: "Writer", scopes: ["events:write"] })).json());
    expect((await ctx.request("/api/admin/integrations/api-keys", { token: writer })).status).toBe(401);
    expect((await ctx.request("/api/admin/dashboard/stats", { token: writer })).status).toBe(401);
    expect((await ctx.request("/api/auth/me", { token: writer })).status).toBe(401);
    expect((await postEvents(ctx, admin.token, [event("artist.created", artist("a1"))])).status).toBe(401);
    expect((await postEvents(ctx, "hki_sk_not-a-real-key", [event("artist.created", artist("a1"))])).status).toBe(401);
    expect((await ctx.request("/api/events", { method: "POST", json: { events: [] } })).status).toBe(401);
    // A key whose scopes no longer include events:write (scopes are open for later ones).
    const { key: other } = await ctx.createApiKey(["something:else"]);
    const res = await postEvents(ctx, other, [event("artist.created", artist("a1"))]);
    expect(res.status).toBe(403);
    expect(await ctx.database.db.selectFrom("vendors").select("id").execute()).toEqual([]);
    // The right key works, and its use is noted (at most once a minute).
    expect((await send(ctx, writer, [event("artist.created", artist("a1"))]))[0]!.status).toBe("applied");
    const items = await list();
    expect(items.find((k) => k.name === "Writer")!.lastUsedAt).toBe(NOW);
    expect(items.find((k) => k.name !== "Writer")!.lastUsedAt).toBe(null);
  });

  it("is rate-limited per key: past the limit 429 with Retry-After, another key unaffected", async () => {
    const a = await ctx.createApiKey();
    const b = await ctx.createApiKey();
    await ctx.database.db
      .insertInto("rate_limits")
      .values({ bucket: `apikey:${a.id}`, window_started_at: Date.parse(NOW), count: API_KEY_RATE_RULE.limit })
      .execute();
    const res = await postEvents(ctx, a.key, [event("artist.created", artist("a1"))]);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await send(ctx, b.key, [event("artist.created", artist("a1"))]))[0]!.status).toBe("applied");
  });

  it("revokes at once with one audit row; a second revoke is 409, an unknown id 404", async () => {
    const { apiKey, key } = createdApiKeySchema.parse(await (await create({ name: "Old storefront", scopes: ["events:write"] })).json());
    expect((await send(ctx, key, [event("store.visits", { artistId: "nobody", day: "2026-11-22", visits: 1 })]))[0]!.status).toBe("rejected");
    const res = await revoke(apiKey.id);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { apiKey: { revokedAt: string } }).apiKey.revokedAt).toBe(NOW);
    expect((await postEvents(ctx, key, [event("artist.created", artist("a1"))])).status).toBe(401);
    expect((await revoke(apiKey.id)).status).toBe(409);
    expect((await revoke("0193b1c2-0000-7000-8000-00000000dead")).status).toBe(404);
    expect((await list())[0]!.revokedAt).toBe(NOW);
    const audit = await ctx.database.db.selectFrom("audit_log").select("action").where("target_id", "=", apiKey.id).orderBy("created_at").orderBy("id").execute();
    expect(audit.map((r) => r.action)).toEqual(["api_key.create", "api_key.revoke"]);
  });

  it("never writes a key to the logs: access lines, error log, audit log", async () => {
    const printed: string[] = [];
    const logged = createTestContext(kind, { now: NOW, env: { LOG_LEVEL: "info" } });
    const spy = vi.spyOn(process.stdout, "write").mockImplementation(((chunk: unknown) => {
      printed.push(String(chunk));
      return true;
    }) as typeof process.stdout.write);
    const errSpy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(" ")));
    const c = await logged;
    try {
      const boss = await c.createUser({ email: "boss@hki.global", role: "admin" });
      const made = await c.request("/api/admin/integrations/api-keys", { method: "POST", token: boss.token, json: { name: "Storefront", scopes: ["events:write"] } });
      const { key } = createdApiKeySchema.parse(await made.json());
      const noScope = await c.createApiKey(["other:scope"]);
      await send(c, key, [event("artist.created", artist("a1")), event("error.reported", { level: "error", message: `failed with ${key}`, context: { authorization: `Bearer ${key}` } })]);
      await postEvents(c, noScope.key, []);
      await c.request("/api/admin/dashboard/stats", { token: key });
      await c.request(`/api/events?key=${key}`, { method: "POST", token: key, json: { events: [] } });
      const secret = key.slice("hki_sk_".length);
      expect(printed.join("\n")).not.toContain(secret);
      expect(printed.some((line) => line.includes("/api/events"))).toBe(true);
      for (const table of ["error_logs", "audit_log", "api_keys", "storefront_events", "rate_limits", "jobs"] as const) {
        const rows = await c.database.db.selectFrom(table).selectAll().execute();
        expect(JSON.stringify(rows), table).not.toContain(secret);
      }
    } finally {
      spy.mockRestore();
      errSpy.mockRestore();
      await c.close();
    }
  });
});

describe.each(testDatabaseKinds)("API key revocation across replicas (%s)", (kind) => {
  let dir: string;
  let a: TestContext;
  let bDatabase: Database;
  let b: Hono<AppEnv>;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "hki-keys-"));
    const path = join(dir, "admin.sqlite");
    a = await createTestContext(kind, kind === "sqlite" ? { sqlitePath: path, now: NOW } : { now: NOW });
    if (kind === "sqlite") {
      bDatabase = openDatabase({ kind: "sqlite", path });
    } else {
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(a.database.db);
      bDatabase = openDatabase({ kind: "postgres", url: process.env.TEST_DATABASE_URL!, searchPath: rows[0]!.schema });
    }
    b = createApp(await createRuntime(a.config, { clock: a.clock, database: bDatabase, announce: () => undefined, logger: createLogger("silent") }));
  });
  afterEach(async () => {
    await bDatabase.close();
    await a.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a key revoked through replica A is refused by replica B within a second", async () => {
    const boss = await a.createUser({ email: "boss@hki.global", role: "admin" });
    const made = createdApiKeySchema.parse(await (await a.request("/api/admin/integrations/api-keys", { method: "POST", token: boss.token, json: { name: "S", scopes: ["events:write"] } })).json());
    const onB = () =>
      Promise.resolve(
        b.request("/api/events", {
          method: "POST",
          headers: { authorization: `Bearer ${made.key}`, "content-type": "application/json" },
          body: JSON.stringify({ events: [event("artist.created", artist("a1"))] }),
        }),
      );
    expect((await onB()).status).toBe(200);
    expect((await a.request(`/api/admin/integrations/api-keys/${made.apiKey.id}`, { method: "DELETE", token: boss.token })).status).toBe(200);
    const started = performance.now();
    let status = 0;
    while (performance.now() - started < 1000) {
      status = (await onB()).status;
      if (status === 401) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(status).toBe(401);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
