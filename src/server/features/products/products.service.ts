import {
  type BulkProductStatusRequest,
  type BulkProductStatusResponse,
  MIN_PRODUCT_SEARCH_LENGTH,
  type ProductDetail,
  type ProductListItem,
  type ProductsQuery,
  type ProductsResponse,
  type ProductsSummary,
} from "../../../contract/products.ts";
import { changedValues, recordAudit } from "../../domain/audit/audit-log.ts";
import { COUNTERS, readCounters } from "../../domain/ledger/counters.ts";
import { readProductLimit } from "../../domain/ledger/product-limit.ts";
import { type ModerationResult, moderateProducts } from "../../domain/ledger/products.ts";
import { artistIdsOf, recordEventOut } from "../../domain/outbox/events-out.ts";
import { type ListingDecision, mailListingDecision } from "../../domain/artist-notices/artist-notices.ts";
import type { JobQueue } from "../../platform/jobs/job-queue.ts";
import type { Clock } from "../../platform/clock.ts";
import type { Executor } from "../../platform/db/executor.ts";
import type { Actor } from "../../platform/identity/actor.ts";
import { invalidField, notFound } from "../../platform/http/http-error.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { SearchIndexMemo } from "./search-counts.ts";
import { decodeProductCursor } from "./products-cursor.ts";
import {
  findProductWithVendor,
  findVendorContacts,
  listProductRows,
  sortSpec,
  readModerationHistory,
  readProductsAddedSince,
  readVendorOfProduct,
  readVendorsOverLimit,
  toApiStatus,
  toListItem,
} from "./products.queries.ts";

const DAY_MS = 86_400_000;
/** Vendors over the limit the summary names (the count is the counter's). */
const OVER_LIMIT_SHOWN = 20;
const HISTORY_SHOWN = 50;

const productNotFound = () => notFound("Product not found");

/**
 * The products catalogue (docs/product.md §16): the list, the detail, the summary, and moderation
 * (hide with a reason, restore) through the ledger with its audit row in the same transaction.
 */
export class ProductsService {
  /** A search's counts across vendors, kept per catalogue version (search-counts.ts). */
  private readonly searchIndex = new SearchIndexMemo();

  constructor(private readonly deps: Pick<AppDeps, "database" | "clock" | "jobs">) {}

  private get db() {
    return this.deps.database.db;
  }

  async list(query: ProductsQuery): Promise<ProductsResponse> {
    const { cursor, ...rest } = query;
    const search = query.search?.trim() ?? "";
    // The contract refuses shorter texts; this guards any other caller (no index could serve them).
    if (search !== "" && [...search].length < MIN_PRODUCT_SEARCH_LENGTH) throw invalidField("search", `must be at least ${MIN_PRODUCT_SEARCH_LENGTH} characters`);
    const after = cursor === undefined ? undefined : decodeProductCursor(cursor, sortSpec(query.sort));
    const { products, next, total } = await listProductRows(this.db, { ...rest, after }, true, this.searchIndex.at(this.db));
    return { products, total: total!.total, totalCapped: total!.totalCapped, nextCursor: next };
  }

