import { Link } from "react-router";
import type { OrderListItem } from "@contract/orders";
import type { Column } from "@web/components/list";
import { Button } from "@web/components/ui/button";
import { formatCount, formatCurrency, formatDateTime } from "@web/lib/format";
import { OrderStatusBadge } from "./order-status";

/** What the row names itself by: the storefront's order and line, or the panel's id. */
export const orderLabel = (o: Pick<OrderListItem, "externalOrderId" | "externalLineId" | "id">) =>
  o.externalOrderId ? `${o.externalOrderId}${o.externalLineId ? ` / ${o.externalLineId}` : ""}` : o.id;

/** The Orders table's columns (docs/product.md "Orders"): placed and amount sort on the server. */
export function orderColumns(onOpen: (order: OrderListItem) => void): Array<Column<OrderListItem>> {
  return [
    { id: "created", header: "Placed", sortKey: "created", cell: (o) => formatDateTime(o.createdAt) },
    {
      id: "order",
      header: "Order",
      cell: (o) => (
        <button type="button" className="text-left font-medium hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600" onClick={() => onOpen(o)}>
          {orderLabel(o)}
        </button>
      ),
    },
    { id: "buyer", header: "Buyer", cell: (o) => o.customerEmail ?? <span className="text-gray-500">Unknown</span> },
    {
      id: "artist",
      header: "Artist",
      cell: (o) => (
        <Link to={`/vendors/${encodeURIComponent(o.vendorId)}`} className="text-blue-700 hover:underline">
          {o.vendorName}
        </Link>
      ),
    },
    { id: "product", header: "Product", cell: (o) => `${o.productName}${o.quantity > 1 ? ` × ${formatCount(o.quantity)}` : ""}` },
    { id: "status", header: "Status", cell: (o) => <OrderStatusBadge order={o} /> },
    { id: "amount", header: "Amount", sortKey: "amount", className: "text-right", cell: (o) => formatCurrency(o.amount) },
    {
      id: "actions",
      header: "Actions",
      hideHeader: true,
      className: "text-right",
      cell: (o) => (
        <Button size="sm" variant="outline" onClick={() => onOpen(o)} aria-label={`Open order ${orderLabel(o)}`}>
          Open
        </Button>
      ),
    },
  ];
}
