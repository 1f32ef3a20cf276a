import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { adminUsersResponseSchema, STAFF_SORTS } from "../../../contract/admin-users.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";

/** The Users tab by name and by last sign-in (issue 23): keyset pages in each order, both ways. */
describe.each(testDatabaseKinds)("staff list sorts on %s", (kind) => {
  let t: TestContext;
  let admin: { token: string };
  /** email → [name, last sign-in] ("" for none). */
  const people: Record<string, [string, string]> = {};

  beforeEach(async () => {
    t = await createTestContext(kind);
    admin = await t.createUser({ email: "ops@hki.global" });
    const staff: Array<[string, string | null, string | null]> = [
      ["ada@example.com", "Ada", "2026-11-20T08:00:00.000Z"],
      ["bo@example.com", "Bo", null],
      ["cy@example.com", null, "2026-11-21T08:00:00.000Z"],
      ["di@example.com", "Ada", "2026-11-19T08:00:00.000Z"],
      ["ed@example.com", "Zed", "2026-11-21T08:00:00.000Z"],
    ];
    for (const [email, name, signedIn] of staff) {
      const user = await t.createUser({ email, role: "viewer" });
      await t.database.db.updateTable("users").set({ name }).where("id", "=", user.id).execute();
      if (signedIn) await t.database.db.updateTable("sessions").set({ created_at: signedIn }).where("user_id", "=", user.id).execute();
      else await t.database.db.deleteFrom("sessions").where("user_id", "=", user.id).execute();
    }
    const rows = await t.database.db.selectFrom("users").select(["email", "name", "id"]).execute();
    for (const row of rows) {
      const last = await t.database.db
        .selectFrom("sessions")
        .select((eb) => eb.fn.max("created_at").as("at"))
        .where("user_id", "=", row.id)
        .executeTakeFirst();
      people[row.email] = [row.name ?? "", last?.at ?? ""];
    }
  });
  afterEach(async () => {
    await t.close();
  });

  async function walk(sort: string): Promise<string[]> {
    const emails: string[] = [];
    let cursor: string | null = null;
    for (let n = 0; n < 10; n++) {
      const res = await t.request(`/api/admin/users?sort=${sort}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { token: admin.token });
      expect(res.status, await res.clone().text()).toBe(200);
      const page = adminUsersResponseSchema.parse(await res.json());
      emails.push(...page.users.map((u) => u.email));
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    return emails;
  }

  it("pages every order across pages, ties broken by e-mail", async () => {
    const staffEmails = (await walk("email")).sort();
    for (const sort of STAFF_SORTS) {
      const descending = sort.startsWith("-");
      const key = sort.replace("-", "");
      const value = (email: string) => (key === "email" ? email : key === "name" ? people[email]![0] : people[email]![1]);
      const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
      const expected = [...staffEmails].sort((a, b) => (descending ? -1 : 1) * (cmp(value(a), value(b)) || cmp(a, b)));
      expect(await walk(sort), sort).toEqual(expected);
    }
  });

  it("refuses a cursor of another order and an unknown sort", async () => {
    const res = await t.request("/api/admin/users?sort=name&limit=2", { token: admin.token });
    const { nextCursor } = adminUsersResponseSchema.parse(await res.json());
    expect((await t.request(`/api/admin/users?sort=lastSignIn&cursor=${encodeURIComponent(nextCursor!)}`, { token: admin.token })).status).toBe(400);
    expect((await t.request("/api/admin/users?sort=role", { token: admin.token })).status).toBe(400);
  });
});
