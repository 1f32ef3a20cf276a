import { reviewProducts, setVendorTrusted } from "../domain/ledger/product-review.ts";
import { createProduct } from "../domain/ledger/products.ts";
import { fixedClock } from "../platform/clock.ts";
import type { Executor } from "../platform/db/executor.ts";
import type { Vendor } from "../platform/db/schema.ts";

const DAY_MS = 86_400_000;

/** Listings waiting in the Review queue: which active artist (by position), what, and how long ago it arrived. */
const WAITING = [
  { artist: 1, name: "Heron at Dusk (linocut, edition of 20)", cents: 8500, daysAgo: 6 },
  { artist: 1, name: "Reed Bed Study", cents: 4200, daysAgo: 3.5 },
  { artist: 2, name: "Blue Bowl, Wood-fired", cents: 12000, daysAgo: 2 },
  { artist: 3, name: "Harbour Lights Print", cents: 3900, daysAgo: 1 },
  { artist: 3, name: "Night Ferry (giclée)", cents: 5600, daysAgo: 0.2 },
] as const;

/** An artist with a takedown history: listings rejected in review, two of them for infringement. */
const TAKEN_DOWN = [
  { name: "Starry Night Remix Poster", reason: "Infringement: the work is not the artist's own", infringement: true, daysAgo: 40 },
  { name: "Cartoon Mouse Tote Print", reason: "Infringement: the work is not the artist's own", infringement: true, daysAgo: 18 },
  { name: "Untitled Upload", reason: "Images are missing or of too low quality", infringement: false, daysAgo: 10 },
] as const;

/**
 * The demo's listing review (docs/product.md §20.4): five listings waiting from hours to six days,
 * a trusted artist (its history row with the reason), and an artist with two infringement takedowns
 * and a third rejected listing, each with its moderation row. The setting 'Review new listings'
 * stays off, so the storefront's own listings go live as before.
 */
export async function seedDemoListingReview(trx: Executor, options: { vendors: Vendor[]; now: Date; adminEmail: string }): Promise<{ products: number }> {
  // From the start of today (UTC): the same seed gives the same days whatever the hour it runs.
  const t = Date.UTC(options.now.getUTCFullYear(), options.now.getUTCMonth(), options.now.getUTCDate());
  const at = (daysAgo: number) => new Date(t - Math.round(daysAgo * DAY_MS)).toISOString();
  const actor = { id: null, email: options.adminEmail };
  const artists = options.vendors.filter((v) => v.is_active === 1 && v.is_internal === 0);
  let products = 0;

  for (const w of WAITING) {
    const vendor = artists[w.artist]!;
    await createProduct(
      trx,
      { vendorId: vendor.id, name: w.name, priceCents: w.cents, inventory: 3, status: "pending_review", storefrontStatus: "active", createdAt: at(w.daysAgo) },
      fixedClock(at(w.daysAgo)),
    );
    products++;
  }

  const trusted = artists[0]!;
  await setVendorTrusted(trx, trusted.id, true, { reason: "Established artist: listings reviewed for a year without a problem", actor }, fixedClock(at(30)));

  const infringer = artists[4]!;
  for (const d of TAKEN_DOWN) {
    const product = await createProduct(
      trx,
      { vendorId: infringer.id, name: d.name, priceCents: 2500, inventory: 10, status: "pending_review", storefrontStatus: "active", createdAt: at(d.daysAgo) },
      fixedClock(at(d.daysAgo)),
    );
    await reviewProducts(trx, [product.id], { decision: "reject", reason: d.reason, infringement: d.infringement, actor }, fixedClock(at(d.daysAgo - 0.5)));
    products++;
  }
  return { products };
}
