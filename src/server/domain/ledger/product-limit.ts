import { COUNTERS, incrementCounter } from "./counters.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { SETTINGS_CATALOG } from "../settings/settings-catalog.ts";

/**
 * The product limit (docs/product.md §16): vendors whose listed products exceed the
 * max_products_per_vendor setting are counted in the vendors_over_product_limit counter, kept by
 * every change of a vendor's listed_products and recounted when the setting changes.
 */

const DEFAULT_PRODUCT_LIMIT = Number(SETTINGS_CATALOG.max_products_per_vendor.defaultValue);

/** The number of listed products a vendor may have (the max_products_per_vendor setting; its default when unreadable). */
export async function readProductLimit(db: Executor): Promise<number> {
  const row = await db.selectFrom("platform_settings").select("value").where("key", "=", "max_products_per_vendor").executeTakeFirst();
  const n = Number(row?.value ?? DEFAULT_PRODUCT_LIMIT);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_PRODUCT_LIMIT;
}

/**
 * Adds `delta` to a vendor's listed_products and keeps vendors_over_product_limit right: the upsert
 * returns the new count, so crossing the limit either way is known without another read.
 */
export async function addListedProducts(db: Executor, vendorId: string, delta: number): Promise<void> {
  if (delta === 0) return;
  const row = await db
    .insertInto("vendor_totals")
    .values({ vendor_id: vendorId, listed_products: delta, gross_cents: 0, orders: 0, fees_cents: 0, items_sold: 0, visits: 0, last_sale_at: null })
    .onConflict((oc) => oc.column("vendor_id").doUpdateSet((eb) => ({ listed_products: eb("vendor_totals.listed_products", "+", eb.ref("excluded.listed_products")) })))
    .returning("listed_products")
    .executeTakeFirstOrThrow();
  const after = Number(row.listed_products);
  const limit = await readProductLimit(db);
  const wasOver = after - delta > limit;
  const isOver = after > limit;
  if (wasOver !== isOver) await incrementCounter(db, COUNTERS.vendorsOverProductLimit, isOver ? 1 : -1);
}

/** Recounts vendors over the product limit (after the setting changed): one range of vendor_totals_listed_idx. */
export async function recountVendorsOverProductLimit(db: Executor): Promise<number> {
  const limit = await readProductLimit(db);
  const row = await db
    .selectFrom("vendor_totals")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("listed_products", ">", limit)
    .executeTakeFirstOrThrow();
  const n = Number(row.n);
  await db
    .insertInto("counters")
    .values({ name: COUNTERS.vendorsOverProductLimit, value: n })
    .onConflict((oc) => oc.column("name").doUpdateSet({ value: n }))
    .execute();
  return n;
}
