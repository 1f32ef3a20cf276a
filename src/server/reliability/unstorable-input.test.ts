import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiEndpoints } from "../../contract/api.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../testing/test-app.ts";

/**
 * Issue 31, finding 3: text PostgreSQL cannot store (NUL) or that both databases store altered (a
 * lone UTF-16 surrogate, written as U+FFFD) must be refused at input with a 400 naming the field.
 * Every input did so for NUL but a list's cursor: its base64 JSON was decoded after the input
 * rules, so `["2026-01-01T00:00:00Z","a\u0000b"]` reached PostgreSQL (500 "invalid byte sequence for
 * encoding UTF8: 0x00" and an error-log row) and SQLite (200).
 */

const NUL = "a\u0000b";
const LONE_SURROGATE = "a\ud800b";
const TIME = "2026-01-01T00:00:00Z";
const SOME_ID = "0190f3a0-0000-7000-8000-000000000000";

/** The cursor the client would send: base64url of the JSON array, as the lists make them. */
const cursorOf = (parts: unknown[]) => Buffer.from(JSON.stringify(parts), "utf8").toString("base64url");

/**
 * Every list with a cursor, with a cursor of its own shape whose text parts carry `bad` (so the only
 * thing wrong with it is the text). A new list with a cursor must be added here (checked below).
 */
const CURSOR_LISTS: Record<string, { path: string; parts: (bad: string) => unknown[] }> = {
  "/api/admin/audit-log": { path: "/api/admin/audit-log", parts: (bad) => [TIME, bad] },
  "/api/admin/errors": { path: "/api/admin/errors", parts: (bad) => [TIME, bad] },
  "/api/admin/errors?sort=oldest": { path: "/api/admin/errors?sort=oldest", parts: (bad) => ["oldest", TIME, bad] },
  "/api/admin/settings/history": { path: "/api/admin/settings/history?key=platform_fee_percentage", parts: (bad) => [TIME, bad] },
  "/api/admin/financial/payouts": { path: "/api/admin/financial/payouts", parts: (bad) => [TIME, bad] },
  "/api/admin/financial/balances": { path: "/api/admin/financial/balances", parts: (bad) => [100, bad] },
  "/api/admin/financial/payouts/runs": { path: "/api/admin/financial/payouts/runs", parts: (bad) => [TIME, bad] },
  "/api/admin/users": { path: "/api/admin/users", parts: (bad) => [`${bad}@example.com`] },
  "/api/admin/users?sort=name": { path: "/api/admin/users?sort=name", parts: (bad) => ["name", `=${bad}`, "someone@example.com"] },
  "/api/admin/communications/announcements": { path: "/api/admin/communications/announcements", parts: (bad) => [TIME, bad] },
  "/api/admin/communications/announcements/{id}/recipients": { path: `/api/admin/communications/announcements/${SOME_ID}/recipients`, parts: (bad) => [bad] },
  "/api/admin/products": { path: "/api/admin/products", parts: (bad) => ["s", "created_at", 1, TIME, bad] },
  "/api/admin/orders": { path: "/api/admin/orders", parts: (bad) => ["date-desc", TIME, bad] },
  "/api/admin/vendors": { path: "/api/admin/vendors?sort=name", parts: (bad) => ["name", bad, SOME_ID] },
  "/api/admin/integrations/incoming-events": { path: "/api/admin/integrations/incoming-events", parts: (bad) => [TIME, bad] },
  "/api/admin/integrations/webhooks/{id}/deliveries": { path: `/api/admin/integrations/webhooks/${SOME_ID}/deliveries`, parts: (bad) => [bad] },
  "/api/admin/vendors/applications": { path: "/api/admin/vendors/applications", parts: (bad) => [TIME, bad] },
  "/api/admin/products/review": { path: "/api/admin/products/review", parts: (bad) => [TIME, bad] },
  "/api/admin/vendors/{id}/statement": { path: `/api/admin/vendors/${SOME_ID}/statement`, parts: (bad) => [TIME, bad] },
};

