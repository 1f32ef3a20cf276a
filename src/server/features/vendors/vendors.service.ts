import type {
  AdminVendorsQuery,
  AdminVendorsResponse,
  BulkVendorStatusResponse,
  VendorDeleteResponse,
  VendorDetail,
  VendorListItem,
  VendorProductsResponse,
  VendorSalesResponse,
  VendorSort,
} from "../../../contract/vendors.ts";
import { MAX_VENDORS_ARRAY, VENDOR_SEARCH_SORT_CAP } from "../../../contract/vendors.ts";
import { encodeKeyset, keysetPage, readKeyset } from "../../platform/http/keyset-cursor.ts";
import type { Vendor } from "../../platform/db/schema.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { recordAudit } from "../../domain/audit/audit-log.ts";
import type { Actor } from "../../platform/identity/actor.ts";
import { hasPanelAccess } from "../../platform/identity/admin-rule.ts";
import { conflict, invalidField, notFound } from "../../platform/http/http-error.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { endFeaturesOfVendor } from "../../domain/featured-artist/featured-slots.ts";
import { recordEventOut } from "../../domain/outbox/events-out.ts";
import { artistStatusOf, deleteVendorCascade, setVendorActive } from "../../domain/ledger/vendors.ts";
import { mailArtistDecision } from "../../domain/artist-notices/artist-notices.ts";
import { findVendorsById, sortedMatchKeys, sortedVendorKeys, sortOf, type VendorPosition } from "./vendor-sorts.queries.ts";
import {
  fetchAdminRows,
  findOwnerAccount,
  findVendor,
  getVendorDetail,
  listVendorProducts,
  listVendorSales,
  listVendorsArray,
  listVendorsPage,
  readVendorCounts,
  searchMatchIds,
  toVendorListItem,
} from "./vendors.queries.ts";
import { VendorMatchMemo } from "./vendor-matches.ts";

const vendorNotFound = () => notFound("Vendor not found");

/**
 * Vendor management (docs/product.md §4 Vendors): reads, status changes and deletes, each change
 * with its audit row in the same transaction.
 */
export class VendorsService {
  /** Which vendors a search matches, kept per vendor-search version (vendor-matches.ts). */
  private readonly matches = new VendorMatchMemo();

  constructor(private readonly deps: Pick<AppDeps, "database" | "clock" | "auth" | "config" | "jobs">) {}

  private get db() {
    return this.deps.database.db;
  }

  /**
   * The spec's page-numbered call, or with `sort` (or a cursor) keyset pages in that order. A
   * search's matches are kept per vendor-search version (vendor-matches.ts).
   */
  async listPage(query: AdminVendorsQuery): Promise<AdminVendorsResponse> {
    if (query.sort === undefined && query.cursor === undefined) {
      const page = await listVendorsPage(this.deps.database, query, this.matches.at(this.db));
      return { ...page, page: query.page, limit: query.limit, nextCursor: null };
    }
    return this.listSorted(query, query.sort ?? "-joined");
  }

  private async listSorted(query: AdminVendorsQuery, sort: VendorSort): Promise<AdminVendorsResponse> {
    const { database } = this.deps;
    const after = query.cursor ? readVendorCursor(query.cursor, sort) : undefined;
    const search = query.search?.trim() ?? "";
    const counts = await readVendorCounts(this.db);
    let keys: Array<{ id: string; value: string | number }>;
    let total: number;
    if (search !== "") {
      const ids = await searchMatchIds(database, search, query.status, VENDOR_SEARCH_SORT_CAP + 1, this.matches.at(this.db));
      if (ids.length > VENDOR_SEARCH_SORT_CAP) {
        throw invalidField("sort", `a search is sorted only when it matches at most ${VENDOR_SEARCH_SORT_CAP.toLocaleString("en-US")} vendors; refine the search`);
      }
      keys = await sortedMatchKeys(this.db, sort, ids, after, query.limit + 1);
      total = ids.length;
    } else {
      keys = await sortedVendorKeys(this.db, sort, query.status, after, query.limit + 1);
      total = query.status ? counts[query.status] : counts.total;
    }
    const { page, nextCursor } = keysetPage(keys, query.limit, (last) => encodeKeyset([sort, last.value, last.id]));
    const vendors = await fetchAdminRows(
      this.db,
      page.map((k) => k.id),
    );
    return { vendors, total, totalCapped: false, page: query.page, limit: query.limit, counts, nextCursor };
  }

  /** The array call, bounded to the newest MAX_VENDORS_ARRAY vendors. */
  listArray(includeInternal: boolean): Promise<VendorListItem[]> {
    return listVendorsArray(this.deps.database, includeInternal, MAX_VENDORS_ARRAY);
  }

  async detail(vendorId: string): Promise<VendorDetail> {
    const detail = await getVendorDetail(this.db, vendorId);
    if (!detail) throw vendorNotFound();
    return detail;
  }

