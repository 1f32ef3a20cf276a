import type { Clock } from "../../platform/clock.ts";
import { newId } from "../../platform/db/ids.ts";
import type { Product } from "../../platform/db/schema.ts";
import { COUNTERS, type CounterName, incrementCounters } from "./counters.ts";
import { addListedProducts } from "./product-limit.ts";
import { type Executor, inTransaction } from "../../platform/db/executor.ts";
import { dayOf, isoTimeOrNow, LedgerError, requireNonNegativeInteger } from "./ledger-error.ts";
import { addToDailyPlatformTotals } from "./rollups.ts";
import { deleteOneProductSales } from "./period-totals.ts";
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
  /** The storefront's id of the product and the status its artist gave it (migration 023). */
  externalId?: string | null;
  storefrontStatus?: StorefrontProductStatus | null;
}

/** The status an artist gives a product on the storefront; the panel's status follows it unless an operator hid the product. */
export type StorefrontProductStatus = "draft" | "active" | "archived";

/** The panel status a storefront status means: only an active product is listed. */
export function panelStatusOf(status: StorefrontProductStatus): "listed" | "draft" {
  return status === "active" ? "listed" : "draft";
}

/** Counter deltas of one product entering (+1) or leaving (-1) a status. */
export function statusCounters(status: ProductStatus, sign: 1 | -1): Partial<Record<CounterName, number>> {
  return {
    [COUNTERS.productsListed]: status === "listed" ? sign : 0,
    [COUNTERS.productsHidden]: status === "hidden" ? sign : 0,
    [COUNTERS.productsPendingReview]: status === "pending_review" ? sign : 0,
    [COUNTERS.productsRejected]: status === "rejected" ? sign : 0,
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
    external_id: input.externalId ?? null,
    storefront_status: input.storefrontStatus ?? null,
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

/** Moves one product between statuses with every count that depends on it (no history: see moderateProducts and reviewProducts). */
export async function applyStatus(trx: Executor, current: Product, status: ProductStatus, moderation: { reason: string | null; at: string; by: string } | null): Promise<void> {
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
      // A restored product goes back to what its artist has it as on the storefront (a draft stays a draft).
      const to: ProductStatus = input.status === "listed" && current.storefront_status ? panelStatusOf(current.storefront_status) : input.status;
      await applyStatus(trx, current, to, { reason: input.status === "hidden" ? reason : null, at, by: input.actor.email });
      await trx
        .insertInto("product_moderations")
        .values({
          id: newId(),
          product_id: id,
          action: input.status === "hidden" ? "hide" : "restore",
          from_status: current.status,
          to_status: to,
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

export interface ProductDetailsChanges {
  name?: string;
  priceCents?: number;
  inventory?: number;
  /** The artist's status on the storefront: moves the panel's status too, unless an operator hid the product. */
  storefrontStatus?: StorefrontProductStatus;
}

/**
 * Changes what the artist edits of a product (name, price, inventory, its storefront status) with
 * every count its status moves. A product an operator hid stays hidden, one waiting for review waits
 * and a rejected one stays rejected: only its storefront status is kept, and restoring or approving
 * it later goes back to that (moderateProducts, reviewProducts). Null for an unknown id.
 */
export async function updateProductDetails(db: Executor, productId: string, changes: ProductDetailsChanges): Promise<Product | null> {
  if (changes.priceCents !== undefined) requireNonNegativeInteger(changes.priceCents, "priceCents");
  if (changes.inventory !== undefined) requireNonNegativeInteger(changes.inventory, "inventory");
  return inTransaction(db, async (trx) => {
    const current = await trx.selectFrom("products").selectAll().where("id", "=", productId).executeTakeFirst();
    if (!current) return null;
    const next: Product = {
      ...current,
      name: changes.name ?? current.name,
      price_cents: changes.priceCents ?? Number(current.price_cents),
      inventory: changes.inventory ?? current.inventory,
      storefront_status: changes.storefrontStatus ?? current.storefront_status,
    };
    if (next.name !== current.name || next.price_cents !== Number(current.price_cents) || next.inventory !== current.inventory || next.storefront_status !== current.storefront_status) {
      await trx
        .updateTable("products")
        .set({ name: next.name, price_cents: next.price_cents, inventory: next.inventory, storefront_status: next.storefront_status })
        .where("id", "=", productId)
        .execute();
    }
    // Only a product the panel has let go live follows its artist: hidden, waiting for review or rejected, it stays so.
    if (changes.storefrontStatus !== undefined && (current.status === "listed" || current.status === "draft")) {
      const status = panelStatusOf(changes.storefrontStatus);
      if (status !== current.status) {
        await applyStatus(trx, current, status, null);
        next.status = status;
      }
    }
    return next;
  });
}

/**
 * Deletes a product (its artist deleted it): takes it out of the counters, its created day's
 * new_products, its vendor's listed products and the top lists' days and windows. Its orders stay
 * with the vendor's sales, no longer naming it. Null for an unknown id.
 */
export async function deleteProduct(db: Executor, productId: string): Promise<Product | null> {
  return inTransaction(db, async (trx) => {
    const current = await trx.selectFrom("products").selectAll().where("id", "=", productId).executeTakeFirst();
    if (!current) return null;
    await deleteOneProductSales(trx, productId, current.vendor_id);
    await trx.updateTable("orders").set({ product_id: null }).where("product_id", "=", productId).execute();
    await trx.deleteFrom("product_moderations").where("product_id", "=", productId).execute();
    const deleted = await trx.deleteFrom("products").where("id", "=", productId).where("status", "=", current.status).executeTakeFirst();
    if (Number(deleted.numDeletedRows) !== 1) throw new LedgerError("invalid_state", `${current.name} (${current.id}) changed meanwhile: try again`);
    await incrementCounters(trx, { [COUNTERS.productsTotal]: -1, ...statusCounters(current.status, -1) });
    await addToDailyPlatformTotals(trx, dayOf(current.created_at), { newProducts: -1 });
    await addListedProducts(trx, current.vendor_id, current.status === "listed" ? -1 : 0);
    return current;
  });
}
