import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportKinds } from "../../export-kinds.ts";
import { UNKNOWN_FIELD_MESSAGE } from "../../platform/http/validate.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";

/**
 * Issue 31, finding 5: an export's filters are the list's filters, and a key the kind does not know
 * is refused with a 400 naming it (`filters.state`), for every kind. `{"kind":"payouts","filters":
 * {"state":"failed"}}` used to drop the misspelt key and export every payout; `constructor` and
 * `__proto__` keys were taken too.
 */

/** Filters each kind needs to be valid at all (its required keys), so only the key under test is wrong. */
const VALID_FILTERS: Record<string, Record<string, string>> = { "analytics-daily": { days: "30", to: "2026-11-22" }, statement: { vendorId: "any-vendor" } };

describe.each(testDatabaseKinds)("export filters are strict per kind (%s)", (kind) => {
  let ctx: TestContext;
  let adminToken: string;
  beforeAll(async () => {
    ctx = await createTestContext(kind);
    adminToken = (await ctx.createUser({ email: "export-filters@hki.global", role: "admin" })).token;
  });
  afterAll(async () => {
    await ctx.close();
  });

  const createExport = (body: string) => ctx.request("/api/admin/exports", { method: "POST", token: adminToken, headers: { "content-type": "application/json" }, body });
  const fieldsOf = async (res: Response) => ((await res.json()) as { error: { fields?: Record<string, string> } }).error.fields ?? {};
  const traces = async () => ({
    links: Number(
      (
        await ctx.database.db
          .selectFrom("export_links")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    audits: Number(
      (
        await ctx.database.db
          .selectFrom("audit_log")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("action", "=", "export.create")
          .executeTakeFirstOrThrow()
      ).n,
    ),
  });

  it("the attack: payouts filtered by a misspelt `state` is a 400 naming `filters.state`, and no link is made", async () => {
    const before = await traces();
    const res = await createExport(JSON.stringify({ kind: "payouts", filters: { state: "failed" } }));
    expect(res.status).toBe(400);
    expect(await fieldsOf(res)).toEqual({ "filters.state": UNKNOWN_FIELD_MESSAGE });
    expect(await traces()).toEqual(before);
    // Spelt as the list spells it, the export is made.
    expect((await createExport(JSON.stringify({ kind: "payouts", filters: { status: "failed" } }))).status).toBe(201);
  });

  it("every kind refuses an unknown, a `constructor` and a `__proto__` key, naming it under `filters`", async () => {
    expect(exportKinds.length).toBeGreaterThan(5);
    const before = await traces();
    for (const { kind: name } of exportKinds) {
      const valid = VALID_FILTERS[name] ?? {};
      for (const key of ["bogus", "constructor", "__proto__", "toString"]) {
        // Written by hand: JSON.stringify of an object literal cannot carry a `__proto__` key.
        const filters = `{${Object.entries(valid)
          .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)},`)
          .join("")}${JSON.stringify(key)}:"1"}`;
        const res = await createExport(`{"kind":${JSON.stringify(name)},"filters":${filters}}`);
        const where = `${name} with ${key}`;
        expect(res.status, where).toBe(400);
        expect(await fieldsOf(res), where).toEqual({ [`filters.${key}`]: UNKNOWN_FIELD_MESSAGE });
      }
      // The kind's own filters alone are taken.
      expect((await createExport(JSON.stringify({ kind: name, filters: valid }))).status, name).toBe(201);
    }
    const after = await traces();
    expect(after.links - before.links).toBe(exportKinds.length);
    expect(after.audits - before.audits).toBe(exportKinds.length);
  });

  it("a value a kind refuses is named under `filters` too", async () => {
    const res = await createExport(JSON.stringify({ kind: "payouts", filters: { status: "lost" } }));
    expect(res.status).toBe(400);
    expect(Object.keys(await fieldsOf(res))).toEqual(["filters.status"]);
  });
});