  async summary(): Promise<ProductsSummary> {
    const today = new Date(this.deps.clock.now().getTime());
    const fromDay = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - 6 * DAY_MS).toISOString().slice(0, 10);
    const [c, addedThisWeek, limit] = await Promise.all([readCounters(this.db), readProductsAddedSince(this.db, fromDay), readProductLimit(this.db)]);
    const total = c[COUNTERS.productsTotal];
    const active = c[COUNTERS.productsListed];
    const hidden = c[COUNTERS.productsHidden];
    const pendingReview = c[COUNTERS.productsPendingReview];
    const rejected = c[COUNTERS.productsRejected];
    const vendors = c[COUNTERS.vendorsOverProductLimit];
    return {
      counts: { total, active, hidden, pendingReview, rejected, draft: total - active - hidden - pendingReview - rejected },
      addedThisWeek,
      overLimit: { limit, vendors, top: vendors > 0 ? await readVendorsOverLimit(this.db, limit, OVER_LIMIT_SHOWN) : [] },
    };
  }

  async detail(id: string): Promise<ProductDetail> {
    const p = await findProductWithVendor(this.db, id);
    if (!p) throw productNotFound();
    const [vendor, history, limit] = await Promise.all([readVendorOfProduct(this.db, p.vendor_id), readModerationHistory(this.db, id, HISTORY_SHOWN), readProductLimit(this.db)]);
    const item = toListItem(p);
    return {
      product: { ...item, moderationReason: p.moderation_reason, moderatedAt: p.moderated_at, moderatedBy: p.moderated_by },
      vendor: { id: vendor.id, name: vendor.name, slug: vendor.slug, isActive: vendor.is_active === 1, listedProducts: vendor.listed_products, productLimit: limit },
      sales: { sold: item.sold, revenue: item.revenue, averageUnitPrice: item.sold > 0 ? Math.round((item.revenue / item.sold) * 100) / 100 : null },
      history,
    };
  }

  /**
   * Hides (reason required, shown to the artist) or restores one product; one audit row with before
   * and after when it changed, none when it already had the status asked for.
   */
  async setStatus(actor: Actor, id: string, status: "hidden" | "active", reason: string | undefined): Promise<ProductListItem> {
    const { clock } = this.deps;
    return this.db.transaction().execute(async (trx) => {
      const result = await moderateProducts(trx, [id], { status: status === "hidden" ? "hidden" : "listed", reason: reason ?? null, actor: { id: actor.user.id, email: actor.user.email } }, clock);
      await this.recordStatusEvents(trx, result, status, reason);
      const before = result.before[0]!;
      const after = await findProductWithVendor(trx, id);
      if (!after) throw productNotFound();
      const change = changedValues({ status: toApiStatus(before.status), reason: before.moderation_reason }, { status: toApiStatus(after.status), reason: after.moderation_reason });
      if (result.changed.length === 1 && change) {
        await recordAudit(
          trx,
          {
            actor,
            action: status === "hidden" ? "product.hide" : "product.restore",
            target: { type: "product", id, label: before.name },
            ...change,
            details: { vendorId: before.vendor_id, ...(reason ? { reason } : {}) },
          },
          clock,
        );
      }
      return toListItem(after);
    });
  }

  /**
   * Hides or restores up to 500 products, all or nothing. One audit row names the products whose
   * status changed (each had the other status before); products already in the status asked for are
   * only counted, and a request that changed none writes no row.
   */
  async bulkSetStatus(actor: Actor, body: BulkProductStatusRequest): Promise<BulkProductStatusResponse> {
    const { clock } = this.deps;
    const status = body.status === "hidden" ? "hidden" : "listed";
    return this.db.transaction().execute(async (trx) => {
      const result = await moderateProducts(trx, body.ids, { status, reason: body.reason ?? null, actor: { id: actor.user.id, email: actor.user.email } }, clock);
      await this.recordStatusEvents(trx, result, body.status, body.reason);
      const unchanged = result.before.length - result.changed.length;
      const changed = new Set(result.changed);
      const moved = result.before.filter((p) => changed.has(p.id));
      if (moved.length > 0) {
        await recordAudit(
          trx,
          {
            actor,
            action: body.status === "hidden" ? "product.bulk_hide" : "product.bulk_restore",
            target: {
              type: "products",
              id: `${moved.length} products`,
              label: moved
                .slice(0, 3)
                .map((p) => p.name)
                .join(", "),
            },
            // moderateProducts changes only listed products when hiding and hidden ones when restoring.
            before: { status: body.status === "hidden" ? "active" : "hidden" },
            after: { status: body.status },
            details: { productIds: moved.map((p) => p.id), unchanged, ...(body.reason ? { reason: body.reason } : {}) },
          },
          clock,
        );
      }
      return { changed: result.changed.length, unchanged };
    });
  }

  /**
   * One `product.status_changed` per product whose status moved, with the reason (a hide's, or a
   * restore's note), and one e-mail to each artist naming their products, in the moderation's
   * transaction.
   */
  private async recordStatusEvents(trx: Executor, result: ModerationResult, status: "hidden" | "active", reason: string | undefined): Promise<void> {
    const changed = new Set(result.changed);
    const moved = result.before.filter((p) => changed.has(p.id));
    if (moved.length === 0) return;
    const note = reason?.trim() || null;
    await mailArtistsOf(trx, { jobs: this.deps.jobs, clock: this.deps.clock }, moved, status === "hidden" ? "hidden" : "restored", note);
    const artistIds = await artistIdsOf(
      trx,
      moved.map((p) => p.vendor_id),
    );
    const at = this.deps.clock.now().toISOString();
    for (const p of moved) {
      await recordEventOut(
        trx,
        "product.status_changed",
        {
          productId: p.id,
          externalProductId: p.external_id,
          vendorId: p.vendor_id,
          artistId: artistIds.get(p.vendor_id) ?? null,
          status: status === "hidden" ? "hidden" : "restored",
          reason: note,
        },
        at,
      );
    }
  }
}

/** One e-mail to each artist whose products a decision moved, naming those products. */
async function mailArtistsOf(
  trx: Executor,
  deps: { jobs: JobQueue; clock: Clock },
  products: ReadonlyArray<{ id: string; name: string; vendor_id: string }>,
  decision: ListingDecision,
  reason: string | null,
): Promise<void> {
  const byVendor = new Map<string, Array<{ id: string; name: string }>>();
  for (const p of products) byVendor.set(p.vendor_id, [...(byVendor.get(p.vendor_id) ?? []), { id: p.id, name: p.name }]);
  const vendors = await findVendorContacts(trx, [...byVendor.keys()]);
  for (const vendor of vendors) await mailListingDecision({ trx, ...deps }, vendor, byVendor.get(vendor.id)!, decision, reason);
}
