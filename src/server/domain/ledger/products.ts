import type { Clock } from "../../platform/clock.ts";
import { newId } from "../../platform/db/ids.ts";
import type { Product } from "../../platform/db/schema.ts";
import { COUNTERS, incrementCounters } from "./counters.ts";
import { dayOf, type Executor, inTransaction, isoTime, LedgerError } from "../../platform/db/executor.ts";
import { addToDailyPlatformTotals, addToVendorTotals } from "./rollups.ts";
import { requireVendor } from "./vendors.ts";

export type ProductStatus = Product["status"];

export interface CreateProductInput {
  id?: string;
  vendorId: string;
  name: string;
  priceCents: number;
  inventory?: number;
  /** 'listed' (visible, counted as the dashboard's products) or 'draft'. Default listed. */
  status?: ProductStatus;
  /** Defaults to the clock's now. */
  createdAt?: Date | string;
}

/** Creates a product: counts it, adds it to its day's new_products and, when listed, to the vendor's listed_products. */
export async function createProduct(db: Executor, input: CreateProductInput, clock: Clock): Promise<Product> {
  if (!Number.isInteger(input.priceCents) || input.priceCents < 0) {
    throw new LedgerError("invalid_input", "priceCents must be a non-negative integer");
  }
  const product: Product = {
    id: input.id ?? newId(),
    vendor_id: input.vendorId,
    name: input.name,
    price_cents: input.priceCents,
    inventory: input.inventory ?? 0,
    status: input.status ?? "listed",
    units_sold: 0,
    revenue_cents: 0,
    created_at: input.createdAt === undefined ? clock.now().toISOString() : isoTime(input.createdAt),
  };
  const listed = product.status === "listed" ? 1 : 0;
  return inTransaction(db, async (trx) => {
    await requireVendor(trx, product.vendor_id);
    await trx.insertInto("products").values(product).execute();
    await incrementCounters(trx, { [COUNTERS.productsTotal]: 1, [COUNTERS.productsListed]: listed });
    await addToDailyPlatformTotals(trx, dayOf(product.created_at), { newProducts: 1 });
    await addToVendorTotals(trx, product.vendor_id, { listedProducts: listed });
    return product;
  });
}

/** Lists or unlists a product; returns the updated row, or null when no such product exists. */
export async function setProductStatus(db: Executor, productId: string, status: ProductStatus): Promise<Product | null> {
  return inTransaction(db, async (trx) => {
    const current = await trx.selectFrom("products").selectAll().where("id", "=", productId).executeTakeFirst();
    if (!current) return null;
    if (current.status === status) return current;
    await trx.updateTable("products").set({ status }).where("id", "=", productId).execute();
    const delta = status === "listed" ? 1 : -1;
    await incrementCounters(trx, { [COUNTERS.productsListed]: delta });
    await addToVendorTotals(trx, current.vendor_id, { listedProducts: delta });
    return { ...current, status };
  });
}
