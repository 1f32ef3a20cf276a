import { createConfig, lintFromString } from "@redocly/openapi-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiEndpoints, apiEndpointsByName } from "../../../contract/api.ts";
import { allowedRoles, isStaffAccess } from "../../../contract/access.ts";
import { STOREFRONT_EVENT_TYPES } from "../../../contract/integrations-events.ts";
import { ADMIN_ONLY_PREFIXES } from "../../platform/request/auth-middleware.ts";
import { honoPath } from "../../platform/request/endpoint-router.ts";
import { appRoutes } from "../../testing/app-routes.ts";
import { type TestContext, createTestContext } from "../../testing/test-app.ts";

describe("the OpenAPI document at /api/openapi.json", () => {
  let ctx: TestContext;
  let document: {
    openapi: string;
    servers?: Array<{ url: string }>;
    paths: Record<
      string,
      Record<
        string,
        { operationId?: string; description?: string; security?: unknown; requestBody?: { content: Record<string, { schema: { example?: unknown } }> }; responses: Record<string, unknown> }
      >
    >;
    components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
  };
  beforeAll(async () => {
    ctx = await createTestContext("sqlite");
    const res = await ctx.request("/api/openapi.json");
    expect(res.status).toBe(200);
    document = (await res.json()) as typeof document;
  });
  afterAll(async () => {
    await ctx.close();
  });

  it("is a valid OpenAPI 3.1 document", async () => {
    expect(document.openapi).toBe("3.1.0");
    // Redocly's structural rule alone: every object, field and value where OpenAPI 3.1 allows it
    // (openapi-lint.test.ts runs its recommended rules).
    const config = await createConfig({ rules: { struct: "error" } });
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: "openapi.json", config });
    expect(problems.map((p) => `${p.message} at ${p.location[0]?.pointer ?? "?"}`)).toEqual([]);
  });

  it("documents exactly the routes the app serves, both ways", () => {
    const served = appRoutes(ctx.app)
      .filter((r) => r.path.startsWith("/api/"))
      .map((r) => `${r.method} ${r.path}`)
      .sort();
    const documented = Object.entries(document.paths)
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${honoPath(path)}`))
      .sort();
    expect(
      served.filter((route) => !documented.includes(route)),
      "served but not documented",
    ).toEqual([]);
    expect(
      documented.filter((route) => !served.includes(route)),
      "documented but not served",
    ).toEqual([]);
    expect(served.length).toBe(apiEndpoints.length);
  });

  it("describes the bearer scheme, requires it where the server does, and gives the error shape for failures", () => {
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    for (const definition of apiEndpoints) {
      const operation = document.paths[definition.path]?.[definition.method];
      expect(operation, `${definition.method} ${definition.path}`).toBeDefined();
      // A public operation declares it needs nothing; every other one names its scheme.
      if (definition.access === "public") expect(operation!.security, `${definition.path} security`).toEqual([]);
      else expect(operation!.security, `${definition.path} security`).toEqual([{ [definition.access === "api-key" ? "apiKeyAuth" : "bearerAuth"]: [] }]);
      if (isStaffAccess(definition.access)) {
        expect(Object.keys(operation!.responses)).toEqual(expect.arrayContaining(["401", "403"]));
        // The reference names who may call it, as declared.
        expect(operation!.description, `${definition.path} roles`).toContain(`Roles: ${allowedRoles(definition.access).join(", ")}.`);
        if (definition.stepUp) expect(operation!.description, `${definition.path} step-up`).toContain("403 `step_up_required`");
      }
      // A path parameter names something that may not exist; a query or body may be refused.
      if (definition.params) expect(Object.keys(operation!.responses), `${definition.path} 404`).toContain("404");
      if (definition.query || definition.body) expect(Object.keys(operation!.responses), `${definition.path} 400`).toContain("400");
      expect(JSON.stringify(operation!.responses)).toContain("#/components/schemas/ApiError");
    }
  });

  it("names every operation after its definition (a stable operationId for generated clients) and its server after PUBLIC_URL", () => {
    const ids = Object.entries(apiEndpointsByName).map(([name, definition]) => {
      const operationId = document.paths[definition.path]?.[definition.method]?.operationId;
      expect(operationId, `${definition.method} ${definition.path}`).toBe(name.replace(/Endpoint$/, ""));
      return operationId;
    });
    expect(new Set(ids).size).toBe(ids.length);
    expect(document.paths["/api/events"]?.post?.operationId).toBe("ingestEvents");
    expect(document.servers).toEqual([{ url: ctx.config.publicUrl }]);
  });

  it("types POST /api/events's body event by event: each type with its own data schema", () => {
    const body = document.paths["/api/events"]?.post?.requestBody?.content["application/json"]?.schema as { properties: { events: { items: unknown } } };
    expect(body.properties.events.items).toEqual({ $ref: "#/components/schemas/StorefrontEvent" });
    const variants = (document.components.schemas.StorefrontEvent as { anyOf: Array<{ properties: { type: { enum: string[] }; data: { $ref: string } } }> }).anyOf;
    expect(variants.map((v) => v.properties.type.enum)).toEqual(STOREFRONT_EVENT_TYPES.map((type) => [type]));
    for (const variant of variants) {
      const name = `StorefrontEvent_${variant.properties.type.enum[0]!.replace(".", "_")}`;
      expect(variant.properties.data).toEqual({ $ref: `#/components/schemas/${name}` });
      expect(document.components.schemas[name], name).toMatchObject({ type: "object", additionalProperties: false });
    }
  });

  it("shows an example for every request body", () => {
    for (const definition of apiEndpoints.filter((d) => d.body)) {
      const example = document.paths[definition.path]?.[definition.method]?.requestBody?.content["application/json"]?.schema.example;
      expect(example, `${definition.method} ${definition.path}`).toBeDefined();
      // The example is valid input for the endpoint.
      expect(definition.body!.safeParse(example).success, `${definition.path} example`).toBe(true);
    }
  });

  it("keeps staff endpoints under the guarded prefixes, and only them", () => {
    for (const definition of apiEndpoints) {
      const underAdminPrefix = ADMIN_ONLY_PREFIXES.some((prefix) => definition.path === prefix || definition.path.startsWith(`${prefix}/`));
      expect(underAdminPrefix, `${definition.method} ${definition.path}`).toBe(isStaffAccess(definition.access));
    }
  });
});

describe("the API reference at /api/docs", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext("sqlite");
  });
  afterAll(async () => {
    await ctx.close();
  });

  it("serves a page that loads only its own files (no inline script) and the files it names", async () => {
    const page = await ctx.request("/api/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
    const files = [...html.matchAll(/(?:src|href)="(\/api\/docs\/[^"]+)"/g)].map((m) => m[1]!);
    expect(files.length).toBe(3);
    for (const file of files) {
      const res = await ctx.request(file);
      expect(res.status, file).toBe(200);
      expect((await res.text()).length, file).toBeGreaterThan(50);
    }
    expect((await ctx.request("/api/docs/..%2Fpackage.json")).status).toBe(404);
    expect((await ctx.request("/api/docs/index.html")).status).toBe(404);
  });
});
