import type { BulkApproveReviewResponse, ProductListItem, ReviewDecision, ReviewQuery, ReviewResponse } from "../../../contract/products.ts";
import { recordAudit } from "../../domain/audit/audit-log.ts";
import { type ListingDecision, mailListingDecision } from "../../domain/artist-notices/artist-notices.ts";
import { COUNTERS, readCounters } from "../../domain/ledger/counters.ts";
import { type ReviewResult, reviewProducts } from "../../domain/ledger/product-review.ts";
import { artistIdsOf, recordEventOut } from "../../domain/outbox/events-out.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { notFound } from "../../platform/http/http-error.ts";
import { encodeKeyset, keysetPage, readKeyset } from "../../platform/http/keyset-cursor.ts";
import type { Actor } from "../../platform/identity/actor.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { listWaitingListings } from "./products-review.queries.ts";
import { findProductWithVendor, findVendorContacts, toApiStatus, toListItem } from "./products.queries.ts";

const MAIL_OF: Record<ReviewDecision, ListingDecision> = { approve: "approved", reject: "rejected" };

/**
 * Listing review (docs/product.md §20.4): the queue, oldest first, and the decisions. Each decision
 * writes, in one transaction, the listing's status and moderation row (the ledger), one audit row,
 * one `product.status_changed` per listing with the reason, and one e-mail to each artist.
 */
export class ProductsReviewService {
  constructor(private readonly deps: Pick<AppDeps, "database" | "clock" | "jobs">) {}

  private get db() {
    return this.deps.database.db;
  }

  async list(query: ReviewQuery): Promise<ReviewResponse> {
    const after = query.cursor === undefined ? undefined : readKeyset(query.cursor, ["string", "string"] as const);
    const [rows, counters] = await Promise.all([listWaitingListings(this.db, after ? { createdAt: after[0], id: after[1] } : undefined, query.limit + 1), readCounters(this.db)]);
    const { page, nextCursor } = keysetPage(rows, query.limit, (last) => encodeKeyset([last.createdAt, last.id]));
    return { products: page, total: counters[COUNTERS.productsPendingReview], nextCursor };
  }

  /** Approves or rejects one listing waiting for review (409 for any other; 404 for an unknown id). */
  async decide(actor: Actor, id: string, decision: ReviewDecision, reason: string | undefined, infringement: boolean): Promise<ProductListItem> {
    const { clock } = this.deps;
    const note = reason?.trim() || null;
    return this.db.transaction().execute(async (trx) => {
      const result = await reviewProducts(trx, [id], { decision, reason: note, infringement, actor: { id: actor.user.id, email: actor.user.email } }, clock);
      await this.tellStorefrontAndArtists(trx, result, decision, note);
      const before = result.before[0]!;
      await recordAudit(
        trx,
        {
          actor,
          action: decision === "approve" ? "product.review_approve" : "product.review_reject",
          target: { type: "product", id, label: before.name },
          before: { status: toApiStatus(before.status) },
          after: { status: toApiStatus(result.after.get(id)!) },
          details: { vendorId: before.vendor_id, ...(note ? { reason: note } : {}), ...(decision === "reject" && infringement ? { infringement: true } : {}) },
        },
        clock,
      );
      const after = await findProductWithVendor(trx, id);
      if (!after) throw notFound("Product not found");
      return toListItem(after);
    });
  }

  /** Approves up to 500 listings waiting for review, all or nothing; one audit row names them all. */
  async bulkApprove(actor: Actor, ids: string[], reason: string | undefined): Promise<BulkApproveReviewResponse> {
    const { clock } = this.deps;
    const note = reason?.trim() || null;
    return this.db.transaction().execute(async (trx) => {
      const result = await reviewProducts(trx, ids, { decision: "approve", reason: note, infringement: false, actor: { id: actor.user.id, email: actor.user.email } }, clock);
      await this.tellStorefrontAndArtists(trx, result, "approve", note);
      await recordAudit(
        trx,
        {
          actor,
          action: "product.bulk_review_approve",
          target: {
            type: "products",
            id: `${result.before.length} products`,
            label: result.before
              .slice(0, 3)
              .map((p) => p.name)
              .join(", "),
          },
          before: { status: "pending_review" },
          after: { status: "approved" },
          details: { productIds: result.before.map((p) => p.id), ...(note ? { reason: note } : {}) },
        },
        clock,
      );
      return { approved: result.before.length };
    });
  }

  /** One `product.status_changed` per listing decided, with the reason, and one e-mail to each artist naming their listings. */
  private async tellStorefrontAndArtists(trx: Executor, result: ReviewResult, decision: ReviewDecision, reason: string | null): Promise<void> {
    const { clock, jobs } = this.deps;
    const at = clock.now().toISOString();
    const artistIds = await artistIdsOf(
      trx,
      result.before.map((p) => p.vendor_id),
    );
    for (const p of result.before) {
      await recordEventOut(
        trx,
        "product.status_changed",
        { productId: p.id, externalProductId: p.external_id, vendorId: p.vendor_id, artistId: artistIds.get(p.vendor_id) ?? null, status: decision === "approve" ? "approved" : "rejected", reason },
        at,
      );
    }
    const byVendor = new Map<string, Array<{ id: string; name: string }>>();
    for (const p of result.before) byVendor.set(p.vendor_id, [...(byVendor.get(p.vendor_id) ?? []), { id: p.id, name: p.name }]);
    const vendors = await findVendorContacts(trx, [...byVendor.keys()]);
    for (const vendor of vendors) await mailListingDecision({ trx, jobs, clock }, vendor, byVendor.get(vendor.id)!, MAIL_OF[decision], reason);
  }
}
