import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createProduct } from "../../domain/ledger/products.ts";
import { createVendor } from "../../domain/ledger/vendors.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { type KeptMatch, listProductRows, readSearchIndex, type SearchIndexReads } from "./products.queries.ts";

/**
 * A search across vendors sorted by a key kept with its matches (creation time, price: moved only
 * by a catalogue change, migration 032) is cut from the kept matches, whatever their number up to
 * the cap: no match's row is read to sort it (docs/performance.md). Sorted by sales, which change
 * with every order, the rows are read now.
 */
describe.each(testDatabaseKinds)("a search page cut from the kept matches (%s)", (kind) => {
  let ctx: TestContext;
  const ids: string[] = [];

  beforeEach(async () => {
    ctx = await createTestContext(kind);
    const db = ctx.database.db;
    const vendorId = (await createVendor(db, { name: "Kiln Row", ownerName: "Ode", email: "ode@example.com", slug: "kiln-row", joinedAt: "2026-01-01T00:00:00.000Z" }, ctx.clock)).id;
    for (let i = 0; i < 3; i++) {
      ids.push((await createProduct(db, { vendorId, name: `Glazed Cup ${i}`, priceCents: 1000 + i * 100, status: "listed", createdAt: `2026-10-0${i + 1}T00:00:00.000Z` }, ctx.clock)).id);
    }
  });
  afterEach(async () => {
    ids.length = 0;
    await ctx.close();
  });

  /** The real index, but kept matches whose prices are the reverse of the rows' (as if kept before a change). */
  const reversedPrices = (): SearchIndexReads => {
    const real = readSearchIndex(ctx.database.db);
    return {
      ...real,
      keptMatches: async (search, limit) => (await real.keptMatches(search, limit)).map((m: KeptMatch) => ({ ...m, price_cents: 5000 - Number(m.price_cents) })),
    };
  };
  const names = async (sort: "price" | "sold" | "newest") => (await listProductRows(ctx.database.db, { limit: 10, sort, search: "Glazed Cup" }, true, reversedPrices())).products.map((p) => p.name);

  it("sorts by the kept prices without reading the rows", async () => {
    expect(await names("price")).toEqual(["Glazed Cup 2", "Glazed Cup 1", "Glazed Cup 0"]);
    expect(await names("newest")).toEqual(["Glazed Cup 2", "Glazed Cup 1", "Glazed Cup 0"]);
  });

  it("reads the rows to sort by sales", async () => {
    // No sales: ties by id, as the index walk orders them.
    expect((await names("sold")).sort()).toEqual(["Glazed Cup 0", "Glazed Cup 1", "Glazed Cup 2"]);
  });
});
