import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { verifyPassword } from "../platform/identity/password-hash.ts";
import { TEST_PASSWORD, type TestContext, createTestContext, testDatabaseKinds } from "../testing/test-app.ts";
import { runUserCreate } from "./user-create-command.ts";

/** Issue 15 finding 7: `user:create` must not silently reset an existing account. */
describe.each(testDatabaseKinds)("user:create (%s)", (kind) => {
  let ctx: TestContext;
  let out: string[];
  let err: string[];
  beforeEach(async () => {
    ctx = await createTestContext(kind);
    out = [];
    err = [];
  });
  afterEach(async () => {
    await ctx.close();
  });

  const run = (...args: string[]) => runUserCreate(args, ctx.database.db, ctx.clock, { out: (l) => out.push(l), err: (l) => err.push(l) });
  const account = (email: string) => ctx.database.db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirstOrThrow();

  it("refuses to change an existing user found under a case or space variant of the e-mail, without --update", async () => {
    const email = ctx.config.adminEmail;
    const before = await account(email);
    for (const variant of [email.toUpperCase(), ` ${email} `, email.replace(/^./, (c) => c.toUpperCase())]) {
      expect(await run("--email", variant, "--password", "new-password-1", "--role", "user")).toBe(2);
    }
    expect(err.at(-1)).toBe(`user:create: a user ${email} (role admin) already exists; nothing was changed. Add --update to reset their password and role.`);
    const after = await account(email);
    expect(after).toEqual(before);
    expect(await verifyPassword(TEST_PASSWORD, after.password_hash!)).toBe(true);
  });

  it("changes the existing user with --update (password, role, sessions ended)", async () => {
    const user = await ctx.createUser({ email: "artist@example.com" });
    expect((await ctx.request("/api/auth/me", { token: user.token })).status).toBe(200);
    expect(await run("--email", "Artist@Example.com", "--password", "new-password-1", "--role", "admin", "--update")).toBe(0);
    expect(out).toEqual(["Updated admin artist@example.com (password reset, sessions ended)"]);
    const after = await account("artist@example.com");
    expect(after.role).toBe("admin");
    expect(await verifyPassword("new-password-1", after.password_hash!)).toBe(true);
    expect((await ctx.request("/api/auth/me", { token: user.token })).status).toBe(401);
  });

  it("creates a new user, normalising the e-mail; refuses bad arguments", async () => {
    expect(await run("--email", " New.Person@Example.com", "--password", "long-enough-1")).toBe(0);
    expect(out).toEqual(["Created user new.person@example.com"]);
    expect((await account("new.person@example.com")).role).toBe("user");
    expect(await run("--email", "nope", "--password", "long-enough-1")).toBe(2);
    expect(await run("--email", "a@b.example", "--password", "short")).toBe(2);
    expect(await run("--email", "a@b.example", "--password", "long-enough-1", "--role", "root")).toBe(2);
    expect(await run("--email", "a@b.example", "--password", "long-enough-1", "--bogus")).toBe(2);
  });

  it('writes an audit row with the actor "command line" for a creation and for an update (issue 18)', async () => {
    const audit = () => ctx.database.db.selectFrom("audit_log").selectAll().where("action", "like", "user.%").orderBy("created_at").orderBy("id").execute();
    expect(await audit()).toEqual([]);
    expect(await run("--email", "Ops.Two@Example.com", "--password", "long-enough-1", "--role", "admin", "--name", "Ops Two")).toBe(0);
    ctx.clock.advance(1000);
    expect(await run("--email", "ops.two@example.com", "--password", "long-enough-2", "--role", "viewer", "--update")).toBe(0);
    const id = (await account("ops.two@example.com")).id;
    const rows = await audit();
    expect(rows.map((r) => ({ ...r, id: undefined }))).toEqual([
      {
        id: undefined,
        actor_email: "command line",
        actor_id: null,
        actor_role: null,
        action: "user.create",
        target_type: "user",
        target_id: id,
        target_label: "ops.two@example.com",
        before_value: null,
        after_value: JSON.stringify({ role: "admin", name: "Ops Two" }),
        details: JSON.stringify({ command: "user:create" }),
        ip_address: null,
        user_agent: null,
        request_id: null,
        created_at: "2026-11-22T12:00:00.000Z",
      },
      expect.objectContaining({
        actor_email: "command line",
        action: "user.update",
        target_id: id,
        before_value: JSON.stringify({ role: "admin" }),
        after_value: JSON.stringify({ role: "viewer" }),
        details: JSON.stringify({ command: "user:create", sessionsEnded: true }),
        created_at: "2026-11-22T12:00:01.000Z",
      }),
    ]);
    // A refusal changes nothing and writes no row.
    expect(await run("--email", "ops.two@example.com", "--password", "long-enough-3")).toBe(2);
    expect(await audit()).toHaveLength(2);
  });

  it("refuses names with control, invisible or direction-changing characters; stores names normalised (NFC)", async () => {
    for (const name of ["Eve\r\nInjected", "Eve\u202Etxt.exe", "E\u200Bve", "Eve\u001b[2J", "   "]) {
      expect(await run("--email", "named@example.com", "--password", "long-enough-1", "--name", name), JSON.stringify(name)).toBe(2);
    }
    expect(err.at(-2)).toBe("user:create: --name must not contain control, invisible or direction-changing characters (found U+001B)");
    expect(await ctx.database.db.selectFrom("users").select("id").where("email", "=", "named@example.com").execute()).toEqual([]);
    expect(await run("--email", "named@example.com", "--password", "long-enough-1", "--name", " Zoe\u0308 ")).toBe(0);
    expect((await account("named@example.com")).name).toBe("Zo\u00EB");
  });

  it("creates a read-only viewer", async () => {
    expect(await run("--email", "support@example.com", "--password", "long-enough-1", "--role", "viewer")).toBe(0);
    expect(out).toEqual(["Created viewer support@example.com"]);
    expect((await account("support@example.com")).role).toBe("viewer");
  });
});
