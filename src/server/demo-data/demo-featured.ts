import { FEATURED_MAX_DAYS } from "../../contract/featured-artist.ts";
import type { Executor } from "../platform/db/executor.ts";
import type { Vendor } from "../platform/db/schema.ts";

const DAY_MS = 86_400_000;

/**
 * The demo's featured artist (docs/product.md §18.1): one featured now (started two days ago, for
 * a week), one queued after it, and two past slots (one that ran its course, one replaced early).
 * Active, non-internal vendors only, as the rules demand.
 */
export async function seedDemoFeatured(trx: Executor, options: { vendors: Vendor[]; now: Date; adminEmail: string }): Promise<number> {
  const eligible = options.vendors.filter((v) => v.is_active === 1 && v.is_internal === 0);
  if (eligible.length < 4) return 0;
  const [current, next, past, replaced] = eligible.slice(-4) as [Vendor, Vendor, Vendor, Vendor];
  const t = options.now.getTime();
  const iso = (ms: number) => new Date(ms).toISOString();
  const slot = (id: string, v: Vendor, startMs: number, days: number, ended?: { atMs: number; reason: "replaced" }) => ({
    id,
    vendor_id: v.id,
    vendor_name: v.name,
    duration_days: Math.min(days, FEATURED_MAX_DAYS),
    starts_at: iso(startMs),
    ends_at: iso(startMs + days * DAY_MS),
    ended_at: ended ? iso(ended.atMs) : null,
    end_reason: ended?.reason ?? null,
    set_by: options.adminEmail,
    created_at: iso(startMs),
  });
  const currentStart = t - 2 * DAY_MS;
  const rows = [
    slot("0190d000-0000-7000-8000-00000000fa01", past, t - 30 * DAY_MS, 14),
    slot("0190d000-0000-7000-8000-00000000fa02", replaced, t - 16 * DAY_MS, 30, { atMs: currentStart, reason: "replaced" }),
    slot("0190d000-0000-7000-8000-00000000fa03", current, currentStart, 7),
    slot("0190d000-0000-7000-8000-00000000fa04", next, currentStart + 7 * DAY_MS, 5),
  ];
  await trx.insertInto("featured_artists").values(rows).execute();
  return rows.length;
}
