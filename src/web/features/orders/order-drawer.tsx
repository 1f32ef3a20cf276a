import { useState } from "react";
import { Link } from "react-router";
import { createRefundEndpoint, type OrderDetail, type OrderEvent } from "@contract/orders";
import { Badge } from "@web/components/ui/badge";
import { Button } from "@web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@web/components/ui/dialog";
import { Spinner } from "@web/components/ui/spinner";
import { WriteButton } from "@web/components/ui/write-button";
import { apiErrorMessage } from "@web/lib/api-client";
import { formatCount, formatCurrency, formatDateTime } from "@web/lib/format";
import { orderLabel } from "./order-columns";
import { OrderStatusBadge } from "./order-status";
import { useOrderDetail } from "./orders-api";
import { RefundDialog } from "./refund-dialog";
import { OrderDisputes } from "./order-disputes";
import { isUnsettledRefund, RefundCheck, type RefundChecks, useRefundChecks } from "./refund-check";

interface OrderDrawerProps {
  /** The order line open (`?order=` in the URL), or null. */
  orderId: string | null;
  onClose: () => void;
  /** Opens another line of the same storefront order. */
  onOpen: (id: string) => void;
  onOnlyVendor: (vendorId: string) => void;
}

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div>
      <dt className="text-xs text-gray-600">{label}</dt>
      <dd className="font-medium" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

const EVENT_TITLES: Record<OrderEvent["kind"], string> = {
  placed: "Placed",
  refunded: "Refunded",
  refund_requested: "Refund asked of Stripe",
  refund_failed: "Refund not made",
  dispute_opened: "Disputed by the buyer",
  dispute_won: "Dispute won",
  dispute_lost: "Dispute lost",
  cancelled: "Cancelled",
};

function Timeline({ events, detail }: { events: OrderEvent[]; detail: OrderDetail }) {
  const checks = useRefundChecks();
  return (
    <section aria-label="Timeline" className="grid gap-2">
      <h3 className="text-sm font-semibold">Timeline</h3>
      <ol className="grid gap-2 border-l-2 border-gray-200 pl-4 text-sm">
        {events.map((e, i) => (
          <li key={`${e.kind}-${e.at}-${i}`} data-testid={`order-event-${e.kind}`}>
            <span className="font-medium">{EVENT_TITLES[e.kind]}</span>
            {e.amount !== null && <> · {formatCurrency(e.amount)}</>} · <time dateTime={e.at}>{formatDateTime(e.at)}</time>
            {e.by && <span className="block text-gray-700">By {e.by}</span>}
            {e.refundId && <span className="block text-gray-600">Stripe refund {e.refundId}</span>}
            {e.reason && <span className="block text-gray-700">Reason: {e.reason}</span>}
            {e.nettedFromNextPayout && <span className="block text-amber-800">Netted: the artist was already paid for this line; their share comes off their next payout</span>}
            {e.note && <span className="block text-gray-600">{e.note}</span>}
            <UnsettledRefund event={e} detail={detail} checks={checks} />
          </li>
        ))}
      </ol>
    </section>
  );
}

/** 'Check with Stripe' on a refund step whose outcome is not recorded yet. */
function UnsettledRefund({ event, detail, checks }: { event: OrderEvent; detail: OrderDetail; checks: RefundChecks }) {
  const refund = event.kind === "refund_requested" ? detail.panelRefunds.find((r) => r.id === event.panelRefundId) : undefined;
  return refund && isUnsettledRefund(refund) ? <RefundCheck refund={refund} paymentIntentId={detail.paymentIntentId} checks={checks} /> : null;
}

function RefundAction({ detail, orderId }: { detail: OrderDetail; orderId: string }) {
  const [open, setOpen] = useState(false);
  const left = detail.refundable.reduce((s, r) => s + r.amount, 0);
  const refusal = detail.paymentIntentId === null ? "The storefront did not name this order's Stripe payment: refund it in Stripe's dashboard" : left <= 0 ? "Nothing is left to refund" : undefined;
  return (
    <>
      <WriteButton endpoint={createRefundEndpoint} size="sm" variant="outline" refusal={refusal} onClick={() => setOpen(true)}>
        Refund…
      </WriteButton>
      {open && <RefundDialog detail={detail} lineId={orderId} open={open} onClose={() => setOpen(false)} />}
    </>
  );
}

