import type { Clock } from "../../platform/clock.ts";
import { newId } from "../../platform/db/ids.ts";
import type { Product } from "../../platform/db/schema.ts";
import { COUNTERS, type CounterName, incrementCounters } from "./counters.ts";
import { addListedProducts } from "./product-limit.ts";
import { dayOf, type Executor, inTransaction, isoTimeOrNow, LedgerError, requireNonNegativeInteger } from "../../platform/db/executor.ts";
import { addToDailyPlatformTotals } from "./rollups.ts";
import { requireVendor } from "./vendors.ts";

export type ProductStatus = Product["status"];

export interface CreateProductInput {
  id?: string;
  vendorId: string;
  name: string;
  priceCents: number;
  inventory?: number;
  /** 'listed' (visible, counted as the dashboard's products), 'draft' or 'hidden'. Default listed. */
  status?: ProductStatus;
  /** Defaults to the clock's now. */
  createdAt?: Date | string;
}

/** Counter deltas of one product entering (+1) or leaving (-1) a status. */
function statusCounters(status: ProductStatus, sign: 1 | -1): Partial<Record<CounterName, number>> {
  return {
    [COUNTERS.productsListed]: status === "listed" ? sign : 0,
    [COUNTERS.productsHidden]: status === "hidden" ? sign : 0,
  };
}

/** Creates a product: counts it, adds it to its day's new_products and, when listed, to the vendor's listed_products. */
export async function createProduct(db: Executor, input: CreateProductInput, clock: Clock): Promise<Product> {
  requireNonNegativeInteger(input.priceCents, "priceCents");
  const product: Product = {
    id: input.id ?? newId(),
    vendor_id: input.vendorId,
    name: input.name,
    price_cents: input.priceCents,
    inventory: input.inventory ?? 0,
    status: input.status ?? "listed",
    units_sold: 0,
    revenue_cents: 0,
    created_at: isoTimeOrNow(input.createdAt, clock),
    moderation_reason: null,
    moderated_at: null,
    moderated_by: null,
  };
  return inTransaction(db, async (trx) => {
    await requireVendor(trx, product.vendor_id);
    await trx.insertInto("products").values(product).execute();
    await incrementCounters(trx, { [COUNTERS.productsTotal]: 1, ...statusCounters(product.status, 1) });
    await addToDailyPlatformTotals(trx, dayOf(product.created_at), { newProducts: 1 });
    await addListedProducts(trx, product.vendor_id, product.status === "listed" ? 1 : 0);
    return product;
  });
}

/** Moves one product between statuses with every count that depends on it (no history: see moderateProducts). */
async function applyStatus(trx: Executor, current: Product, status: ProductStatus, moderation: { reason: string | null; at: string; by: string } | null): Promise<void> {
  // Conditional on the status read (as payouts are): of two changes racing on PostgreSQL, the later
  // one finds the row changed and fails whole instead of counting the product twice.
  const updated = await trx
    .updateTable("products")
    .set(moderation ? { status, moderation_reason: moderation.reason, moderated_at: moderation.at, moderated_by: moderation.by } : { status })
    .where("id", "=", current.id)
    .where("status", "=", current.status)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw new LedgerError("invalid_state", `${current.name} (${current.id}) changed meanwhile: try again`);
  const deltas: Partial<Record<CounterName, number>> = {};
  for (const [k, v] of [...Object.entries(statusCounters(current.status, -1)), ...Object.entries(statusCounters(status, 1))] as [CounterName, number][]) {
    deltas[k] = (deltas[k] ?? 0) + v;
  }
  await incrementCounters(trx, deltas);
  await addListedProducts(trx, current.vendor_id, (status === "listed" ? 1 : 0) - (current.status === "listed" ? 1 : 0));
}

/** Lists or unlists a product (the artist's own action); returns the updated row, or null when no such product exists. */
export async function setProductStatus(db: Executor, productId: string, status: ProductStatus): Promise<Product | null> {
  return inTransaction(db, async (trx) => {
    const current = await trx.selectFrom("products").selectAll().where("id", "=", productId).executeTakeFirst();
    if (!current) return null;
    if (current.status === status) return current;
    await applyStatus(trx, current, status, null);
    return { ...current, status };
  });
}

export interface ModerationInput {
  /** 'hidden' takes listed products down; 'listed' restores hidden ones. */
  status: "hidden" | "listed";
  /** Required to hide (the artist is shown it); optional to restore. */
  reason: string | null;
  actor: { id: string | null; email: string };
}

export interface ModerationResult {
  /** Each product as it was before, in the order of the ids given. */
  before: Product[];
  /** Ids whose status changed (the others already had the status asked for). */
  changed: string[];
}

/** Largest number of products one moderation call may change (the API's bulk limit). */
export const MAX_MODERATED_PRODUCTS = 500;

/**
 * Hides or restores products, all or nothing: every id must exist (not_found names the missing
 * ones), hiding needs a reason and applies to listed products, restoring to hidden ones
 * (invalid_state names any draft, which neither applies to). Products already in the status
 * asked for are left as they are. Each change writes a product_moderations row and moves
 * products_listed / products_hidden, the vendor's listed_products and vendors_over_product_limit
 * in the same transaction.
 */
export async function moderateProducts(db: Executor, ids: readonly string[], input: ModerationInput, clock: Clock): Promise<ModerationResult> {
  const unique = [...new Set(ids)];
  if (unique.length === 0 || unique.length > MAX_MODERATED_PRODUCTS) {
    throw new LedgerError("invalid_input", `between 1 and ${MAX_MODERATED_PRODUCTS} products at a time`);
  }
  const reason = input.reason?.trim() ? input.reason.trim() : null;
  if (input.status === "hidden" && reason === null) throw new LedgerError("invalid_input", "a reason is required to hide a product");
  return inTransaction(db, async (trx) => {
    const rows = await trx.selectFrom("products").selectAll().where("id", "in", unique).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    const missing = unique.filter((id) => !byId.has(id));
    if (missing.length > 0) throw new LedgerError("not_found", `No such product: ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ` and ${missing.length - 5} more` : ""}`);
    const from: ProductStatus = input.status === "hidden" ? "listed" : "hidden";
    const wrong = rows.filter((r) => r.status !== from && r.status !== input.status);
    if (wrong.length > 0) {
      const what = input.status === "hidden" ? "only listed products can be hidden" : "only hidden products can be restored";
      throw new LedgerError(
        "invalid_state",
        `${what}: ${wrong
          .slice(0, 5)
          .map((r) => `${r.name} (${r.id}) is a ${r.status === "draft" ? "draft" : r.status}`)
          .join(", ")}`,
      );
    }
    const at = clock.now().toISOString();
    const changed: string[] = [];
    for (const id of unique) {
      const current = byId.get(id)!;
      if (current.status === input.status) continue;
      await applyStatus(trx, current, input.status, { reason: input.status === "hidden" ? reason : null, at, by: input.actor.email });
      await trx
        .insertInto("product_moderations")
        .values({
          id: newId(),
          product_id: id,
          action: input.status === "hidden" ? "hide" : "restore",
          from_status: current.status,
          to_status: input.status,
          reason,
          actor_id: input.actor.id,
          actor_email: input.actor.email,
          created_at: at,
        })
        .execute();
      changed.push(id);
    }
    return { before: unique.map((id) => byId.get(id)!), changed };
  });
}
