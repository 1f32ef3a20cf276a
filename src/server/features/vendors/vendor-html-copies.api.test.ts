import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { VendorDetail } from "../../../contract/vendors.ts";
import { CUSTOM_HTML_POLICY } from "../../domain/customization/sanitize-customization.ts";
import { createVendor } from "../../domain/ledger/vendors.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { makeVendorHtmlCopies } from "./vendor-html-copies.job.ts";

const NOW = "2026-11-22T12:00:00.000Z";

/**
 * Stores written before their HTML had a stored copy (before migration 034, or under an older
 * `CUSTOM_HTML_POLICY`) get one from the `vendors.html_copies` job (decision 0027), so their details
 * read it instead of sanitising on the way out.
 */
describe.each(testDatabaseKinds)("stored copies of store HTML made afterwards (%s)", (kind) => {
  let ctx: TestContext;
  let admin: { token: string };
  const store = (slug: string, customHtml: string | null) =>
    createVendor(ctx.database.db, { name: `Artist ${slug}`, ownerName: `Owner ${slug}`, email: `${slug}@example.com`, slug, joinedAt: NOW, customHtml }, ctx.clock);
  const copies = async () =>
    Object.fromEntries(
      (await ctx.database.db.selectFrom("vendors").select(["slug", "custom_html_shown", "custom_html_policy", "updated_at"]).execute()).map((r) => [
        r.slug,
        { shown: r.custom_html_shown, policy: r.custom_html_policy, updatedAt: r.updated_at },
      ]),
    );

  beforeEach(async () => {
    ctx = await createTestContext(kind, { now: NOW });
    admin = await ctx.createUser({ email: "boss@hki.global", role: "admin" });
  });
  afterEach(async () => {
    await ctx.close();
  });

  it("makes every missing or stale copy, leaves current ones and stores without HTML alone, and the details show them", async () => {
    const old = await store("old", '<p onclick="x()">Old store</p><script>alert(1)</script>');
    await store("stale", '<p>Stale <a href="javascript:alert(1)">copy</a></p>');
    await store("current", "<p>Current</p>");
    await store("plain", null);
    // As rows written before migration 034 and under an older policy look.
    await ctx.database.db.updateTable("vendors").set({ custom_html_shown: null, custom_html_policy: null }).where("slug", "=", "old").execute();
    await ctx.database.db
      .updateTable("vendors")
      .set({ custom_html_shown: "<p>made under policy 0</p>", custom_html_policy: CUSTOM_HTML_POLICY - 1 })
      .where("slug", "=", "stale")
      .execute();
    const before = await copies();

    expect(await makeVendorHtmlCopies(ctx.database.db, { chunkRows: 1 })).toEqual({ made: 2, stopped: false });
    const after = await copies();
    expect(after.old).toEqual({ shown: "<p>Old store</p>", policy: CUSTOM_HTML_POLICY, updatedAt: before.old!.updatedAt });
    expect(after.stale).toEqual({ shown: "<p>Stale <a>copy</a></p>", policy: CUSTOM_HTML_POLICY, updatedAt: before.stale!.updatedAt });
    expect(after.current).toEqual(before.current);
    expect(after.plain).toEqual({ shown: null, policy: null, updatedAt: before.plain!.updatedAt });
    const detail = await ctx.request(`/api/admin/vendors/${old.id}`, { token: admin.token });
    expect(((await detail.json()) as VendorDetail).customization.customHTML).toBe("<p>Old store</p>");

    // Nothing left: a second walk makes none.
    expect(await makeVendorHtmlCopies(ctx.database.db)).toEqual({ made: 0, stopped: false });
  });
});
