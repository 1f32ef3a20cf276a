import { type AdminVendorRow, VENDORS_EXPORT_KIND, type VendorsFilters, vendorsFiltersSchema } from "../../../contract/vendors.ts";
import { defineExport } from "../../platform/exports/export-kind.ts";
import { exportVendorsPage, type VendorExportCursor } from "./vendor-sorts.queries.ts";

/**
 * The vendor list as CSV with the screen's search and status (docs/product.md §4.1), newest joined
 * first, streamed page by page by the one export mechanism (a keyset walk of the list's indexes).
 */
export const vendorsExport = defineExport<VendorsFilters, AdminVendorRow, VendorExportCursor>({
  kind: VENDORS_EXPORT_KIND,
  fileStem: "vendors",
  filters: vendorsFiltersSchema,
  columns: [
    { header: "Vendor", value: (v) => v.name },
    { header: "Vendor id", value: (v) => v.id },
    { header: "Owner", value: (v) => v.owner },
    { header: "Email", value: (v) => v.email },
    { header: "Store slug", value: (v) => v.slug },
    { header: "Status", value: (v) => (v.isActive ? "active" : "inactive") },
    { header: "Internal", value: (v) => (v.isInternal ? "yes" : "no") },
    { header: "Listed products", value: (v) => v.products },
    { header: "Revenue (USD)", value: (v) => v.revenue.toFixed(2) },
    { header: "Joined", value: (v) => v.joinedDate },
  ],
  readPage: (db, filters, cursor, limit) => exportVendorsPage(db, filters, cursor, limit),
});
