import {
  FEATURED_HISTORY_LIMIT,
  FEATURED_MAX_UPCOMING,
  type FeaturedArtistResponse,
  type FeaturedSlot,
  type PublicFeaturedArtist,
  type SetFeaturedArtistRequest,
} from "../../../contract/featured-artist.ts";
import { recordAudit } from "../../domain/audit/audit-log.ts";
import { addDaysIso, endSlot, type FeaturedRow, readFeaturedState, recordFeaturedChange, rechainQueue, selectLiveSlots, splitLive } from "../../domain/featured-artist/featured-slots.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { newId } from "../../platform/db/ids.ts";
import { conflict, HttpError, notFound } from "../../platform/http/http-error.ts";
import type { Actor } from "../../platform/identity/actor.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { insertSlot, selectHistory, selectPublicCurrent, selectVendorForFeature } from "./featured-artist.queries.ts";

const unprocessable = (message: string) => new HttpError(422, "unprocessable", message);

function toSlot(r: FeaturedRow): FeaturedSlot {
  return {
    id: r.id,
    vendorId: r.vendor_id,
    vendorName: r.vendor_name,
    durationDays: Number(r.duration_days),
    startsAt: r.starts_at,
    endsAt: r.ends_at,
    setBy: r.set_by,
    endedAt: r.ended_at,
    endReason: r.end_reason,
  };
}

export async function readFeatured(db: Executor, now: string): Promise<FeaturedArtistResponse> {
  const live = await selectLiveSlots(db, now);
  const history = await selectHistory(db, now, FEATURED_HISTORY_LIMIT);
  const { current, upcoming } = splitLive(live, now);
  return { current: current ? toSlot(current) : null, upcoming: upcoming.map(toSlot), history: history.map(toSlot) };
}

/** The featured artist (docs/product.md §18.1): who is featured now, the queue, and the history. */
export class FeaturedArtistService {
  constructor(private readonly deps: Pick<AppDeps, "database" | "clock">) {}

  private get db() {
    return this.deps.database.db;
  }

  get(): Promise<FeaturedArtistResponse> {
    return readFeatured(this.db, this.deps.clock.now().toISOString());
  }

  /**
   * Features an active, non-internal vendor for `duration` days: from now, ending the current
   * slot (reason "replaced"), or queued after the last live slot with startAfterCurrent.
   */
  async set(actor: Actor, input: SetFeaturedArtistRequest): Promise<FeaturedArtistResponse> {
    const { clock } = this.deps;
    return this.db.transaction().execute(async (trx) => {
      const now = clock.now().toISOString();
      const vendor = await selectVendorForFeature(trx, input.vendorId);
      if (!vendor) throw notFound("Vendor not found");
      if (vendor.is_internal === 1) throw unprocessable(`${vendor.name} is an internal store and cannot be featured`);
      if (vendor.is_active !== 1) throw unprocessable(`${vendor.name} is suspended; reactivate the artist before featuring it`);
      const featuredBefore = await readFeaturedState(trx, now);
      const { current, upcoming } = splitLive(await selectLiveSlots(trx, now), now);
      const queued = input.startAfterCurrent === true;
      if (queued && upcoming.length >= FEATURED_MAX_UPCOMING) {
        throw conflict(`The queue already holds ${FEATURED_MAX_UPCOMING} featured artists; wait for one to start or end the current one`);
      }
      const last = upcoming.at(-1) ?? current;
      const startsAt = queued && last ? last.ends_at : now;
      if (!queued && current) await endSlot(trx, current.id, now, "replaced");
      const row: FeaturedRow = {
        id: newId(),
        vendor_id: vendor.id,
        vendor_name: vendor.name,
        duration_days: input.duration,
        starts_at: startsAt,
        ends_at: addDaysIso(startsAt, input.duration),
        ended_at: null,
        end_reason: null,
        set_by: actor.user.email,
        created_at: now,
      };
      await insertSlot(trx, row);
      if (!queued) await rechainQueue(trx, now);
      await recordFeaturedChange(trx, featuredBefore, now);
      await recordAudit(
        trx,
        {
          actor,
          action: queued ? "featured_artist.queue" : "featured_artist.set",
          target: { type: "vendor", id: vendor.id, label: vendor.name },
          before: { current: current ? { vendorId: current.vendor_id, vendorName: current.vendor_name, endsAt: current.ends_at } : null },
          after: { vendorId: vendor.id, vendorName: vendor.name, startsAt: row.starts_at, endsAt: row.ends_at },
          details: { duration: input.duration, startAfterCurrent: queued, replaced: !queued && current ? current.vendor_name : null },
        },
        clock,
      );
      return readFeatured(trx, now);
    });
  }

  /** Ends the current slot now; the next queued one (if any) starts at once. 404 when none. */
  async endCurrent(actor: Actor): Promise<FeaturedArtistResponse> {
    const { clock } = this.deps;
    return this.db.transaction().execute(async (trx) => {
      const now = clock.now().toISOString();
      const { current } = splitLive(await selectLiveSlots(trx, now), now);
      if (!current) throw notFound("No artist is featured now");
      const featuredBefore = await readFeaturedState(trx, now);
      await endSlot(trx, current.id, now, "ended_early");
      await rechainQueue(trx, now);
      await recordFeaturedChange(trx, featuredBefore, now);
      await recordAudit(
        trx,
        {
          actor,
          action: "featured_artist.end",
          target: { type: "vendor", id: current.vendor_id, label: current.vendor_name },
          before: { vendorId: current.vendor_id, vendorName: current.vendor_name, endsAt: current.ends_at },
          after: { endedAt: now },
        },
        clock,
      );
      return readFeatured(trx, now);
    });
  }

  /** The storefront's read. */
  async publicCurrent(): Promise<PublicFeaturedArtist> {
    const row = await selectPublicCurrent(this.db, this.deps.clock.now().toISOString());
    return { featured: row ? { name: row.name, slug: row.slug, about: row.about, endsAt: row.ends_at } : null };
  }
}
