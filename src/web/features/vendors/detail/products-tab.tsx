import { Link } from "react-router";
import type { VendorProduct as Product } from "@contract/vendors";
import { type Column, useNumberedPages } from "@web/components/list";
import { Badge } from "@web/components/ui/badge";
import { formatCurrency } from "@web/lib/format";
import { useVendorProducts } from "../vendors-api";
import { PagedTab } from "./paged-tab";

/** The columns of one vendor's products: each name opens the product in the catalogue (docs/product.md §16). */
const columnsFor = (vendorId: string): ReadonlyArray<Column<Product>> => [
  {
    id: "product",
    header: "Product",
    // Opens over this vendor's products in the catalogue.
    cell: (p) => (
      <>
        <Link to={`/products?vendorId=${encodeURIComponent(vendorId)}&product=${encodeURIComponent(p.id)}`} className="text-blue-700 hover:underline">
          {p.name}
        </Link>{" "}
        {p.status === "draft" && <Badge variant="secondary">Draft</Badge>}
        {p.status === "hidden" && <Badge variant="destructive">Hidden</Badge>}
      </>
    ),
  },
  { id: "price", header: "Price", cell: (p) => formatCurrency(p.price) },
  { id: "inventory", header: "Inventory", cell: (p) => p.inventory },
  { id: "sold", header: "Sold", cell: (p) => p.sold },
  { id: "revenue", header: "Revenue", cell: (p) => formatCurrency(p.revenue) },
];

/** The vendor's products, newest first, 10 a page (docs/product.md §4.4); the page is in the URL (`products.page`). */
export function ProductsTab({ vendorId }: { vendorId: string }) {
  const pages = useNumberedPages("products");
  const query = useVendorProducts(vendorId, pages.page, true);
  return (
    <PagedTab
      query={query}
      rowsOf={(d) => d.products}
      columns={columnsFor(vendorId)}
      rowKey={(p) => p.id}
      pages={pages}
      loadingLabel="Loading products"
      emptyText="No products yet"
      pagerLabel="Product pages"
    />
  );
}
