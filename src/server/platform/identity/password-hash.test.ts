import { describe, expect, it } from "vitest";
import { createTestContext, TEST_PASSWORD } from "../../testing/test-app.ts";
import { DEFAULT_PARAMS, hashPassword, needsRehash, verifyPassword } from "./password-hash.ts";

describe("password hashes", () => {
  it("are made at today's parameters (32 MiB each) and still verify at older ones", async () => {
    const hash = await hashPassword("s3cret pass phrase");
    expect(hash.startsWith(`scrypt$${DEFAULT_PARAMS.N}$${DEFAULT_PARAMS.r}$${DEFAULT_PARAMS.p}$`)).toBe(true);
    expect(needsRehash(hash)).toBe(false);
    expect(await verifyPassword("s3cret pass phrase", hash)).toBe(true);
    expect(await verifyPassword("wrong", hash)).toBe(false);
    const older = await hashPassword("s3cret pass phrase", { N: 2 ** 14, r: 8, p: 1 });
    expect(needsRehash(older)).toBe(true);
    expect(await verifyPassword("s3cret pass phrase", older)).toBe(true);
  });

  it("a sign-in with an older hash replaces it by one at today's parameters, and the password still works", async () => {
    const ctx = await createTestContext("sqlite");
    try {
      const older = await hashPassword(TEST_PASSWORD, { N: 2 ** 14, r: 8, p: 1 });
      await ctx.database.db.updateTable("users").set({ password_hash: older }).where("email", "=", ctx.config.adminEmail).execute();
      const signIn = () => ctx.request("/api/auth/sign-in", { method: "POST", json: { email: ctx.config.adminEmail, password: TEST_PASSWORD } });
      expect((await signIn()).status).toBe(200);
      const { password_hash: stored } = await ctx.database.db.selectFrom("users").select("password_hash").where("email", "=", ctx.config.adminEmail).executeTakeFirstOrThrow();
      expect(stored).not.toBe(older);
      expect(needsRehash(stored!)).toBe(false);
      expect((await signIn()).status).toBe(200);
    } finally {
      await ctx.close();
    }
  });
});
