import type { Kysely } from "kysely";
import { createVersionCounter } from "./version-counter.ts";

/**
 * The catalogue's version (`counters.catalogue_version`): moves whenever a product is added or
 * deleted, or its name or status changes. A search's count across vendors depends on nothing else
 * (prices and sales do not change who matches), so it is kept in memory per version and counted
 * again only after the catalogue changed (features/products/search-counts.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  await createVersionCounter(db, { counter: "catalogue_version", table: "products", columns: ["name", "status"] });
}
