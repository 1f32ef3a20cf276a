import type { Transaction } from "kysely";
import type { Clock } from "../platform/clock.ts";
import { fixedClock } from "../platform/clock.ts";
import type { DB, Vendor } from "../platform/db/schema.ts";
import { readProductLimit } from "../domain/ledger/product-limit.ts";
import { createProduct, moderateProducts } from "../domain/ledger/products.ts";
import { productName, productPriceCents } from "./names.ts";
import { DAY_MS, Random } from "./random.ts";

/** Reasons an operator gave for taking a product down (the artist is shown them). */
export const DEMO_HIDE_REASONS = [
  "Uses a trademarked logo without the owner's permission",
  "Photos show a different item than the description",
  "Prohibited material: listed as containing ivory",
  "Duplicate of another listing in the same store",
] as const;

/**
 * The catalogue's states for a new user to see (docs/product.md §16): besides the seed's listed
 * products and drafts, one prolific artist listed a few products more than max_products_per_vendor
 * allows, and a few products were hidden by an operator with a reason. Its own PRNG, so the rest
 * of the demo is the same rows as before.
 */
export async function seedDemoCatalogue(
  trx: Transaction<DB>,
  options: { vendors: readonly Vendor[]; clock: Clock; today: number; seed: number; adminEmail: string },
): Promise<{ products: number; hidden: number }> {
  const rand = new Random(options.seed ^ 0x21c0ffee);
  const prolific = options.vendors.find((v) => v.is_active === 1 && v.is_internal === 0);
  let added = 0;
  if (prolific) {
    const listed = await trx.selectFrom("vendor_totals").select("listed_products").where("vendor_id", "=", prolific.id).executeTakeFirstOrThrow();
    const extra = (await readProductLimit(trx)) + 3 - Number(listed.listed_products);
    const joined = Date.parse(prolific.joined_at);
    for (let k = 0; k < extra; k++) {
      // Spread from its joining to today, a few of them this week.
      const createdMs = k < 4 ? options.today - k * DAY_MS - rand.int(1, 20) * 3_600_000 : joined + Math.floor(rand.next() * Math.max(0, options.today - joined));
      await createProduct(
        trx,
        { id: rand.id(createdMs), vendorId: prolific.id, name: productName(rand), priceCents: productPriceCents(rand), inventory: rand.int(0, 40), createdAt: new Date(createdMs).toISOString() },
        options.clock,
      );
      added++;
    }
  }
  // A listed product of each of four other stores, taken down over the last weeks.
  const others = options.vendors.filter((v) => v.id !== prolific?.id && v.is_internal === 0).slice(0, DEMO_HIDE_REASONS.length);
  let hidden = 0;
  for (const [k, v] of others.entries()) {
    const product = await trx.selectFrom("products").select("id").where("vendor_id", "=", v.id).where("status", "=", "listed").orderBy("id").limit(1).executeTakeFirst();
    if (!product) continue;
    const when = fixedClock(new Date(options.today - (k * 5 + 2) * DAY_MS + 10 * 3_600_000).toISOString());
    await moderateProducts(trx, [product.id], { status: "hidden", reason: DEMO_HIDE_REASONS[k]!, actor: { id: null, email: options.adminEmail } }, when);
    hidden++;
  }
  return { products: added, hidden };
}
