import { Link, useParams } from "react-router";
import { Badge } from "@web/components/ui/badge";
import { Card, CardContent } from "@web/components/ui/card";
import { Spinner } from "@web/components/ui/spinner";
import { UrlTabs } from "@web/components/ui/url-tabs";
import { useLoadDelay } from "@web/lib/use-load-delay";
import { CustomizationTab } from "./detail/customization-tab";
import { OverviewTab } from "./detail/overview-tab";
import { PayoutsTab } from "./detail/payouts-tab";
import { ProductsTab } from "./detail/products-tab";
import { SalesTab } from "./detail/sales-tab";
import { StatementTab } from "./detail/statement-tab";
import { FeatureArtistCard } from "./detail/feature-artist-card";
import { StatusHistoryCard } from "./detail/status-history-card";
import { SettingsTab, SuspendedBanner, useStatusChange } from "./detail/status-controls";
import { useVendorDetail } from "./vendors-api";

/** Vendor detail (docs/product.md §4.4): header, the suspended banner, and one file per tab; the tab lives in the URL (?tab=). */
export default function VendorDetailPage() {
  const { vendorId = "" } = useParams();
  // docs/product.md §2.5: data loading starts 100 ms after the screen opens.
  const ready = useLoadDelay();
  const detail = useVendorDetail(vendorId, ready);
  const status = useStatusChange(vendorId);

  if (detail.isPending) return <Spinner className="py-12" label="Loading vendor" />;
  if (detail.isError) {
    // docs/product.md §4.4: the failure is only logged; the screen says 'Vendor not found'.
    console.error(detail.error);
    return (
      <section className="grid gap-4">
        <Card>
          <CardContent className="py-10 text-center text-gray-700">Vendor not found</CardContent>
        </Card>
        <Link to="/vendors" className="text-blue-700 hover:underline">
          Back to Vendors
        </Link>
      </section>
    );
  }
  const vendor = detail.data;
  const suspended = vendor.status === "suspended";

  return (
    <section aria-labelledby="page-title" className="grid gap-6">
      <div className="grid gap-1">
        <Link to="/vendors" className="text-sm text-blue-700 hover:underline">
          ← Vendors
        </Link>
        <div className="flex flex-wrap items-center gap-2">
          <h1 id="page-title" className="text-2xl font-bold">
            {vendor.name}
          </h1>
          <Badge variant={suspended ? "destructive" : "success"}>{suspended ? "Suspended" : "Active"}</Badge>
          {vendor.isInternal && <Badge variant="info">Internal</Badge>}
        </div>
        <p className="text-gray-600">
          {vendor.owner} · {vendor.email} · /{vendor.slug}
        </p>
        <Link to={`/admin-users?tab=activity&targetType=vendor&targetId=${encodeURIComponent(vendor.id)}`} className="text-sm text-blue-700 hover:underline">
          View activity
        </Link>
      </div>

      <SuspendedBanner vendor={vendor} status={status} />

      <UrlTabs
        fallback="overview"
        tabs={[
          { value: "overview", label: "Overview", panel: <OverviewTab vendor={vendor} /> },
          { value: "products", label: "Products", panel: <ProductsTab vendorId={vendor.id} /> },
          { value: "customization", label: "Customization", panel: <CustomizationTab vendor={vendor} /> },
          { value: "sales", label: "Sales", panel: <SalesTab vendorId={vendor.id} /> },
          { value: "payouts", label: "Payouts", panel: <PayoutsTab vendorId={vendor.id} /> },
          { value: "statement", label: "Statement", panel: <StatementTab vendorId={vendor.id} /> },
          {
            value: "settings",
            label: "Settings",
            panel: (
              <div className="grid gap-4">
                <SettingsTab vendor={vendor} status={status} />
                <StatusHistoryCard vendor={vendor} />
                <FeatureArtistCard vendor={vendor} />
              </div>
            ),
          },
        ]}
      />
    </section>
  );
}