  async products(vendorId: string, page: number, limit: number): Promise<VendorProductsResponse> {
    await this.requireVendor(vendorId);
    const { rows, total } = await listVendorProducts(this.db, vendorId, page, limit);
    return { products: rows, total, page, limit };
  }

  async sales(vendorId: string, page: number, limit: number): Promise<VendorSalesResponse> {
    await this.requireVendor(vendorId);
    const { rows, total } = await listVendorSales(this.db, vendorId, page, limit);
    return { sales: rows, total, page, limit };
  }

  /** A vendor's tabs answer 404 when the vendor does not exist. */
  private async requireVendor(vendorId: string): Promise<void> {
    if (!(await findVendor(this.db, vendorId))) throw vendorNotFound();
  }

  /**
   * The one rule of a status change, for one vendor and for many: the ledger changes the flag (and
   * its counters) with the reason and a row of the artist's status history; the storefront is told
   * (`artist.status_changed` with the reason) and the artist is e-mailed; a disabled vendor's
   * feature ends with it (docs/product.md §18.1); all in the caller's transaction. Null when no such
   * vendor exists; `changed` is whether the flag moved.
   */
  private async changeStatus(
    trx: Executor,
    actor: Actor,
    vendorId: string,
    isActive: boolean,
    reason: string | null,
  ): Promise<{ before: Vendor; after: Vendor; changed: boolean; featuresEnded: number } | null> {
    const { clock, jobs } = this.deps;
    const result = await setVendorActive(trx, vendorId, isActive, clock, { reason, actor: { id: actor.user.id, email: actor.user.email } });
    if (!result) return null;
    if (result.changed) {
      await recordEventOut(trx, "artist.status_changed", { vendorId, artistId: result.after.external_id, status: artistStatusOf(result.after), reason }, clock.now().toISOString());
      await mailArtistDecision({ trx, jobs, clock }, result.after, isActive ? "enabled" : "disabled", reason);
    }
    const featuresEnded = isActive ? 0 : await endFeaturesOfVendor(trx, vendorId, "vendor_disabled", clock);
    return { ...result, featuresEnded };
  }

  /**
   * Enables or disables one vendor (a disable with its reason, told to the artist); one audit row
   * when that changed anything, none when it already had the status asked for.
   */
  async setStatus(actor: Actor, vendorId: string, isActive: boolean, reason: string | undefined): Promise<VendorListItem> {
    const { clock } = this.deps;
    const note = reason?.trim() || null;
    const updated = await this.db.transaction().execute(async (trx) => {
      const result = await this.changeStatus(trx, actor, vendorId, isActive, note);
      if (!result) return null;
      const { before, after, changed, featuresEnded } = result;
      if (changed || featuresEnded > 0) {
        await recordAudit(
          trx,
          {
            actor,
            action: isActive ? "vendor.enable" : "vendor.disable",
            target: { type: "vendor", id: vendorId, label: before.name },
            // A disabled vendor whose feature was still live changes only that: no before and after of its status.
            ...(changed ? { before: { isActive: before.is_active === 1 }, after: { isActive: after.is_active === 1 } } : {}),
            details: {
              name: before.name,
              ...(changed ? { isActive: { from: before.is_active === 1, to: after.is_active === 1 } } : {}),
              ...(changed && note ? { reason: note } : {}),
              ...(featuresEnded > 0 ? { featuredSlotsEnded: featuresEnded } : {}),
            },
          },
          clock,
        );
      }
      return after;
    });
    if (!updated) throw vendorNotFound();
    return toVendorListItem(updated);
  }

