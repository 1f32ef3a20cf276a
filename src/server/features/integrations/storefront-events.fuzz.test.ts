import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestEventsResponseSchema } from "../../../contract/integrations-events.ts";
import { compareRollups } from "../../domain/ledger/recompute.ts";
import { databaseChecksum } from "../../testing/db-checksum.ts";
import { artist, event, order, product, send } from "../../testing/storefront-events.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";

/**
 * Hostile storefront events: each a valid event of a random type with one thing made wrong (a wrong
 * JSON type, huge, fractional or negative numbers, control and direction-changing characters,
 * prototype keys, unknown keys, a missing field, a 1 MB string, an unknown artist or product, a
 * refund beyond what was paid, a reused id). Every one must be answered `rejected` with a code,
 * never a 5xx, and nothing a rejected event did may remain: the database stays as it was.
 */
const EVENTS = 1_200;
const BATCH = 20;
const UNCHANGED = { exclude: ["rate_limits", "api_keys"] };

const templates: Record<string, () => Record<string, unknown>> = {
  "artist.created": () => artist("a1", { isInternal: false, joinedAt: "2026-11-01T00:00:00Z", customization: { theme: "minimal", primaryColor: "#112233" } }),
  "artist.updated": () => artist("a1", { customization: { about: "Prints" } }),
  "artist.deleted": () => ({ artistId: "a1" }),
  "product.created": () => product("p1", "a1"),
  "product.updated": () => product("p1", "a1", { status: "draft" }),
  "product.deleted": () => ({ productId: "p1" }),
  "order.paid": () => order("o2", [{ lineId: "l1", productId: "p1", artistId: "a1", quantity: 1, unitPriceCents: 2500 }]),
  "order.refunded": () => ({ orderId: "o1", refundId: "r9", amountCents: 100, lines: [{ lineId: "l1", amountCents: 100 }], reason: "requested" }),
  "subscription.paid": () => ({ subscriptionId: "s1", artistId: "a1", periodStart: "2026-11-01T00:00:00Z", periodEnd: "2026-12-01T00:00:00Z", amountCents: 2999 }),
  "store.visits": () => ({ artistId: "a1", day: "2026-11-22", visits: 5 }),
  "error.reported": () => ({ level: "error", message: "boom", statusCode: 500 }),
};
const TYPES = Object.keys(templates);

const wrongValue = fc.constantFrom<unknown>(null, true, [], {}, "", " ", 1e308, -1, 1.5, Number.MAX_SAFE_INTEGER + 2, "1e999", "12abc", "'; drop table vendors; --", [1, 2], { $gt: "" });
/** Text no id, name, e-mail, time or enum takes: control, invisible and direction-changing characters, a lone surrogate, 1 MB. */
const evilText = fc.constantFrom("\u0000", "a\u202Eb", "\u200Bzero", "line\nbreak", "\u001b[31mred", "\uD800", "x".repeat(1_000_000), "\u2028sep");

type Mutation = { kind: "replace"; value: unknown } | { kind: "text"; value: string } | { kind: "extra"; key: string } | { kind: "drop" } | { kind: "type" } | { kind: "time"; value: unknown };
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("replace" as const), value: wrongValue }),
  fc.record({ kind: fc.constant("text" as const), value: evilText }),
  fc.record({ kind: fc.constant("extra" as const), key: fc.constantFrom("__proto__", "constructor", "prototype", "isActive", "vendorId", "status ") }),
  fc.record({ kind: fc.constant("drop" as const) }),
  fc.record({ kind: fc.constant("type" as const) }),
  fc.record({ kind: fc.constant("time" as const), value: fc.constantFrom<unknown>("yesterday", "2026-13-45T99:99:99Z", "2026-11-22T12:00:00", 1_700_000_000, null, "2026-11-22T12:00:00Z".repeat(3)) }),
);

/** Fields whose every value of the wrong kind or text of the evil kind is refused (ids, money, counts, names, e-mails, times). */
const STRICT_FIELDS: Record<string, string[]> = {
  "artist.created": ["artistId", "name", "ownerName", "email", "slug", "joinedAt"],
  "artist.updated": ["artistId", "name", "ownerName", "email", "slug"],
  "artist.deleted": ["artistId"],
  "product.created": ["productId", "artistId", "name", "priceCents", "inventory", "status"],
  "product.updated": ["productId", "artistId", "name", "priceCents", "inventory", "status"],
  "product.deleted": ["productId"],
  "order.paid": ["orderId", "customerEmail", "paidAt", "lines"],
  "order.refunded": ["orderId", "refundId", "amountCents", "lines"],
  "subscription.paid": ["subscriptionId", "artistId", "periodStart", "periodEnd", "amountCents"],
  "store.visits": ["artistId", "day", "visits"],
  "error.reported": ["level", "statusCode"],
};

