import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { SEARCH_TEXTS, type SearchTextDeclaration, searchTextDisagreements } from "./search-texts.ts";

/**
 * The searches' declared text columns agree with the migrated database: its search index and the
 * triggers moving the versions that kept search answers depend on (issue 32: a searchable column
 * added without its trigger would leave kept matches stale for good, and nothing said so).
 */
describe.each(testDatabaseKinds)("search texts declared once (%s)", (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(kind);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const vendors = SEARCH_TEXTS.find((d) => d.table === "vendors")!;
  const products = SEARCH_TEXTS.find((d) => d.table === "products")!;

  it("every declaration agrees with the search index and the version triggers", async () => {
    expect(await searchTextDisagreements(ctx.database.db)).toEqual([]);
  });

  it("a searchable column declared without a migration for its index and trigger is named", async () => {
    const withCity: SearchTextDeclaration = { ...vendors, textColumns: [...vendors.textColumns, "city"] };
    const problems = await searchTextDisagreements(ctx.database.db, [withCity]);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join("\n")).toContain("city");
    expect(problems.join("\n")).toContain("vendor_search_version");
  });

  it("a product text column declared without a migration for the trigger that keeps its search index is named", async () => {
    const problems = await searchTextDisagreements(ctx.database.db, [{ ...products, textColumns: [...products.textColumns, "description"] }]);
    expect(problems.join("\n")).toContain("product_search_update");
    expect(problems.join("\n")).toContain("description");
  });

  it("a column dropped from a search's text, or a status filter not versioned, is named", async () => {
    expect(await searchTextDisagreements(ctx.database.db, [{ ...vendors, textColumns: ["name", "owner_name", "email"] }])).not.toEqual([]);
    // On PostgreSQL the search table holds the kept keys too (migration 033), so its trigger is named as well.
    const keptKeysLeftOut = await searchTextDisagreements(ctx.database.db, [{ ...products, alsoVersionedBy: [] }]);
    expect(keptKeysLeftOut).toEqual(
      kind === "postgres" ? [expect.stringContaining("catalogue_version"), expect.stringContaining("product_search_update")] : [expect.stringContaining("catalogue_version")],
    );
  });
});
