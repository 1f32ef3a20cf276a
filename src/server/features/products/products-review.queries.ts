import type { ReviewItem } from "../../../contract/products.ts";
import type { Executor } from "../../platform/db/executor.ts";

/**
 * The Review queue's SQL (docs/product.md §20.4): listings waiting for review, oldest first, a keyset
 * walk of the (status, created_at, id) index (migration 013) joined to each artist by its key.
 */

export interface ReviewPosition {
  createdAt: string;
  id: string;
}

export async function listWaitingListings(db: Executor, after: ReviewPosition | undefined, limit: number): Promise<ReviewItem[]> {
  let query = db
    .selectFrom("products as p")
    .innerJoin("vendors as v", "v.id", "p.vendor_id")
    .select(["p.id", "p.name", "p.vendor_id", "v.name as vendor_name", "v.takedowns", "p.price_cents", "p.inventory", "p.created_at"])
    .where("p.status", "=", "pending_review")
    .orderBy("p.created_at")
    .orderBy("p.id")
    .limit(limit);
  if (after) query = query.where((eb) => eb(eb.refTuple("p.created_at", "p.id"), ">", eb.tuple(after.createdAt, after.id)));
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    vendorId: r.vendor_id,
    vendorName: r.vendor_name,
    vendorTakedowns: r.takedowns,
    price: Number(r.price_cents) / 100,
    inventory: r.inventory,
    createdAt: r.created_at,
  }));
}
