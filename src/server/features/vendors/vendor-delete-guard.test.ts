import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { createFullVendor } from "../../testing/vendors-fixtures.ts";

/** Issue 15 finding 7: deleting a vendor must not delete another admin's (or viewer's) account. */
describe.each(testDatabaseKinds)("vendor delete guard (%s)", (kind) => {
  let ctx: TestContext;
  let admin: Awaited<ReturnType<TestContext["createUser"]>>;

  beforeEach(async () => {
    ctx = await createTestContext(kind);
    admin = await ctx.createUser({ email: "ops@hki.global" });
  });
  afterEach(async () => {
    await ctx.close();
  });

  const del = (vendorId: string, deleteFromClerk: boolean) => ctx.request(`/api/vendors/${vendorId}?action=delete`, { method: "DELETE", token: admin.token, json: { deleteFromClerk } });
  const exists = async (table: "vendors" | "users", id: string) => (await ctx.database.db.selectFrom(table).select("id").where("id", "=", id).executeTakeFirst()) !== undefined;

  /** A vendor whose owner account has the given e-mail and role. */
  async function vendorOwnedBy(email: string, role: "admin" | "viewer" | "user") {
    const { vendor, owner } = await createFullVendor(ctx, { name: `Shop of ${email}`, slug: `shop-${email.replace(/\W/g, "-")}`, email });
    await ctx.database.db.updateTable("users").set({ role }).where("id", "=", owner.id).execute();
    return { vendor, owner };
  }

  for (const [what, email, role] of [
    ["an admin by role", "boss@gmail.example", "admin"],
    ["an admin by the company domain", "colleague@hki.global", "user"],
    ["a viewer", "auditor@example.com", "viewer"],
  ] as const) {
    it(`refuses (409, nothing written) to delete the vendor with its owner's account when the owner is ${what}`, async () => {
      const { vendor, owner } = await vendorOwnedBy(email, role);
      const res = await del(vendor.id, true);
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({
        error: {
          code: "conflict",
          message: `The owner's account (${email}) has access to the admin panel and cannot be deleted with the vendor. Remove that access first, or delete the vendor without deleting the account.`,
        },
      });
      expect(await exists("vendors", vendor.id)).toBe(true);
      expect(await exists("users", owner.id)).toBe(true);
      expect((await ctx.request("/api/auth/me", { token: owner.token })).status).toBe(200);
      expect(await ctx.database.db.selectFrom("audit_log").select("id").where("action", "=", "vendor.delete").execute()).toEqual([]);

      // Keeping the account, the vendor can go.
      expect((await del(vendor.id, false)).status).toBe(200);
      expect(await exists("vendors", vendor.id)).toBe(false);
      expect(await exists("users", owner.id)).toBe(true);
    });
  }

  it("still deletes an ordinary owner's account with the vendor, and follows an access removed first", async () => {
    const { vendor, owner } = await vendorOwnedBy("artist@example.com", "user");
    expect((await del(vendor.id, true)).status).toBe(200);
    expect(await exists("users", owner.id)).toBe(false);

    const second = await vendorOwnedBy("former-admin@example.com", "admin");
    expect((await del(second.vendor.id, true)).status).toBe(409);
    await ctx.database.db.updateTable("users").set({ role: "user" }).where("id", "=", second.owner.id).execute();
    expect((await del(second.vendor.id, true)).status).toBe(200);
    expect(await exists("users", second.owner.id)).toBe(false);
  });

  it("asks a hosted provider for the owner's role when it can tell", async () => {
    const { vendor, owner } = await vendorOwnedBy("storefront@example.com", "user");
    ctx.deps.auth.findUser = async (id) => ({ id, email: "storefront@example.com", name: null, role: id === owner.id ? "admin" : "user" });
    expect((await del(vendor.id, true)).status).toBe(409);
    expect(await exists("users", owner.id)).toBe(true);
  });
});