/** The JSON text of one hostile event (text, so a "__proto__" key arrives as a key, not a prototype). */
function hostile(type: string, pick: number, m: Mutation, id: string): string {
  const data = templates[type]!();
  const fields = STRICT_FIELDS[type]!;
  const field = fields[pick % fields.length]!;
  const base = { id, type, occurredAt: "2026-11-22T12:00:00Z" };
  switch (m.kind) {
    case "replace":
      // A value no field of that name takes (a number field never takes a string and vice versa).
      data[field] = typeof data[field] === "number" && typeof m.value === "number" && Number.isInteger(m.value) && m.value >= 0 && m.value < 1e9 ? -1 : m.value;
      if (typeof data[field] === "string" && typeof m.value === "string" && m.value.trim() !== "") data[field] = ["string", m.value];
      return JSON.stringify({ ...base, data });
    case "text":
      data[field] = typeof data[field] === "number" ? m.value : `${String(data[field] ?? "")}${m.value}`;
      if (field === "level" || field === "status") data[field] = m.value;
      return JSON.stringify({ ...base, data });
    case "extra": {
      const text = JSON.stringify({ ...base, data });
      return text.replace('"data":{', `"data":{${JSON.stringify(m.key)}:{"isAdmin":true},`);
    }
    case "drop":
      // An optional field may be absent: it is given as null instead, which none takes.
      if (field === "joinedAt" || field === "statusCode" || (type === "order.refunded" && field === "lines")) data[field] = null;
      else delete data[field];
      return JSON.stringify({ ...base, data });
    case "type":
      return JSON.stringify({ ...base, type: `${type}.v2`, data });
    case "time":
      return JSON.stringify({ ...base, occurredAt: m.value, data });
  }
}

describe.each(testDatabaseKinds)("hostile storefront events (%s)", (kind) => {
  let ctx: TestContext;
  let key: string;
  let keyId: string;
  let appliedId: string;
  beforeAll(async () => {
    ctx = await createTestContext(kind, { now: "2026-11-22T12:00:00.000Z" });
    ({ key, id: keyId } = await ctx.createApiKey());
    const setup = await send(ctx, key, [
      event("artist.created", artist("a1")),
      event("product.created", product("p1", "a1")),
      event("order.paid", order("o1", [{ lineId: "l1", productId: "p1", artistId: "a1", quantity: 1, unitPriceCents: 2500 }])),
      event("order.refunded", { orderId: "o1", refundId: "r1", amountCents: 2400 }),
      event("artist.created", artist("gone")),
      event("artist.deleted", { artistId: "gone" }, "2026-11-22T12:00:01.000Z"),
    ]);
    expect(setup.map((r) => r.status)).toEqual(Array(6).fill("applied"));
    appliedId = setup[0]!.id;
  });
  afterAll(async () => {
    await ctx.close();
  });

  it(`answers ${EVENTS} hostile events rejected with a code, never a 5xx, and changes no row`, async () => {
    const before = await databaseChecksum(ctx.database.db, UNCHANGED);
    const codes: Record<string, number> = {};
    let sent = 0;
    const one = fc.tuple(fc.constantFrom(...TYPES), fc.nat(50), mutation);
    await fc.assert(
      fc.asyncProperty(fc.array(one, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        const bodies = batch.map(([type, pick, m]) => hostile(type, pick, m, `hostile-${sent++}`));
        // A 1 MB string fills a request on its own, and what the input rules refuse anywhere in a
        // body (http/validate.ts: a NUL, a lone surrogate, a "__proto__" key) makes its whole envelope
        // unreadable: such events go one per request, the others together.
        const alone = (b: string) => b.length > 100_000 || /\\u0000|\\ud[89ab]|"__proto__"/i.test(b);
        const groups = [...bodies.filter(alone).map((b) => [b]), bodies.filter((b) => !alone(b))].filter((g) => g.length > 0);
        for (const group of groups) {
          // The fuzz sends far more requests than a key may in a minute of the fixed test clock.
          await ctx.deps.limiter.reset(`apikey:${keyId}`);
          const res = await ctx.request("/api/events", { method: "POST", token: key, body: `{"events":[${group.join(",")}]}`, headers: { "content-type": "application/json" } });
          expect(res.status, `${group.join(",").slice(0, 300)}`).toBeLessThan(500);
          if (res.status === 400 || res.status === 413) {
            codes[`envelope ${res.status}`] = (codes[`envelope ${res.status}`] ?? 0) + group.length;
            continue;
          }
          expect(res.status).toBe(200);
          for (const [i, r] of ingestEventsResponseSchema.parse(await res.json()).results.entries()) {
            expect(r.status, `${group[i]!.slice(0, 300)} -> ${JSON.stringify(r)}`).toBe("rejected");
            codes[r.error!.code] = (codes[r.error!.code] ?? 0) + 1;
          }
        }
      }),
      { numRuns: EVENTS / BATCH },
    );
    // Refusals a sender can act on, beyond bad data: an unknown or deleted artist, an unknown product, too much refunded, a reused id.
    const extra = await send(ctx, key, [
      event("product.created", product("p9", "nobody")),
      event("product.created", product("p9", "gone")),
      event("order.paid", order("o9", [{ lineId: "l1", productId: "p404", artistId: "a1" }])),
      event("order.refunded", { orderId: "o1", refundId: "r2", amountCents: 101 }),
      event("order.refunded", { orderId: "o404", refundId: "r3", amountCents: 1 }),
      { id: appliedId, type: "store.visits", occurredAt: "2026-11-22T12:00:00Z", data: { artistId: "a1", day: "2026-11-22", visits: 1 } },
    ]);
    expect(extra.map((r) => r.error?.code)).toEqual(["unknown_artist", "unknown_artist", "unknown_product", "exceeds_paid", "unknown_order", "id_reused"]);
    console.log(`[storefront fuzz] ${sent + extra.length} hostile events: ${JSON.stringify(codes)}`);
    expect(sent).toBeGreaterThanOrEqual(EVENTS);
    expect(await databaseChecksum(ctx.database.db, UNCHANGED)).toEqual(before);
    expect(await compareRollups(ctx.database.db)).toEqual([]);
  }, 600_000);
});
