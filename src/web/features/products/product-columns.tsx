import { Link } from "react-router";
import { type ProductListItem, setProductStatusEndpoint } from "@contract/products";
import type { Column } from "@web/components/list";
import { Badge } from "@web/components/ui/badge";
import { Button } from "@web/components/ui/button";
import { WriteButton } from "@web/components/ui/write-button";
import { formatCount, formatCurrency, formatDate } from "@web/lib/format";
import { PRODUCT_BADGE, PRODUCT_STATUS_LABELS } from "@web/lib/labels";

export interface ProductActions {
  onOpen: (product: ProductListItem) => void;
  onHide: (product: ProductListItem) => void;
  onRestore: (product: ProductListItem) => void;
}

function RowActions({ product, onOpen, onHide, onRestore }: { product: ProductListItem } & ProductActions) {
  return (
    <div className="flex justify-end gap-2">
      <Button size="sm" variant="outline" onClick={() => onOpen(product)} aria-label={`Open ${product.name}`}>
        Open
      </Button>
      {product.status === "active" && (
        <WriteButton endpoint={setProductStatusEndpoint} size="sm" variant="destructive" onClick={() => onHide(product)} aria-label={`Hide ${product.name}`}>
          Hide
        </WriteButton>
      )}
      {product.status === "hidden" && (
        <WriteButton endpoint={setProductStatusEndpoint} size="sm" variant="outline" onClick={() => onRestore(product)} aria-label={`Restore ${product.name}`}>
          Restore
        </WriteButton>
      )}
    </div>
  );
}

/** The catalogue table's columns (docs/product.md §16): created, price, sold and revenue sort on the server. */
export function productColumns(actions: ProductActions): Array<Column<ProductListItem>> {
  return [
    {
      id: "product",
      header: "Product",
      cell: (p) => (
        <button type="button" className="text-left font-medium hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600" onClick={() => actions.onOpen(p)}>
          {p.name}
        </button>
      ),
    },
    {
      id: "vendor",
      header: "Vendor",
      cell: (p) => (
        <Link to={`/vendors/${encodeURIComponent(p.vendorId)}`} className="text-blue-700 hover:underline">
          {p.vendorName}
        </Link>
      ),
    },
    { id: "status", header: "Status", cell: (p) => <Badge variant={PRODUCT_BADGE[p.status]}>{PRODUCT_STATUS_LABELS[p.status]}</Badge> },
    { id: "price", header: "Price", sortKey: "price", className: "text-right", cell: (p) => formatCurrency(p.price) },
    { id: "inventory", header: "Inventory", className: "text-right", cell: (p) => formatCount(p.inventory) },
    { id: "sold", header: "Sold", sortKey: "sold", className: "text-right", cell: (p) => formatCount(p.sold) },
    { id: "revenue", header: "Revenue", sortKey: "revenue", className: "text-right", cell: (p) => formatCurrency(p.revenue) },
    { id: "created", header: "Created", sortKey: "created", cell: (p) => formatDate(p.createdAt) },
    { id: "actions", header: "Actions", hideHeader: true, className: "text-right", cell: (p) => <RowActions product={p} {...actions} /> },
  ];
}
