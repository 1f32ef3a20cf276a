import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SETTING_KEY_LIST } from "../../contract/settings.ts";
import { MAX_BODY_BYTES } from "../app.ts";
import { API_KEY_PREFIXES } from "../platform/request/api-key-guard.ts";
import { type TestContext, createTestContext } from "../testing/test-app.ts";
import { appRoutes, fillPath } from "../testing/app-routes.ts";
import { databaseChecksum } from "../testing/db-checksum.ts";

/**
 * Property-based fuzz of every route of the app (listed from Hono itself): hostile path, query and
 * body values, bad JSON, wrong Content-Type, huge and deeply nested bodies. Nothing may answer 5xx;
 * every rejection is the JSON error shape without a stack trace; a rejected write changes nothing.
 */
const RUNS_PER_ROUTE = 200;

/** Routes whose non-2xx answers write on purpose (rate-limit counters, the test-error row). */
// POST /api/events counts its key's rate (and notes the key's use) before it reads a body; its
// events' own "nothing changed" is held by integrations/storefront-events.fuzz.test.ts.
const WRITES_WHEN_REJECTED = new Set(["POST /api/auth/sign-in", "POST /api/beta/verify", "POST /api/debug/test-error", "POST /api/events"]);
const AUTH_ROUTES = new Set(["POST /api/auth/sign-in", "POST /api/beta/verify", "POST /api/auth/sign-out", "GET /api/auth/me"]);
/** Routes without input whose answer to the fuzzing admin depends on their state only: 409 for an account without a passkey. */
const STATE_ONLY_ROUTES = new Set(["POST /api/auth/step-up/passkey/options"]);

const NASTY = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "%00",
  "' OR '1'='1",
  "1; DROP TABLE vendors; --",
  '" OR ""="',
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "../../../etc/passwd",
  "${7*7}",
  "{{7*7}}",
  "%",
  "_",
  "*",
  "\\",
  "NaN",
  "Infinity",
  "-Infinity",
  "-1",
  "-0",
  "0",
  "1e308",
  "1e-308",
  "99999999999999999999999999",
  "9007199254740993",
  "0x7fffffff",
  "true",
  "null",
  "undefined",
  "[]",
  "{}",
  "__proto__",
  "constructor",
  "\u202e\u0301\ud83d\ude00",
  "\ud800",
];
const QUERY_KEYS = ["page", "limit", "status", "search", "include_internal", "days", "level", "archived", "cursor", "key", "action", "id", "__proto__"];
const BODY_KEYS = ["isActive", "deleteFromClerk", "level", "email", "password", "__proto__", "constructor", ...SETTING_KEY_LIST];

const nastyString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  // Long values, built by repetition (generating them char by char costs more than the request).
  { weight: 1, arbitrary: fc.tuple(fc.string({ unit: "binary", minLength: 1, maxLength: 8 }), fc.integer({ min: 100, max: 1000 })).map(([s, n]) => s.repeat(n)) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.bigInt().map(String) },
);
const nastyJson: fc.Arbitrary<unknown> = fc.oneof(nastyString, fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 4 }), fc.array(nastyString, { maxLength: 3 }));
const bodyObject = fc.oneof(fc.dictionary(fc.constantFrom(...BODY_KEYS), nastyJson, { maxKeys: 4 }), fc.dictionary(fc.string({ maxLength: 20 }), nastyJson, { maxKeys: 4 }));

type Body = { contentType: string | null; text: string } | null;

const body: fc.Arbitrary<Body> = fc.oneof(
  { weight: 6, arbitrary: fc.oneof(bodyObject, nastyJson).map((v) => ({ contentType: "application/json", text: JSON.stringify(v) ?? "null" })) },
  // Not JSON at all, or JSON with what JSON.stringify never makes: duplicate keys, 1e999, NUL bytes.
  {
    weight: 2,
    arbitrary: fc
      .oneof(
        fc.string({ unit: "binary", minLength: 1, maxLength: 50 }),
        fc.tuple(fc.constantFrom(...BODY_KEYS), nastyJson, nastyJson).map(([k, a, b]) => `{"${k}":${JSON.stringify(a)},"${k}":${JSON.stringify(b)}}`),
        fc.constantFrom(...BODY_KEYS).map((k) => `{"${k}": 1e999}`),
        fc.constantFrom("{", "[", '{"a":', "\u0000", '{"a":"\u0000"}', "\ufeff{}", "{'a':1}", "undefined", "NaN"),
      )
      .map((text) => ({ contentType: "application/json", text })),
  },
  // Deep nesting.
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 20_000 }).map((depth) => ({ contentType: "application/json", text: `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}` })) },
  // Wrong or missing Content-Type.
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "text/json", "application/jsonp", "json", null), bodyObject)
      .map(([contentType, v]) => ({ contentType, text: JSON.stringify(v) })),
  },
  // About 1 MB: just under the limit (reaches validation) and just over (413).
  {
    weight: 1,
    arbitrary: fc.constantFrom(MAX_BODY_BYTES - 64, MAX_BODY_BYTES + 1).map((size) => ({ contentType: "application/json", text: JSON.stringify({ password: "x".repeat(size - 16), isActive: "y" }) })),
  },
  { weight: 1, arbitrary: fc.constant(null) },
);
const query = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 10 })), nastyString), { maxLength: 5 });

