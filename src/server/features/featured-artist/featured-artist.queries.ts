import type { Executor } from "../../platform/db/executor.ts";
import type { FeaturedRow } from "../../domain/featured-artist/featured-slots.ts";

/** SQL of the featured-artist screen and calls (docs/product.md §18.1); the slot rules are in domain/featured-artist. */

/** Past slots (ran out, ended early or dropped from the queue), newest first. */
export function selectHistory(db: Executor, now: string, limit: number): Promise<FeaturedRow[]> {
  return db
    .selectFrom("featured_artists")
    .selectAll()
    .where((eb) => eb.or([eb("ended_at", "is not", null), eb("ends_at", "<=", now)]))
    .orderBy("starts_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

export async function insertSlot(db: Executor, row: FeaturedRow): Promise<void> {
  await db.insertInto("featured_artists").values(row).execute();
}

/** What the rules need to know of a vendor before featuring it. */
export function selectVendorForFeature(db: Executor, vendorId: string) {
  return db.selectFrom("vendors").select(["id", "name", "is_active", "is_internal"]).where("id", "=", vendorId).executeTakeFirst();
}

/** The storefront's read: the current slot's vendor, public fields only. */
export function selectPublicCurrent(db: Executor, now: string) {
  return db
    .selectFrom("featured_artists as f")
    .innerJoin("vendors as v", "v.id", "f.vendor_id")
    .select(["v.name", "v.slug", "v.about", "f.ends_at"])
    .where("f.ends_at", ">", now)
    .where("f.ended_at", "is", null)
    .where("f.starts_at", "<=", now)
    .where("v.is_active", "=", 1)
    .orderBy("f.starts_at", "desc")
    .limit(1)
    .executeTakeFirst();
}