function Body({ detail, orderId, onOpen, onOnlyVendor }: { detail: OrderDetail; orderId: string } & Pick<OrderDrawerProps, "onOpen" | "onOnlyVendor">) {
  const { order, vendor, amounts, siblings } = detail;
  return (
    <div className="grid gap-5">
      <div className="flex flex-wrap items-center gap-2">
        <OrderStatusBadge order={order} />
        <span className="text-sm text-gray-700">
          {order.productName} × {formatCount(order.quantity)} · {order.customerEmail ?? "buyer unknown"}
        </span>
        <span className="ml-auto">
          <RefundAction detail={detail} orderId={orderId} />
        </span>
      </div>
      <section aria-label="Amounts">
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          <Figure label="Charged" value={formatCurrency(amounts.charged)} testId="order-charged" />
          <Figure label="Refunded" value={formatCurrency(amounts.refunded)} testId="order-refunded" />
          <Figure label={`Platform fee (${formatCount(amounts.feeRateBasisPoints / 100)} %)`} value={formatCurrency(amounts.platformFee)} />
          <Figure label="Artist's net" value={formatCurrency(amounts.artistNet)} testId="order-artist-net" />
        </dl>
      </section>
      <Timeline events={detail.timeline} detail={detail} />
      <OrderDisputes disputes={detail.disputes} />
      {detail.carriedBy && (
        <p className="text-sm text-gray-700" data-testid="order-payout">
          The artist's share was carried by payout {detail.carriedBy.transferId ?? detail.carriedBy.payoutId} ({detail.carriedBy.status}
          {detail.carriedBy.paidAt ? `, ${formatDateTime(detail.carriedBy.paidAt)}` : ""}).
        </p>
      )}
      <section aria-label="Artist" className="grid gap-1">
        <h3 className="text-sm font-semibold">Artist</h3>
        <p>
          <Link to={`/vendors/${encodeURIComponent(vendor.id)}`} className="text-blue-700 hover:underline">
            {vendor.name}
          </Link>{" "}
          {!vendor.isActive && <Badge variant="warning">Disabled</Badge>}
        </p>
        <Button size="sm" variant="link" className="justify-self-start px-0" onClick={() => onOnlyVendor(vendor.id)}>
          Show this artist's orders
        </Button>
      </section>
      <section aria-label="Lines of this order" className="grid gap-2">
        <h3 className="text-sm font-semibold">{order.externalOrderId ? `Every line of order ${order.externalOrderId}` : "Lines of this order"}</h3>
        <ul className="grid gap-1 text-sm">
          {siblings.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center gap-2">
              {s.id === orderId ? (
                <span className="font-medium" aria-current="true">
                  {orderLabel(s)} (this line)
                </span>
              ) : (
                <Button size="sm" variant="link" className="px-0" onClick={() => onOpen(s.id)}>
                  {orderLabel(s)}
                </Button>
              )}
              <span>
                {s.productName} · {s.vendorName} · {formatCurrency(s.amount)}
              </span>
              <OrderStatusBadge order={s} />
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

/** One order line (docs/product.md "Orders"): amounts, timeline, artist, the storefront order's other lines; Escape closes it. */
export function OrderDrawer({ orderId, onClose, onOpen, onOnlyVendor }: OrderDrawerProps) {
  const detail = useOrderDetail(orderId);
  return (
    <Dialog open={orderId !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{detail.data ? `Order ${orderLabel(detail.data.order)}` : "Order"}</DialogTitle>
          <DialogDescription>
            {detail.data ? `Sold by ${detail.data.vendor.name}, placed ${formatDateTime(detail.data.order.createdAt)}` : "The order line, its amounts and its history"}
          </DialogDescription>
        </DialogHeader>
        {detail.isPending && <Spinner className="py-8" label="Loading the order" />}
        {detail.isError && (
          <div role="alert" className="grid justify-items-start gap-2">
            <p className="text-red-700">Failed to load the order: {apiErrorMessage(detail.error)}</p>
            <Button size="sm" variant="outline" onClick={() => void detail.refetch()} disabled={detail.isFetching}>
              Try Again
            </Button>
          </div>
        )}
        {detail.data && orderId !== null && <Body detail={detail.data} orderId={orderId} onOpen={onOpen} onOnlyVendor={onOnlyVendor} />}
      </DialogContent>
    </Dialog>
  );
}
