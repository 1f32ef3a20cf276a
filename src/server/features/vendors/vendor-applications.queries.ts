import type { ApplicationItem, ArtistApplication, ArtistStatus } from "../../../contract/vendors.ts";
import type { Executor } from "../../platform/db/executor.ts";

/**
 * The Applications queue's SQL (docs/product.md §20.2): pending artists oldest first, a keyset walk
 * of the (approval_status, applied_at, id) index (migration 030).
 */

export interface ApplicationPosition {
  appliedAt: string;
  id: string;
}

export async function listPendingApplications(db: Executor, after: ApplicationPosition | undefined, limit: number): Promise<ApplicationItem[]> {
  let query = db
    .selectFrom("vendors")
    .select(["id", "name", "owner_name", "email", "slug", "external_id", "approval_status", "is_active", "applied_at", "joined_at", "application"])
    .where("approval_status", "=", "pending")
    .orderBy("applied_at")
    .orderBy("id")
    .limit(limit);
  if (after) query = query.where((eb) => eb(eb.refTuple("applied_at", "id"), ">", eb.tuple(after.appliedAt, after.id)));
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    owner: r.owner_name,
    email: r.email,
    slug: r.slug,
    artistId: r.external_id,
    status: r.approval_status as ArtistStatus,
    appliedAt: r.applied_at ?? r.joined_at,
    application: r.application === null ? null : (JSON.parse(r.application) as ArtistApplication),
  }));
}

/** The oldest application waiting, for the attention inbox: the first entry of the index. */
export async function oldestPendingAppliedAt(db: Executor): Promise<string | null> {
  const row = await db.selectFrom("vendors").select("applied_at").where("approval_status", "=", "pending").orderBy("applied_at").orderBy("id").limit(1).executeTakeFirst();
  return row?.applied_at ?? null;
}