describe.each(testDatabaseKinds)("text a database cannot keep is refused at input (%s)", (kind) => {
  let ctx: TestContext;
  let viewerToken: string;
  let adminToken: string;
  beforeAll(async () => {
    ctx = await createTestContext(kind);
    viewerToken = (await ctx.createUser({ email: "viewer@hki.global", role: "viewer" })).token;
    adminToken = (await ctx.createUser({ email: "text-admin@hki.global", role: "admin" })).token;
  });
  afterAll(async () => {
    await ctx.close();
  });

  const errorRows = async () =>
    Number(
      (
        await ctx.database.db
          .selectFrom("error_logs")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  const fieldsOf = async (res: Response) => ((await res.json()) as { error: { fields?: Record<string, string> } }).error.fields ?? {};

  it("the attack: a viewer's audit-log cursor holding a NUL is a 400 naming `cursor`, and no error row", async () => {
    const before = await errorRows();
    const res = await ctx.request(`/api/admin/audit-log?cursor=${cursorOf([TIME, NUL])}`, { token: viewerToken });
    expect(res.status).toBe(400);
    expect(Object.keys(await fieldsOf(res))).toEqual(["cursor"]);
    expect(await errorRows()).toBe(before);
  });

  it("every list refuses a cursor whose text holds a NUL or a lone surrogate (400 naming `cursor`), and writes no error row", async () => {
    const before = await errorRows();
    for (const [name, list] of Object.entries(CURSOR_LISTS)) {
      for (const bad of [NUL, LONE_SURROGATE]) {
        const url = `${list.path}${list.path.includes("?") ? "&" : "?"}cursor=${cursorOf(list.parts(bad))}`;
        const res = await ctx.request(url, { token: adminToken });
        const where = `${name} with ${JSON.stringify(bad)}`;
        expect(res.status, where).toBe(400);
        expect(Object.keys(await fieldsOf(res)), where).toEqual(["cursor"]);
      }
      // The same cursor with plain text is one of ours: the list answers.
      const url = `${list.path}${list.path.includes("?") ? "&" : "?"}cursor=${cursorOf(list.parts("plain"))}`;
      expect([200, 404], `${name} with a plain cursor`).toContain((await ctx.request(url, { token: adminToken })).status);
    }
    expect(await errorRows()).toBe(before);
  });

  it("the lists above are every list with a cursor", () => {
    const withCursor = apiEndpoints.filter((d) => d.method === "get" && d.query && "cursor" in ((d.query as unknown as { shape?: object }).shape ?? {})).map((d) => d.path);
    const covered = new Set(Object.keys(CURSOR_LISTS).map((name) => name.split("?")[0]));
    expect(withCursor.length).toBeGreaterThan(8);
    for (const path of withCursor) expect(covered.has(path), path).toBe(true);
  });

  it("a lone surrogate in a JSON body is a 400 naming the field, and the setting keeps its value", async () => {
    const before = await ctx.request("/api/admin/settings", { token: adminToken }).then((r) => r.text());
    const res = await ctx.request("/api/admin/settings", {
      method: "PUT",
      token: adminToken,
      headers: { "content-type": "application/json" },
      // Only a JSON escape can carry one (UTF-8 text cannot).
      body: '{"announcement_message":"Hello \\ud800 there"}',
    });
    expect(res.status).toBe(400);
    expect(await fieldsOf(res)).toEqual({ announcement_message: "must not contain unpaired surrogate characters (found U+D800)" });
    expect(await ctx.request("/api/admin/settings", { token: adminToken }).then((r) => r.text())).toBe(before);
    // A surrogate pair (an emoji) is ordinary text.
    const emoji = await ctx.request("/api/admin/settings", { method: "PUT", token: adminToken, json: { announcement_message: "Hello \ud83d\ude00" } });
    expect(emoji.status).toBe(200);
  });
});
