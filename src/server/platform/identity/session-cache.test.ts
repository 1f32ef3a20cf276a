import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../../testing/test-app.ts";
import type { AuthenticatedUser } from "./auth-provider.ts";
import { SessionCache } from "./session-cache.ts";

const user: AuthenticatedUser = { id: "u1", email: "a@hki.global", name: null, role: "admin" };

describe("SessionCache", () => {
  it("serves a session only under the version it was read at, and never once expired", () => {
    const cache = new SessionCache(() => "v1");
    cache.set("s1", "v1", user, "2026-11-22T12:00:00.000Z");
    expect(cache.get("s1", "v1", "2026-11-22T11:59:59.999Z")).toEqual(user);
    expect(cache.get("s1", "v2", "2026-11-22T11:00:00.000Z")).toBeNull();
    cache.set("s1", "v1", user, "2026-11-22T12:00:00.000Z");
    expect(cache.get("s1", "v1", "2026-11-22T12:00:00.000Z")).toBeNull();
  });

  it("stays bounded: the oldest session goes first", () => {
    const cache = new SessionCache(() => "v", 3);
    for (const id of ["s1", "s2", "s3", "s4"]) cache.set(id, "v", user, "2999-01-01T00:00:00.000Z");
    expect(cache.size).toBe(3);
    expect(cache.get("s1", "v", "2026-01-01T00:00:00.000Z")).toBeNull();
    expect(cache.get("s4", "v", "2026-01-01T00:00:00.000Z")).toEqual(user);
  });
});

describe("cached sessions on a SQLite file: the database stays the only truth", () => {
  let dir: string;
  let ctx: TestContext;
  let other: SQLite.Database;
  let admin: { id: string; token: string };

  const me = () => ctx.request("/api/admin/settings", { token: admin.token });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "hki-session-cache-"));
    const path = join(dir, "admin.sqlite");
    ctx = await createTestContext("sqlite", { sqlitePath: path });
    admin = await ctx.createUser({ email: "boss@hki.global" });
    // Another process's connection to the same file (a second server, a CLI).
    other = new SQLite(path);
    expect((await me()).status).toBe(200);
    expect((await me()).status).toBe(200);
  });
  afterEach(async () => {
    other.close();
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a token at once when another process revokes its session", async () => {
    other.prepare("update sessions set revoked_at = ? where user_id = ?").run("2026-11-22T12:00:00.000Z", admin.id);
    expect((await me()).status).toBe(401);
  });

  it("refuses a token at once when another process deletes the user", async () => {
    other.prepare("delete from sessions where user_id = ?").run(admin.id);
    other.prepare("delete from users where id = ?").run(admin.id);
    expect((await me()).status).toBe(401);
  });

  it("answers 403 at once when another process takes the admin's rights away", async () => {
    other.prepare("update users set email = ?, role = 'user' where id = ?").run("boss@example.com", admin.id);
    expect((await me()).status).toBe(403);
  });

  it("refuses a token revoked by a raw statement on the server's own connection", async () => {
    ctx.database.sqlite!.prepare("update sessions set revoked_at = ? where user_id = ?").run("2026-11-22T12:00:00.000Z", admin.id);
    expect((await me()).status).toBe(401);
  });

  it("refuses a token once its session expires, with no write in between", async () => {
    ctx.clock.advance(3600_000);
    expect((await me()).status).toBe(401);
  });

  it("refuses a signed-out token on the next request", async () => {
    expect((await ctx.request("/api/auth/sign-out", { method: "POST", token: admin.token })).status).toBeLessThan(300);
    expect((await me()).status).toBe(401);
  });
});
