import type { OrderListItem } from "@contract/orders";
import { Badge, type BadgeVariant } from "@web/components/ui/badge";

/** The state an operator reads: a paid line with part refunds is "Partly refunded". */
function stateOf(order: Pick<OrderListItem, "status" | "refundedInParts">): { label: string; variant: BadgeVariant } {
  if (order.status === "refunded") return { label: "Refunded", variant: "destructive" };
  if (order.status === "cancelled") return { label: "Cancelled", variant: "secondary" };
  return order.refundedInParts > 0 ? { label: "Partly refunded", variant: "warning" } : { label: "Paid", variant: "success" };
}

export function OrderStatusBadge({ order }: { order: Pick<OrderListItem, "status" | "refundedInParts"> }) {
  const { label, variant } = stateOf(order);
  return <Badge variant={variant}>{label}</Badge>;
}
