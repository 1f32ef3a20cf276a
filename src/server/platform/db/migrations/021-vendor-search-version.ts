import type { Kysely } from "kysely";
import { createVersionCounter } from "./version-counter.ts";

/**
 * The vendor search's version (`counters.vendor_search_version`): moves whenever a vendor is added
 * or deleted, or a column of its search text (migration 005: name, owner, e-mail, slug) changes.
 * Which vendors a search matches depends on nothing else, so the matches are kept in memory per
 * version (features/vendors/vendor-matches.ts). Statuses are
 * applied to the kept matches on every request, so they do not move it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  await createVersionCounter(db, { counter: "vendor_search_version", table: "vendors", columns: ["name", "owner_name", "email", "slug"] });
}
