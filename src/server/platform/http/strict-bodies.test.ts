import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { apiEndpoints } from "../../../contract/api.ts";
import { defineEndpoint, fillPathParameters, pathParameterNames, queryString } from "../../../contract/endpoint.ts";
import type { AppEnv } from "../request/app-env.ts";
import { databaseChecksum } from "../../testing/db-checksum.ts";
import { UNKNOWN_ID } from "../../testing/app-routes.ts";
import { type TestContext, createTestContext } from "../../testing/test-app.ts";
import { EndpointRouter } from "../request/endpoint-router.ts";
import { ReadCache } from "../db/read-cache.ts";
import { fixedClock } from "../clock.ts";
import { strictBodyProblem } from "./strict-body.ts";
import { UNKNOWN_FIELD_MESSAGE, parseWith } from "./validate.ts";

type ErrorAnswer = { error: { code: string; message: string; fields?: Record<string, string> } };
type JsonSchema = { $ref?: string; type?: string; additionalProperties?: unknown; properties?: Record<string, JsonSchema>; allOf?: JsonSchema[] };

const withBody = apiEndpoints.filter((d) => d.body);

/** Issue 18 finding 4: request bodies refuse keys they do not know, everywhere. */
describe("strict request bodies", () => {
  it("every body schema in src/contract is a strict object all the way down", () => {
    expect(withBody.length).toBeGreaterThanOrEqual(12);
    for (const definition of withBody) expect(strictBodyProblem(definition.body!), `${definition.method} ${definition.path}`).toBeNull();
  });

  it("the router refuses to register an endpoint whose body accepts unknown keys", () => {
    const router = new EndpointRouter(new Hono<AppEnv>(), new ReadCache(fixedClock("2026-11-22T00:00:00Z"), () => "0"));
    const base = { method: "post", path: "/api/admin/example", area: "settings", access: { roles: ["admin"] }, summary: "x", success: { status: 204, description: "x" } } as const;
    expect(() => router.handle(defineEndpoint({ ...base, body: z.object({ a: z.string() }) }), () => undefined)).toThrow(/POST \/api\/admin\/example: objects that accept unknown keys.*\(body\)/);
    expect(() => router.handle(defineEndpoint({ ...base, body: z.strictObject({ nested: z.object({ b: z.number() }).optional() }) }), () => undefined)).toThrow(/nested/);
    expect(() => router.handle(defineEndpoint({ ...base, body: z.record(z.string(), z.string()) }), () => undefined)).toThrow(/must be an object/);
    expect(() => router.handle(defineEndpoint({ ...base, body: z.looseObject({ a: z.string() }) }), () => undefined)).toThrow(/unknown keys/);
    // Strict ones register, refinements and transforms included.
    router.handle(defineEndpoint({ ...base, body: z.strictObject({ a: z.string(), list: z.array(z.strictObject({ b: z.number() })) }).refine(() => true) }), () => undefined);
    router.handle(defineEndpoint({ ...base, path: "/api/admin/example2", body: z.strictObject({ a: z.string() }).transform((v) => v.a) }), () => undefined);
    expect(router.served).toHaveLength(2);
  });

  it("names every unknown key in `fields`, at any depth, beside other faults", () => {
    const schema = z.strictObject({ dryRun: z.boolean().optional(), inner: z.strictObject({ n: z.number() }).optional() });
    try {
      parseWith(schema, { dry_run: true, extra: 1, dryRun: "yes", inner: { n: 1, zz: 2 } });
      expect.unreachable();
    } catch (err) {
      const fields = (err as { fields?: Record<string, string> }).fields;
      expect(fields).toEqual({ dry_run: UNKNOWN_FIELD_MESSAGE, extra: UNKNOWN_FIELD_MESSAGE, dryRun: expect.any(String), "inner.zz": UNKNOWN_FIELD_MESSAGE });
    }
  });

  describe("served", () => {
    let ctx: TestContext;
    let document: { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: JsonSchema }> } }>>; components?: { schemas?: Record<string, JsonSchema> } };
    let adminToken: string;
    beforeAll(async () => {
      ctx = await createTestContext("sqlite");
      adminToken = (await ctx.createUser({ email: "strict-bodies@hki.global" })).token;
      document = (await (await ctx.request("/api/openapi.json")).json()) as typeof document;
    });
    afterAll(async () => {
      await ctx.close();
    });

    const resolve = (schema: JsonSchema): JsonSchema => (schema.$ref ? resolve(document.components!.schemas![schema.$ref.replace("#/components/schemas/", "")]!) : schema);

    it("the OpenAPI document says additionalProperties: false for every request body", () => {
      for (const definition of withBody) {
        const schema = document.paths[definition.path]?.[definition.method]?.requestBody?.content["application/json"]?.schema;
        expect(schema, `${definition.method} ${definition.path}`).toBeDefined();
        const body = resolve(schema!);
        expect(body.type, `${definition.path} type`).toBe("object");
        expect(body.additionalProperties, `${definition.method} ${definition.path}`).toBe(false);
      }
      // The settings body lists its keys instead of taking any string key.
      const settings = resolve(document.paths["/api/admin/settings"]!.put!.requestBody!.content["application/json"]!.schema);
      expect(Object.keys(settings.properties ?? {})).toContain("platform_fee_percentage");
    });

    it("every endpoint with a body answers 400 naming an unknown key, and changes nothing", async () => {
      // Keys of the API-key endpoints, made and used once first (a key's first use notes its time).
      const keys = new Map<string, string>();
      for (const definition of withBody.filter((d) => d.access === "api-key")) {
        const { key } = await ctx.createApiKey([definition.scope!]);
        await ctx.request(definition.path, { method: definition.method.toUpperCase(), token: key });
        keys.set(definition.path, key);
      }
      const before = await databaseChecksum(ctx.database.db, { exclude: ["rate_limits", "error_logs", "error_log_counts", "error_log_drops"] });
      for (const definition of withBody) {
        const params = Object.fromEntries(pathParameterNames(definition.path).map((name) => [name, UNKNOWN_ID]));
        const url = fillPathParameters(definition.path, params) + queryString(definition.queryExample);
        const json = { ...(definition.bodyExample as object), unexpected_key: true };
        const token = definition.access === "public" ? undefined : definition.access === "api-key" ? keys.get(definition.path) : adminToken;
        const res = await ctx.request(url, { method: definition.method.toUpperCase(), json, ...(token ? { token } : {}) });
        const label = `${definition.method} ${definition.path}`;
        expect(res.status, label).toBe(400);
        const { error } = (await res.json()) as ErrorAnswer;
        expect(error.fields, label).toEqual({ unexpected_key: UNKNOWN_FIELD_MESSAGE });
        expect(error.message, label).toBe(`unexpected_key: ${UNKNOWN_FIELD_MESSAGE}`);
      }
      expect(await databaseChecksum(ctx.database.db, { exclude: ["rate_limits", "error_logs", "error_log_counts", "error_log_drops"] })).toEqual(before);
    });

    it('the attack: {"dry_run": true} no longer starts a payout run (400 naming dry_run)', async () => {
      const res = await ctx.request("/api/admin/financial/payouts/runs", { method: "POST", token: adminToken, json: { dry_run: true } });
      expect(res.status).toBe(400);
      expect(((await res.json()) as ErrorAnswer).error.fields).toEqual({ dry_run: UNKNOWN_FIELD_MESSAGE });
      const runs = (await (await ctx.request("/api/admin/financial/payouts/runs", { token: adminToken })).json()) as { runs: unknown[] };
      expect(runs.runs).toEqual([]);
      expect(await ctx.database.db.selectFrom("jobs").select("kind").where("kind", "like", "payout%").execute()).toEqual([]);
    });
  });
});
