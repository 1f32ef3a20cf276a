import type { Clock } from "../../platform/clock.ts";
import type { Executor } from "../../platform/db/executor.ts";
import type { FeaturedArtistsTable, FeaturedEndReason } from "../../platform/db/schema.ts";
import type { FeaturedArtistChanged } from "../../../contract/integrations-webhooks.ts";
import { artistIdsOf, recordEventOut } from "../outbox/events-out.ts";

/**
 * The featured-artist slots' shared rules (docs/product.md §18.1), used by the featured-artist
 * area and by the vendors area (a vendor disabled or deleted ends its feature in the same
 * transaction). Live slots (the current one and the queue) are the few rows whose planned end is
 * still ahead and that have not ended early: featured_artists_ends_idx finds them without reading
 * the history.
 */

/** A slot as stored (the table has no generated columns, so its row type is the table type). */
export type FeaturedRow = FeaturedArtistsTable;

const DAY_MS = 86_400_000;

export function addDaysIso(iso: string, days: number): string {
  return new Date(Date.parse(iso) + days * DAY_MS).toISOString();
}

/**
 * The current slot (if any) and the queued ones, in the order they run. Sorted here, not in SQL, so
 * the planner reads the few live rows through featured_artists_ends_idx instead of walking the whole
 * history in start order.
 */
export async function selectLiveSlots(db: Executor, now: string): Promise<FeaturedRow[]> {
  const rows = await db.selectFrom("featured_artists").selectAll().where("ends_at", ">", now).where("ended_at", "is", null).execute();
  return rows.sort((a, b) => (a.starts_at < b.starts_at ? -1 : a.starts_at > b.starts_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The current slot is the live one that has started; the rest of the live ones are the queue. */
export function splitLive(live: FeaturedRow[], now: string): { current: FeaturedRow | null; upcoming: FeaturedRow[] } {
  const current = live.find((r) => r.starts_at <= now) ?? null;
  return { current, upcoming: live.filter((r) => r !== current) };
}

export async function endSlot(db: Executor, id: string, at: string, reason: FeaturedEndReason): Promise<void> {
  await db.updateTable("featured_artists").set({ ended_at: at, end_reason: reason }).where("id", "=", id).execute();
}

/**
 * Lays the queue back to back after the current slot (or from now when there is none), keeping
 * its order and each slot's length: after a replacement, an early end or a dropped slot, the next
 * artist starts exactly when the one before ends, never overlapping, never leaving a gap.
 */
export async function rechainQueue(trx: Executor, now: string): Promise<void> {
  const { current, upcoming } = splitLive(await selectLiveSlots(trx, now), now);
  let cursor = current ? current.ends_at : now;
  for (const slot of upcoming) {
    const endsAt = addDaysIso(cursor, Number(slot.duration_days));
    if (slot.starts_at !== cursor || slot.ends_at !== endsAt) {
      await trx.updateTable("featured_artists").set({ starts_at: cursor, ends_at: endsAt }).where("id", "=", slot.id).execute();
    }
    cursor = endsAt;
  }
}

/**
 * A vendor disabled or deleted takes its feature with it: its current slot ends now and its
 * queued ones are dropped, with the reason; the queue closes up. Call it inside the transaction
 * of the change. Returns the number of slots it ended.
 */
export async function endFeaturesOfVendor(trx: Executor, vendorId: string, reason: Extract<FeaturedEndReason, "vendor_disabled" | "vendor_deleted">, clock: Clock): Promise<number> {
  const now = clock.now().toISOString();
  const slots = await trx.selectFrom("featured_artists").select("id").where("vendor_id", "=", vendorId).where("ends_at", ">", now).where("ended_at", "is", null).execute();
  if (slots.length === 0) return 0;
  const before = await readFeaturedState(trx, now);
  for (const slot of slots) await endSlot(trx, slot.id, now, reason);
  await rechainQueue(trx, now);
  await recordFeaturedChange(trx, before, now);
  return slots.length;
}

/** Who is featured now and who is next, as `featured_artist.changed` tells the storefront. */
export async function readFeaturedState(db: Executor, now: string): Promise<FeaturedArtistChanged> {
  const { current, upcoming } = splitLive(await selectLiveSlots(db, now), now);
  const next = upcoming[0] ?? null;
  const artistIds = await artistIdsOf(
    db,
    [current, next].flatMap((s) => (s ? [s.vendor_id] : [])),
  );
  const ref = (s: FeaturedRow | null) => (s ? { vendorId: s.vendor_id, artistId: artistIds.get(s.vendor_id) ?? null, startsAt: s.starts_at, endsAt: s.ends_at } : null);
  return { current: ref(current), next: ref(next) };
}

/**
 * Records `featured_artist.changed` in the caller's transaction when the current or the next
 * featured artist differs from `before` (read earlier in the same transaction); a change further
 * down the queue tells the storefront nothing it shows.
 */
export async function recordFeaturedChange(trx: Executor, before: FeaturedArtistChanged, now: string): Promise<void> {
  const after = await readFeaturedState(trx, now);
  if (JSON.stringify(after) !== JSON.stringify(before)) await recordEventOut(trx, "featured_artist.changed", after, now);
}
