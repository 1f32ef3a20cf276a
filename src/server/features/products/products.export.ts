import { PRODUCTS_EXPORT_KIND, type ProductListItem, type ProductsFilters, productsFiltersSchema } from "../../../contract/products.ts";
import { defineExport } from "../../platform/exports/export-kind.ts";
import { listProductRows, sortSpec } from "./products.queries.ts";
import { decodeProductCursor } from "./products-cursor.ts";

/**
 * The products list as CSV with the screen's filters (search, vendor, status), newest first,
 * streamed page by page by the one export mechanism (the list's own keyset walk).
 */
export const productsExport = defineExport<ProductsFilters, ProductListItem, string>({
  kind: PRODUCTS_EXPORT_KIND,
  fileStem: "products",
  filters: productsFiltersSchema,
  columns: [
    { header: "Product", value: (p) => p.name },
    { header: "Product id", value: (p) => p.id },
    { header: "Vendor", value: (p) => p.vendorName },
    { header: "Vendor id", value: (p) => p.vendorId },
    { header: "Status", value: (p) => p.status },
    { header: "Price (USD)", value: (p) => p.price.toFixed(2) },
    { header: "Inventory", value: (p) => p.inventory },
    { header: "Sold", value: (p) => p.sold },
    { header: "Revenue (USD)", value: (p) => p.revenue.toFixed(2) },
    { header: "Created", value: (p) => p.createdAt },
  ],
  async readPage(db, filters, cursor, limit) {
    const after = cursor === undefined ? undefined : decodeProductCursor(cursor, sortSpec("newest"));
    const page = await listProductRows(db, { ...filters, sort: "newest", limit, after }, false);
    return { rows: page.products, next: page.next ?? undefined };
  },
});
