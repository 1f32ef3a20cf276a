import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiEndpoints } from "../../contract/api.ts";
import { newId } from "../platform/db/ids.ts";
import { honoPath } from "../platform/request/endpoint-router.ts";
import { UNKNOWN_FIELD_MESSAGE } from "../platform/http/validate.ts";
import { UNKNOWN_ID, fillPath } from "../testing/app-routes.ts";
import { databaseChecksum } from "../testing/db-checksum.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../testing/test-app.ts";

/**
 * Issue 31, finding 4: an endpoint defined without a body schema takes no body, and the router
 * holds it to that with the input rules of every body: none, or `{}`, is accepted; an unknown key
 * or unreadable JSON is a 400 and another content type a 415, before anything is done. These
 * routes used to ignore whatever came: `DELETE /api/admin/errors/cleanup-archived` with
 * `{"confirm":false,"dryRun":true}` deleted, and a text/plain `{` was taken on every such write.
 */

const DAY_MS = 86_400_000;
const NOW = "2026-11-22T12:00:00.000Z";

/** Every write whose definition has no body (a signed body is a body), as the app routes it ("DELETE /api/admin/errors/cleanup-archived"). */
const NO_BODY_WRITES = apiEndpoints.filter((d) => d.method !== "get" && d.body === undefined && d.signedBody === undefined).map((d) => ({ method: d.method.toUpperCase(), path: honoPath(d.path) }));

const TABLES_A_REFUSAL_MAY_TOUCH = ["rate_limits"];

describe.each(testDatabaseKinds)("routes without a body refuse one (%s)", (kind) => {
  let ctx: TestContext;
  let adminToken: string;
  beforeAll(async () => {
    ctx = await createTestContext(kind, { now: NOW });
    adminToken = (await ctx.createUser({ email: "no-body-admin@hki.global", role: "admin" })).token;
  });
  afterAll(async () => {
    await ctx.close();
  });

  const send = (path: string, method: string, body?: { contentType: string; text: string }) =>
    ctx.request(path, { method, token: adminToken, ...(body ? { headers: { "content-type": body.contentType }, body: body.text } : {}) });

  async function archivedLongAgo(count: number): Promise<void> {
    const archivedAt = new Date(Date.parse(NOW) - 60 * DAY_MS).toISOString();
    const createdAt = new Date(Date.parse(NOW) - 90 * DAY_MS).toISOString();
    for (let i = 0; i < count; i++) {
      await ctx.database.db
        .insertInto("error_logs")
        .values({
          id: newId(),
          level: "error",
          message: `archived ${i}`,
          endpoint: "/api/x",
          method: "GET",
          status_code: 500,
          user_email: null,
          ip_address: "10.0.0.1",
          user_agent: null,
          stack_trace: null,
          context: null,
          fingerprint: null,
          created_at: createdAt,
          archived: 1,
          archived_at: archivedAt,
        })
        .execute();
    }
  }
  const archivedRows = async () =>
    Number(
      (
        await ctx.database.db
          .selectFrom("error_logs")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("archived", "=", 1)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("the attack: cleanup-archived with {confirm:false, dryRun:true} is a 400 naming both keys, and the archived rows stay", async () => {
    await archivedLongAgo(3);
    const res = await send("/api/admin/errors/cleanup-archived", "DELETE", { contentType: "application/json", text: '{"confirm":false,"dryRun":true}' });
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { code: string; fields?: Record<string, string> } };
    expect(error.fields).toEqual({ confirm: UNKNOWN_FIELD_MESSAGE, dryRun: UNKNOWN_FIELD_MESSAGE });
    expect(await archivedRows()).toBe(3);

    // A text/plain body and unreadable JSON are refused the same way, before anything is deleted.
    expect((await send("/api/admin/errors/cleanup-archived", "DELETE", { contentType: "text/plain", text: "{" })).status).toBe(415);
    const broken = await send("/api/admin/errors/cleanup-archived", "DELETE", { contentType: "application/json", text: "{" });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { code: string } }).error.code).toBe("invalid_json");
    expect(await archivedRows()).toBe(3);

    // `{}` is no body at all: the cleanup runs.
    const empty = await send("/api/admin/errors/cleanup-archived", "DELETE", { contentType: "application/json", text: "{}" });
    expect(empty.status).toBe(200);
    expect(await archivedRows()).toBe(0);
  });

  it("every write without a body: an unknown key, unreadable JSON, a JSON value that is not an object or another content type is refused and changes nothing", async () => {
    expect(NO_BODY_WRITES.length).toBeGreaterThan(10);
    const refusals: Array<{ body: { contentType: string; text: string }; status: number; code: string }> = [
      { body: { contentType: "application/json", text: '{"confirm":false}' }, status: 400, code: "invalid_input" },
      { body: { contentType: "application/json", text: "{" }, status: 400, code: "invalid_json" },
      { body: { contentType: "application/json", text: "[]" }, status: 400, code: "invalid_input" },
      { body: { contentType: "application/json", text: "null" }, status: 400, code: "invalid_input" },
      { body: { contentType: "text/plain", text: "{" }, status: 415, code: "unsupported_media_type" },
      { body: { contentType: "text/plain", text: "{}" }, status: 415, code: "unsupported_media_type" },
    ];
    const before = await databaseChecksum(ctx.database.db, { exclude: TABLES_A_REFUSAL_MAY_TOUCH });
    for (const route of NO_BODY_WRITES) {
      for (const refusal of refusals) {
        const res = await send(fillPath(route.path, UNKNOWN_ID), route.method, refusal.body);
        const where = `${route.method} ${route.path} with ${refusal.body.contentType} ${refusal.body.text}`;
        expect(res.status, where).toBe(refusal.status);
        expect(((await res.json()) as { error: { code: string } }).error.code, where).toBe(refusal.code);
      }
    }
    expect(await databaseChecksum(ctx.database.db, { exclude: TABLES_A_REFUSAL_MAY_TOUCH }), "a refused write changed rows").toEqual(before);
  });

  it("the API reference lists the refusals (400, 413, 415) for every write without a body", async () => {
    const document = (await (await ctx.request("/api/openapi.json")).json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    for (const definition of apiEndpoints.filter((d) => d.method !== "get" && d.body === undefined)) {
      const responses = document.paths[definition.path]?.[definition.method]?.responses ?? {};
      for (const status of ["400", "413", "415"]) expect(responses, `${definition.method} ${definition.path}: ${status}`).toHaveProperty(status);
    }
  });
});
