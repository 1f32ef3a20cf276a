import type { AdminVendorsQuery, AdminVendorsResponse, VendorDeleteResponse, VendorDetail, VendorListItem, VendorProductsResponse, VendorSalesResponse } from "../../../contract/vendors.ts";
import { MAX_VENDORS_ARRAY } from "../../../contract/vendors.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { recordAudit } from "../../domain/audit/audit-log.ts";
import type { Actor } from "../../platform/identity/actor.ts";
import { hasPanelAccess } from "../../platform/identity/admin-rule.ts";
import { conflict, notFound } from "../../platform/http/http-error.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { endFeaturesOfVendor } from "../../domain/featured-artist/featured-slots.ts";
import { deleteVendorCascade, setVendorActive } from "../../domain/ledger/vendors.ts";
import {
  findOwnerAccount,
  findVendor,
  getVendorDetail,
  listVendorProducts,
  listVendorSales,
  listVendorsArray,
  listVendorsPage,
  toVendorListItem,
} from "./vendors.queries.ts";

const vendorNotFound = () => notFound("Vendor not found");

/**
 * Vendor management (docs/product.md §4 Vendors): reads, status changes and deletes, each change
 * with its audit row in the same transaction.
 */
export class VendorsService {
  constructor(private readonly deps: Pick<AppDeps, "database" | "clock" | "auth" | "config">) {}

  private get db() {
    return this.deps.database.db;
  }

  async listPage(query: AdminVendorsQuery): Promise<AdminVendorsResponse> {
    const page = await listVendorsPage(this.deps.database, query);
    return { ...page, page: query.page, limit: query.limit };
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
    if (!(await findVendor(this.db, vendorId))) throw vendorNotFound();
    const { rows, total } = await listVendorProducts(this.db, vendorId, page, limit);
    return { products: rows, total, page, limit };
  }

  async sales(vendorId: string, page: number, limit: number): Promise<VendorSalesResponse> {
    if (!(await findVendor(this.db, vendorId))) throw vendorNotFound();
    const { rows, total } = await listVendorSales(this.db, vendorId, page, limit);
    return { sales: rows, total, page, limit };
  }

  async setStatus(actor: Actor, vendorId: string, isActive: boolean): Promise<VendorListItem> {
    const { clock } = this.deps;
    const updated = await this.db.transaction().execute(async (trx) => {
      const before = await findVendor(trx, vendorId);
      if (!before) return null;
      const after = await setVendorActive(trx, vendorId, isActive, clock);
      if (!after) return null;
      // A disabled vendor's feature ends with it (docs/product.md §16.1), in this transaction.
      const featuresEnded = isActive ? 0 : await endFeaturesOfVendor(trx, vendorId, "vendor_disabled", clock);
      await recordAudit(
        trx,
        {
          actor,
          action: isActive ? "vendor.enable" : "vendor.disable",
          target: { type: "vendor", id: vendorId, label: before.name },
          before: { isActive: before.is_active === 1 },
          after: { isActive },
          details: { name: before.name, isActive: { from: before.is_active === 1, to: isActive }, ...(featuresEnded > 0 ? { featuredSlotsEnded: featuresEnded } : {}) },
        },
        clock,
      );
      return after;
    });
    if (!updated) throw vendorNotFound();
    return toVendorListItem(updated);
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
