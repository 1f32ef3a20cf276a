import { Link } from "react-router";
import { type ProductDetail, setProductStatusEndpoint } from "@contract/products";
import { Badge } from "@web/components/ui/badge";
import { Button } from "@web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@web/components/ui/dialog";
import { Spinner } from "@web/components/ui/spinner";
import { WriteButton } from "@web/components/ui/write-button";
import { apiErrorMessage } from "@web/lib/api-client";
import { formatCount, formatCurrency, formatDate, formatDateTime } from "@web/lib/format";
import { PRODUCT_BADGE, PRODUCT_STATUS_LABELS } from "@web/lib/labels";
import { useProductDetail } from "./products-api";

interface ProductDrawerProps {
  /** The product open (`?product=` in the URL), or null. */
  productId: string | null;
  onClose: () => void;
  onHide: (p: { id: string; name: string }) => void;
  onRestore: (p: { id: string; name: string }) => void;
  onOnlyVendor: (vendorId: string) => void;
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs text-gray-600">{label}</dt>
      <dd className="font-medium">{value}</dd>
    </div>
  );
}

function Body({ detail, onHide, onRestore, onOnlyVendor }: { detail: ProductDetail } & Omit<ProductDrawerProps, "productId" | "onClose">) {
  const { product, vendor, sales, history } = detail;
  return (
    <div className="grid gap-5">
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant={PRODUCT_BADGE[product.status]}>{PRODUCT_STATUS_LABELS[product.status]}</Badge>
        {product.status === "active" && (
          <WriteButton endpoint={setProductStatusEndpoint} size="sm" variant="destructive" onClick={() => onHide(product)}>
            Hide…
          </WriteButton>
        )}
        {product.status === "hidden" && (
          <WriteButton endpoint={setProductStatusEndpoint} size="sm" variant="outline" onClick={() => onRestore(product)}>
            Restore…
          </WriteButton>
        )}
      </div>
      {product.status === "hidden" && product.moderationReason && (
        <p className="rounded border border-red-200 bg-red-50 p-3 text-sm text-red-900" data-testid="product-hidden-reason">
          Hidden {product.moderatedAt ? formatDateTime(product.moderatedAt) : ""} by {product.moderatedBy ?? "an operator"}: {product.moderationReason}
        </p>
      )}
      <section aria-label="Sales figures">
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          <Figure label="Price" value={formatCurrency(product.price)} />
          <Figure label="Inventory" value={formatCount(product.inventory)} />
          <Figure label="Created" value={formatDate(product.createdAt)} />
          <Figure label="Units sold" value={formatCount(sales.sold)} />
          <Figure label="Revenue" value={formatCurrency(sales.revenue)} />
          <Figure label="Average unit price" value={sales.averageUnitPrice === null ? "No sales yet" : formatCurrency(sales.averageUnitPrice)} />
        </dl>
      </section>
      <section aria-label="Vendor" className="grid gap-1">
        <h3 className="text-sm font-semibold">Vendor</h3>
        <p>
          <Link to={`/vendors/${encodeURIComponent(vendor.id)}`} className="text-blue-700 hover:underline">
            {vendor.name}
          </Link>{" "}
          {!vendor.isActive && <Badge variant="warning">Disabled</Badge>}
        </p>
        <p className="text-sm text-gray-600">
          {formatCount(vendor.listedProducts)} listed of a limit of {formatCount(vendor.productLimit)}
          {vendor.listedProducts > vendor.productLimit && <strong className="text-red-700"> (over the limit)</strong>}
        </p>
        <Button size="sm" variant="link" className="justify-self-start px-0" onClick={() => onOnlyVendor(vendor.id)}>
          Show this vendor's products
        </Button>
      </section>
      <section aria-label="Moderation history" className="grid gap-2">
        <h3 className="text-sm font-semibold">Moderation history</h3>
        {history.length === 0 ? (
          <p className="text-sm text-gray-600">Never hidden or restored.</p>
        ) : (
          <ol className="grid gap-2 text-sm">
            {history.map((h) => (
              <li key={h.id} className="rounded border p-2">
                <span className="font-medium">{h.action === "hide" ? "Hidden" : "Restored"}</span> by {h.actorEmail}, {formatDateTime(h.createdAt)}
                {h.reason && <span className="block text-gray-700">Reason: {h.reason}</span>}
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

/** A product's figures, vendor and moderation history (docs/product.md §16), over the list; Escape closes it. */
export function ProductDrawer(props: ProductDrawerProps) {
  const { productId, onClose } = props;
  const detail = useProductDetail(productId);
  return (
    <Dialog open={productId !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{detail.data?.product.name ?? "Product"}</DialogTitle>
          <DialogDescription>{detail.data ? `Sold by ${detail.data.vendor.name}` : "The product, its sales and its moderation history"}</DialogDescription>
        </DialogHeader>
        {detail.isPending && <Spinner className="py-8" label="Loading the product" />}
        {detail.isError && (
          <div role="alert" className="grid justify-items-start gap-2">
            <p className="text-red-700">Failed to load the product: {apiErrorMessage(detail.error)}</p>
            <Button size="sm" variant="outline" onClick={() => void detail.refetch()} disabled={detail.isFetching}>
              Try Again
            </Button>
          </div>
        )}
        {detail.data && <Body detail={detail.data} {...props} />}
      </DialogContent>
    </Dialog>
  );
}