const STACK_TRACE = /\n\s+at |\.ts:\d+|node_modules|SqliteError|SQLITE_/;

describe("input fuzz over every route", () => {
  let ctx: TestContext;
  let adminToken: string;
  let realIds: string[];
  beforeAll(async () => {
    // The providers' webhooks configured, so their signature checks are fuzzed (unsigned and forged bodies: 400).
    ctx = await createTestContext("sqlite", {
      seedDemo: true,
      env: { STRIPE_WEBHOOK_SECRET: "whsec_fuzz_stripe", CLERK_WEBHOOK_SIGNING_SECRET: `whsec_${Buffer.from("fuzz-clerk-signing-secret").toString("base64")}` },
    });
    adminToken = (await ctx.createUser({ email: "fuzz-admin@hki.global" })).token;
    const vendors = await ctx.database.db.selectFrom("vendors").select("id").limit(3).execute();
    const errors = await ctx.database.db.selectFrom("error_logs").select("id").limit(2).execute();
    realIds = [...vendors, ...errors].map((r) => r.id);
  });
  afterAll(async () => {
    await ctx.close();
  });

  function totalChanges(): number {
    return (ctx.database.sqlite!.prepare("select total_changes() as n").get() as { n: number }).n;
  }

  it(`sends ${RUNS_PER_ROUTE}+ hostile requests to every route: no 5xx, clean rejections, nothing written by a rejection`, async () => {
    const routes = appRoutes(ctx.app);
    expect(routes.length).toBeGreaterThan(15);
    const tried: Record<string, number> = {};
    const statuses: Record<number, number> = {};
    const pathValue = fc.oneof(
      nastyString.filter((s) => s !== ""),
      fc.constantFrom(...realIds),
    );

    for (const route of routes) {
      const label = `${route.method} ${route.path}`;
      const mutates = route.method !== "GET" && !WRITES_WHEN_REJECTED.has(label);
      const before = mutates ? await databaseChecksum(ctx.database.db, { exclude: ["rate_limits"] }) : null;
      let accepted = 0;
      // Signing out would revoke the fuzzing admin's own token; that route is fuzzed anonymously.
      // Routes taken with an API key (request/api-key-guard.ts) are fuzzed with a live key of their scope.
      const keyed = API_KEY_PREFIXES.find((p) => route.path === p.prefix || route.path.startsWith(`${p.prefix}/`));
      const token = label === "POST /api/auth/sign-out" ? null : keyed ? (await ctx.createApiKey([keyed.scope])).key : adminToken;

      await fc.assert(
        fc.asyncProperty(pathValue, query, route.method === "GET" ? fc.constant(null) : body, async (param, params, payload) => {
          const headers = new Headers();
          if (token) headers.set("authorization", `Bearer ${token}`);
          if (payload?.contentType) headers.set("content-type", payload.contentType);
          const search = new URLSearchParams(params).toString();
          const url = `${fillPath(route.path, param)}${search ? `?${search}` : ""}`;
          const changesBefore = totalChanges();
          const res = await ctx.app.request(url, { method: route.method, headers, ...(payload ? { body: payload.text } : {}) });
          tried[label] = (tried[label] ?? 0) + 1;
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          const text = await res.text();
          const where = `${label} -> ${res.status} for ${url.slice(0, 200)} ${payload?.contentType ?? ""} ${payload?.text.slice(0, 200) ?? ""}`;

          expect(res.status, where).toBeLessThan(500);
          if (res.status >= 200 && res.status < 300) {
            if (mutates) accepted += 1;
            return;
          }
          const allowed = AUTH_ROUTES.has(label)
            ? [400, 401, 404, 413, 415, 422, 429]
            : label === "POST /api/debug/test-error"
              ? [400, 404, 413, 415, 418, 422]
              : STATE_ONLY_ROUTES.has(label)
                ? [400, 404, 409, 413, 415, 422]
                : [400, 404, 413, 415, 422];
          expect(allowed, where).toContain(res.status);
          expect(STACK_TRACE.test(text), `${where}: ${text.slice(0, 300)}`).toBe(false);
          const parsed = JSON.parse(text) as { error: { code: unknown; message: unknown } };
          expect(Object.keys(parsed), where).toEqual(["error"]);
          expect(typeof parsed.error.code, where).toBe("string");
          expect(typeof parsed.error.message, where).toBe("string");
          if (mutates) expect(totalChanges(), `${where}: a rejected write changed rows`).toBe(changesBefore);
        }),
        { numRuns: RUNS_PER_ROUTE },
      );

      // Any write the fuzzer managed to make well-formed is a legitimate change; otherwise every row
      // of every table must be as it was.
      if (before && accepted === 0) expect(await databaseChecksum(ctx.database.db, { exclude: ["rate_limits"] }), label).toEqual(before);
    }

    const total = Object.values(tried).reduce((a, b) => a + b, 0);
    console.log(`[fuzz] ${total} requests over ${routes.length} routes; statuses ${JSON.stringify(statuses)}`);
    for (const route of routes) expect(tried[`${route.method} ${route.path}`], `${route.method} ${route.path}`).toBeGreaterThanOrEqual(RUNS_PER_ROUTE);
    expect(total).toBeGreaterThan(3000);
  }, 120_000);
});
