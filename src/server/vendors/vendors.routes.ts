import { Hono } from "hono";
import { pageQuerySchema } from "../../contract/common.ts";
import {
  type AdminVendorsResponse,
  adminVendorsQuerySchema,
  MAX_VENDORS_ARRAY,
  type VendorDeleteResponse,
  type VendorListItem,
  type VendorProductsResponse,
  type VendorSalesResponse,
  vendorDeleteQuerySchema,
  vendorDeleteRequestSchema,
  vendorsArrayQuerySchema,
  vendorStatusRequestSchema,
} from "../../contract/vendors.ts";
import type { AppDeps, AppEnv } from "../app-env.ts";
import { recordAudit } from "../audit/audit-log.ts";
import { HttpError, notFound } from "../http/http-error.ts";
import { readJsonBody, readQuery } from "../http/validate.ts";
import { deleteVendorCascade, setVendorActive } from "../ledger/vendors.ts";
import {
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
 * Vendor management (spec §2 Vendor list/detail, §7). Every route here sits under /api/admin or
 * /api/vendors, so the admin guard in app.ts has already run; `user` is always set.
 */
export function vendorsRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { database, clock } = deps;
  const actorEmail = (c: { get(key: "user"): AppEnv["Variables"]["user"] }) => c.get("user")?.email ?? "unknown";

  // The screens use this paginated, server-searched list.
  app.get("/admin/vendors", async (c) => {
    const query = readQuery(c, adminVendorsQuerySchema);
    const page = await listVendorsPage(database, query);
    const body: AdminVendorsResponse = { ...page, page: query.page, limit: query.limit };
    return c.json(body);
  });

  // The spec's array call, bounded to the newest MAX_VENDORS_ARRAY vendors.
  app.get("/vendors", async (c) => {
    const query = readQuery(c, vendorsArrayQuerySchema);
    const body: VendorListItem[] = await listVendorsArray(database, query.include_internal ?? false, MAX_VENDORS_ARRAY);
    return c.json(body);
  });

  app.get("/admin/vendors/:id", async (c) => {
    const detail = await getVendorDetail(database.db, c.req.param("id"));
    if (!detail) throw vendorNotFound();
    return c.json(detail);
  });

  app.get("/admin/vendors/:id/products", async (c) => {
    const { page, limit } = readQuery(c, pageQuerySchema);
    const vendorId = c.req.param("id");
    if (!(await findVendor(database.db, vendorId))) throw vendorNotFound();
    const { rows, total } = await listVendorProducts(database.db, vendorId, page, limit);
    const body: VendorProductsResponse = { products: rows, total, page, limit };
    return c.json(body);
  });

  app.get("/admin/vendors/:id/sales", async (c) => {
    const { page, limit } = readQuery(c, pageQuerySchema);
    const vendorId = c.req.param("id");
    if (!(await findVendor(database.db, vendorId))) throw vendorNotFound();
    const { rows, total } = await listVendorSales(database.db, vendorId, page, limit);
    const body: VendorSalesResponse = { sales: rows, total, page, limit };
    return c.json(body);
  });

  app.patch("/vendors/:id/status", async (c) => {
    const { isActive } = await readJsonBody(c, vendorStatusRequestSchema);
    const vendorId = c.req.param("id");
    const updated = await database.db.transaction().execute(async (trx) => {
      const before = await findVendor(trx, vendorId);
      if (!before) return null;
      const after = await setVendorActive(trx, vendorId, isActive, clock);
      if (!after) return null;
      await recordAudit(
        trx,
        {
          actorEmail: actorEmail(c),
          action: isActive ? "vendor.enable" : "vendor.disable",
          targetType: "vendor",
          targetId: vendorId,
          details: { name: before.name, isActive: { from: before.is_active === 1, to: isActive } },
        },
        clock,
      );
      return after;
    });
    if (!updated) throw vendorNotFound();
    return c.json(toVendorListItem(updated));
  });

  app.delete("/vendors/:id", async (c) => {
    readQuery(c, vendorDeleteQuerySchema);
    const { deleteFromClerk } = await readJsonBody(c, vendorDeleteRequestSchema);
    const vendorId = c.req.param("id");
    const actor = c.get("user");
    // Everything in one transaction: the cascade, the owner's account and the audit row. A
    // hosted provider is called last, so its failure rolls the local deletions back as well.
    const result = await database.db.transaction().execute(async (trx) => {
      const vendor = await findVendor(trx, vendorId);
      if (!vendor) return null;
      const ownerUserId = deleteFromClerk ? vendor.owner_user_id : null;
      if (ownerUserId && ownerUserId === actor?.id) {
        throw new HttpError(409, "conflict", "This vendor is owned by your own account; it cannot be deleted from here");
      }
      const deleted = await deleteVendorCascade(trx, vendorId);
      if (!deleted) return null;
      await recordAudit(
        trx,
        {
          actorEmail: actorEmail(c),
          action: "vendor.delete",
          targetType: "vendor",
          targetId: vendorId,
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
            authProvider: deps.auth.displayName,
          },
        },
        clock,
      );
      if (ownerUserId) await deps.auth.deleteUser(ownerUserId, trx);
      return { deleted, ownerAccountDeleted: ownerUserId !== null };
    });
    if (!result) throw vendorNotFound();
    const body: VendorDeleteResponse = {
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
    return c.json(body);
  });

  return app;
}