  /**
   * Enables or disables up to MAX_BULK_VENDORS vendors in one transaction, all or nothing: an
   * unknown id refuses the whole request before anything changes. Each vendor goes through the same
   * rule as a single change (changeStatus), with the one reason given. One audit row names the
   * vendors whose status changed (each had the other status before); the others are only counted,
   * and a request that changed nothing writes no row.
   */
  async bulkSetStatus(actor: Actor, ids: string[], isActive: boolean, reason: string | undefined): Promise<BulkVendorStatusResponse> {
    const { clock } = this.deps;
    const note = reason?.trim() || null;
    return this.db.transaction().execute(async (trx) => {
      const found = new Map((await findVendorsById(trx, ids)).map((v) => [v.id, v]));
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length > 0) {
        const named = missing
          .slice(0, 5)
          .map((id) => id.slice(0, 100))
          .join(", ");
        throw notFound(`No vendor with id ${named}${missing.length > 5 ? ` and ${missing.length - 5} more` : ""}; nothing was changed`);
      }
      const changed: Vendor[] = [];
      let featuresEnded = 0;
      for (const id of ids) {
        const result = await this.changeStatus(trx, actor, id, isActive, note);
        // Found above in this transaction; a vendor deleted since would make this null.
        if (!result) throw notFound(`No vendor with id ${id}; nothing was changed`);
        if (result.changed) changed.push(result.before);
        featuresEnded += result.featuresEnded;
      }
      const unchanged = ids.length - changed.length;
      if (changed.length > 0 || featuresEnded > 0) {
        await recordAudit(
          trx,
          {
            actor,
            action: isActive ? "vendor.bulk_enable" : "vendor.bulk_disable",
            target: {
              type: "vendors",
              id: `${changed.length} vendors`,
              label: changed
                .slice(0, 3)
                .map((v) => v.name)
                .join(", "),
            },
            ...(changed.length > 0 ? { before: { isActive: !isActive }, after: { isActive } } : {}),
            details: {
              vendorIds: changed.map((v) => v.id),
              unchanged,
              ...(changed.length > 0 && note ? { reason: note } : {}),
              ...(featuresEnded > 0 ? { featuredSlotsEnded: featuresEnded } : {}),
            },
          },
          clock,
        );
      }
      return { changed: changed.length, unchanged };
    });
  }

  /**
   * Deletes the vendor and everything it owns, and (when asked) its owner's account, in one
   * transaction with the audit row. A hosted provider is called last, so its failure rolls the
   * local deletions back as well.
   */
  async delete(actor: Actor, vendorId: string, deleteOwnerAccount: boolean): Promise<VendorDeleteResponse> {
    const { clock, auth } = this.deps;
    const result = await this.db.transaction().execute(async (trx) => {
      const vendor = await findVendor(trx, vendorId);
      if (!vendor) return null;
      const ownerUserId = deleteOwnerAccount ? vendor.owner_user_id : null;
      if (ownerUserId && ownerUserId === actor.user.id) {
        throw conflict("This vendor is owned by your own account; it cannot be deleted from here");
      }
      if (ownerUserId) await this.refuseDeletingPanelAccount(trx, ownerUserId);
      const deleted = await deleteVendorCascade(trx, vendorId);
      if (!deleted) return null;
      const featuresEnded = await endFeaturesOfVendor(trx, vendorId, "vendor_deleted", clock);
      await recordEventOut(trx, "artist.deleted", { vendorId, artistId: vendor.external_id }, clock.now().toISOString());
      await recordAudit(
        trx,
        {
          actor,
          action: "vendor.delete",
          target: { type: "vendor", id: vendorId, label: vendor.name },
          before: { name: vendor.name, slug: vendor.slug, email: vendor.email, isActive: vendor.is_active === 1 },
          details: {
            name: vendor.name,
            slug: vendor.slug,
            email: vendor.email,
            products: deleted.products,
            orders: deleted.orders,
            subscriptions: deleted.subscriptions,
            storeVisitDays: deleted.storeVisitDays,
            ownerUserId,
            ownerAccountDeleted: ownerUserId !== null,
            ...(featuresEnded > 0 ? { featuredSlotsEnded: featuresEnded } : {}),
            authProvider: auth.displayName,
          },
        },
        clock,
      );
      if (ownerUserId) await auth.deleteUser(ownerUserId, trx);
      return { deleted, ownerAccountDeleted: ownerUserId !== null };
    });
    if (!result) throw vendorNotFound();
    return {
      success: true,
      deleted: {
        vendorId,
        products: result.deleted.products,
        orders: result.deleted.orders,
        subscriptions: result.deleted.subscriptions,
        storeVisitDays: result.deleted.storeVisitDays,
        ownerAccountDeleted: result.ownerAccountDeleted,
      },
    };
  }

  /**
   * Deleting a vendor may delete its owner's account; never one that can open this panel (an admin
   * or a viewer, by the one rule in admin-rule.ts): that access must be removed first. The hosted
   * provider knows its users' roles; the built-in one is asked through the local account.
   */
  private async refuseDeletingPanelAccount(executor: Executor, ownerUserId: string): Promise<void> {
    const { auth, config } = this.deps;
    const owner = auth.findUser ? await auth.findUser(ownerUserId) : await findOwnerAccount(executor, ownerUserId);
    if (owner && hasPanelAccess(owner, config.adminEmailDomain)) {
      throw conflict(
        `The owner's account (${owner.email}) has access to the admin panel and cannot be deleted with the vendor. Remove that access first, or delete the vendor without deleting the account.`,
      );
    }
  }
}

/** A cursor of the sorted list: [sort, the last row's value, its id]; one of another sort is refused. */
function readVendorCursor(text: string, sort: VendorSort): VendorPosition {
  const [cursorSort, value, id] = readKeyset(text, ["string", sortOf(sort).column.part, "string"]);
  if (cursorSort !== sort) throw invalidField("cursor", "belongs to another sort (start again from the first page)");
  return { value, id };
}
