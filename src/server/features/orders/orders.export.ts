import { ORDERS_EXPORT_KIND, type OrderListItem, type OrdersFilters, ordersFiltersSchema } from "../../../contract/orders.ts";
import { defineExport } from "../../platform/exports/export-kind.ts";
import { readOrderPage } from "./orders.service.ts";

/**
 * The Orders list as CSV with the screen's filters (search, artist, status, dates), newest first,
 * streamed page by page by the one export mechanism (the list's own keyset walk).
 */
export const ordersExport = defineExport<OrdersFilters, OrderListItem, string>({
  kind: ORDERS_EXPORT_KIND,
  fileStem: "orders",
  filters: ordersFiltersSchema,
  columns: [
    { header: "Placed", value: (o) => o.createdAt },
    { header: "Order id", value: (o) => o.externalOrderId },
    { header: "Line id", value: (o) => o.externalLineId },
    { header: "Panel id", value: (o) => o.id },
    { header: "Buyer e-mail", value: (o) => o.customerEmail },
    { header: "Artist", value: (o) => o.vendorName },
    { header: "Artist id", value: (o) => o.vendorId },
    { header: "Product", value: (o) => o.productName },
    { header: "Quantity", value: (o) => o.quantity },
    { header: "Status", value: (o) => o.status },
    { header: "Amount (USD)", value: (o) => o.amount.toFixed(2) },
    { header: "Platform fee (USD)", value: (o) => o.fee.toFixed(2) },
    { header: "Refunded in parts (USD)", value: (o) => o.refundedInParts.toFixed(2) },
  ],
  async readPage(db, filters, cursor, limit) {
    const page = await readOrderPage(db, filters, "newest", cursor, limit);
    return { rows: page.rows, next: page.next ?? undefined };
  },
});
