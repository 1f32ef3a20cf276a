import { useState, type ReactNode } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import type { VendorDetail } from "@contract/vendors";
import { Badge } from "@web/components/ui/badge";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@web/components/ui/card";
import { Spinner } from "@web/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@web/components/ui/table";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@web/components/ui/tabs";
import { toast } from "@web/components/ui/toast";
import { formatCurrency, formatDate, formatDateTime } from "@web/lib/format";
import { apiErrorMessage } from "@web/lib/api-client";
import { useLoadDelay } from "@web/lib/use-load-delay";
import { DisabledReason } from "@web/components/ui/disabled-reason";
import { useWriteAccess } from "@web/app/current-user";
import {
  errorMessage,
  useRefreshPayoutAccount,
  useSetVendorStatus,
  useVendorDetail,
  useVendorPayouts,
  useVendorProducts,
  useVendorSales,
  VENDOR_TAB_PAGE_SIZE,
} from "./vendors-api";

const TABS = ["overview", "products", "customization", "sales", "payouts", "settings"] as const;
type Tab = (typeof TABS)[number];
const TAB_LABELS: Record<Tab, string> = {
  overview: "Overview",
  products: "Products",
  customization: "Customization",
  sales: "Sales",
  payouts: "Payouts",
  settings: "Settings",
};

/** Vendor detail (docs/product.md §4.4): the tab lives in the URL (?tab=) so it survives a reload. */
export default function VendorDetailPage() {
  const { vendorId = "" } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const tabParam = searchParams.get("tab");
  const tab: Tab = TABS.includes(tabParam as Tab) ? (tabParam as Tab) : "overview";
  // docs/product.md §2.5: data loading starts 100 ms after the screen opens.
  const ready = useLoadDelay();
  const detail = useVendorDetail(vendorId, ready);
  const setStatus = useSetVendorStatus();
  // Viewers see the status actions disabled, with the reason (docs/product.md §1.3).
  const { canWrite, reason: readOnly } = useWriteAccess();

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

  // docs/product.md §4.5: isActive true when the new status is active, otherwise false.
  const changeStatus = (nextStatus: "active" | "suspended") => {
    const isActive = nextStatus === "active";
    setStatus.mutate(
      { id: vendor.id, isActive },
      {
        onSuccess: () => toast({ title: isActive ? "Vendor reactivated" : "Vendor suspended", variant: "success" }),
        onError: (error) =>
          toast({ title: `Failed to ${isActive ? "enable" : "disable"} vendor: ${errorMessage(error)}`, variant: "destructive" }),
      },
    );
  };

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

      {suspended && (
        <div role="status" className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-yellow-300 bg-yellow-50 p-4 text-yellow-900">
          <span>This vendor is suspended: the store is hidden and the vendor cannot use their dashboard.</span>
          <DisabledReason reason={readOnly}>
            <Button onClick={() => changeStatus("active")} disabled={setStatus.isPending || !canWrite}>
              Reactivate Vendor
            </Button>
          </DisabledReason>
        </div>
      )}

      <Tabs
        value={tab}
        onValueChange={(value) =>
          setSearchParams(
            (prev) => {
              const next = new URLSearchParams(prev);
              next.set("tab", value);
              return next;
            },
            { replace: true },
          )
        }
      >
        <TabsList>
          {TABS.map((t) => (
            <TabsTrigger key={t} value={t}>
              {TAB_LABELS[t]}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="overview">
          <Overview vendor={vendor} />
        </TabsContent>
        <TabsContent value="products">
          <ProductsTab vendorId={vendor.id} active={tab === "products"} />
        </TabsContent>
        <TabsContent value="customization">
          <CustomizationTab vendor={vendor} />
        </TabsContent>
        <TabsContent value="sales">
          <SalesTab vendorId={vendor.id} active={tab === "sales"} />
        </TabsContent>
        <TabsContent value="payouts">
          <PayoutsTab vendorId={vendor.id} active={tab === "payouts"} />
        </TabsContent>
        <TabsContent value="settings">
          <Card>
            <CardHeader>
              <CardTitle>Vendor status</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-3">
              <p className="text-gray-600">
                {suspended
                  ? "The vendor is suspended. Activating makes the store visible again and restores dashboard access."
                  : "Suspending hides the store from public listings and blocks dashboard access; all data is kept."}
              </p>
              <div>
                <DisabledReason reason={readOnly}>
                  {suspended ? (
                    <Button onClick={() => changeStatus("active")} disabled={setStatus.isPending || !canWrite}>
                      Activate Vendor
                    </Button>
                  ) : (
                    <Button variant="destructive" onClick={() => changeStatus("suspended")} disabled={setStatus.isPending || !canWrite}>
                      Suspend Vendor
                    </Button>
                  )}
                </DisabledReason>
              </div>
            </CardContent>
          </Card>
        </TabsContent>
      </Tabs>
    </section>
  );
}

function Stat({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader className="pb-2">
        <CardTitle className="text-sm font-medium text-gray-600">{label}</CardTitle>
      </CardHeader>
      <CardContent>
        <p className="text-2xl font-bold">{children}</p>
      </CardContent>
    </Card>
  );
}

function Overview({ vendor }: { vendor: VendorDetail }) {
  const s = vendor.stats;
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <Stat label="Products">{s.totalProducts.toLocaleString("en-US")}</Stat>
      <Stat label="Revenue">{formatCurrency(s.revenue)}</Stat>
      <Stat label="Member Since">{formatDate(vendor.joinedDate)}</Stat>
      <Stat label="Total Sales">{s.totalSales.toLocaleString("en-US")}</Stat>
      <Stat label="Average Order Value">{formatCurrency(s.avgOrderValue)}</Stat>
      <Stat label="Conversion Rate">{`${s.conversionRate.toFixed(2)}%`}</Stat>
      <Stat label="Last Sale">{s.lastSaleDate ? formatDate(s.lastSaleDate) : "Never"}</Stat>
    </div>
  );
}

function Pager({ page, total, onPage, label }: { page: number; total: number; onPage: (p: number) => void; label: string }) {
  const pages = Math.max(1, Math.ceil(total / VENDOR_TAB_PAGE_SIZE));
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-2 pt-3 text-sm text-gray-600">
      <span>
        Page {page} of {pages} · {total.toLocaleString("en-US")} in all
      </span>
      <div className="flex gap-2">
        <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <Button size="sm" variant="outline" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next
        </Button>
      </div>
    </nav>
  );
}

function TabState({ pending, error, empty, emptyText }: { pending: boolean; error: Error | null; empty: boolean; emptyText: string }) {
  if (pending) return <Spinner className="py-8" />;
  if (error) return <p role="alert" className="py-6 text-red-700">{error.message}</p>;
  if (empty) return <p className="py-6 text-center text-gray-600">{emptyText}</p>;
  return null;
}

function ProductsTab({ vendorId, active }: { vendorId: string; active: boolean }) {
  const [page, setPage] = useState(1);
  const q = useVendorProducts(vendorId, page, active);
  const state = <TabState pending={q.isPending} error={q.error} empty={q.data?.products.length === 0} emptyText="No products yet" />;
  return (
    <Card>
      <CardContent className="pt-6">
        {q.data && q.data.products.length > 0 ? (
          <>
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Product</TableHead>
                  <TableHead>Price</TableHead>
                  <TableHead>Inventory</TableHead>
                  <TableHead>Sold</TableHead>
                  <TableHead>Revenue</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {q.data.products.map((p) => (
                  <TableRow key={p.id}>
                    <TableCell>
                      {p.name} {p.status === "draft" && <Badge variant="secondary">Draft</Badge>}
                    </TableCell>
                    <TableCell>{formatCurrency(p.price)}</TableCell>
                    <TableCell>{p.inventory}</TableCell>
                    <TableCell>{p.sold}</TableCell>
                    <TableCell>{formatCurrency(p.revenue)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <Pager page={page} total={q.data.total} onPage={setPage} label="Product pages" />
          </>
        ) : (
          state
        )}
      </CardContent>
    </Card>
  );
}

function SalesTab({ vendorId, active }: { vendorId: string; active: boolean }) {
  const [page, setPage] = useState(1);
  const q = useVendorSales(vendorId, page, active);
  const state = <TabState pending={q.isPending} error={q.error} empty={q.data?.sales.length === 0} emptyText="No sales yet" />;
  return (
    <Card>
      <CardContent className="pt-6">
        {q.data && q.data.sales.length > 0 ? (
          <>
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Date</TableHead>
                  <TableHead>Product</TableHead>
                  <TableHead>Items</TableHead>
                  <TableHead>Total</TableHead>
                  <TableHead>Platform Fee</TableHead>
                  <TableHead>Status</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {q.data.sales.map((o) => (
                  <TableRow key={o.id}>
                    <TableCell>{formatDate(o.date)}</TableCell>
                    <TableCell>{o.productName}</TableCell>
                    <TableCell>{o.items}</TableCell>
                    <TableCell>{formatCurrency(o.total)}</TableCell>
                    <TableCell>{formatCurrency(o.platformFee)}</TableCell>
                    <TableCell className="capitalize">{o.status}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <Pager page={page} total={q.data.total} onPage={setPage} label="Sales pages" />
          </>
        ) : (
          state
        )}
      </CardContent>
    </Card>
  );
}

function ColorSwatch({ label, color }: { label: string; color: string }) {
  // Only a plain hex colour reaches the style attribute.
  const safe = /^#[0-9a-f]{3,8}$/i.test(color) ? color : "transparent";
  return (
    <div className="flex items-center gap-2">
      <span aria-hidden="true" className="inline-block h-6 w-6 rounded border border-gray-300" style={{ backgroundColor: safe }} />
      <span>
        {label}: <code>{color}</code>
      </span>
    </div>
  );
}

function CustomizationTab({ vendor }: { vendor: VendorDetail }) {
  const c = vendor.customization;
  return (
    <Card>
      <CardContent className="grid gap-4 pt-6">
        <p>
          Theme: <strong>{c.theme}</strong>
        </p>
        <ColorSwatch label="Primary color" color={c.primaryColor} />
        <ColorSwatch label="Secondary color" color={c.secondaryColor} />
        <div>
          <h3 className="font-semibold">About</h3>
          <p className="whitespace-pre-wrap text-gray-700">{c.about || "—"}</p>
        </div>
        <div>
          <h3 className="font-semibold">Custom CSS</h3>
          <p className="text-xs text-gray-500">Sanitized: scripts, expressions, imports and remote URLs removed.</p>
          <pre className="mt-1 max-h-64 overflow-auto rounded bg-gray-100 p-3 text-xs">{c.customCSS || "(none)"}</pre>
        </div>
        {c.customHTML !== null && (
          <div>
            <h3 className="font-semibold">Custom HTML</h3>
            <p className="text-xs text-gray-500">Sanitized against XSS; shown in a sandboxed frame where nothing runs.</p>
            <pre className="mt-1 max-h-40 overflow-auto rounded bg-gray-100 p-3 text-xs">{c.customHTML}</pre>
            <iframe
              title="Custom HTML preview"
              sandbox=""
              srcDoc={c.customHTML}
              className="mt-2 h-48 w-full rounded border border-gray-200 bg-white"
            />
          </div>
        )}
      </CardContent>
    </Card>
  );
}

const ACCOUNT_LABELS = { active: "Active", pending: "Pending", restricted: "Restricted", not_connected: "Not connected" } as const;
const ACCOUNT_VARIANTS = { active: "success", pending: "warning", restricted: "destructive", not_connected: "secondary" } as const;
const PAYOUT_LABELS = { pending: "Pending", processing: "Processing", paid: "Paid", failed: "Failed", canceled: "Canceled" } as const;

/** Payout account (with a refresh from Stripe), what the vendor is owed, and its latest payouts (docs/product.md §15.4). */
function PayoutsTab({ vendorId, active }: { vendorId: string; active: boolean }) {
  const { canWrite, reason: readOnly } = useWriteAccess();
  const q = useVendorPayouts(vendorId, active);
  const refresh = useRefreshPayoutAccount();
  if (q.isPending) return <Spinner className="py-8" label="Loading payouts" />;
  if (q.isError) return <p role="alert" className="py-6 text-red-700">{q.error.message}</p>;
  const { account, money, recentPayouts } = q.data;
  const due = account.requirements ? [...new Set([...account.requirements.pastDue, ...account.requirements.currentlyDue])] : [];
  return (
    <div className="grid gap-4">
      <Card>
        <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
          <CardTitle>Payout account</CardTitle>
          <DisabledReason reason={readOnly}>
          <Button
            variant="outline"
            disabled={refresh.isPending || account.stripeAccountId === null || !canWrite}
            onClick={() =>
              refresh.mutate(vendorId, {
                onSuccess: (data) => toast({ title: `Payout account is ${ACCOUNT_LABELS[data.account.status].toLowerCase()}`, variant: "success" }),
                onError: (error) => toast({ title: `Failed to refresh the payout account: ${apiErrorMessage(error)}`, variant: "destructive" }),
              })
            }
          >
            {refresh.isPending ? "Refreshing…" : "Refresh from Stripe"}
          </Button>
          </DisabledReason>
        </CardHeader>
        <CardContent className="grid gap-2 text-sm">
          <p>
            Status: <Badge variant={ACCOUNT_VARIANTS[account.status]}>{ACCOUNT_LABELS[account.status]}</Badge>
          </p>
          <p>
            Stripe account: <code>{account.stripeAccountId ?? "not connected"}</code>
          </p>
          {account.stripeAccountId && (
            <p>
              Charges {account.chargesEnabled ? "enabled" : "disabled"} · Payouts {account.payoutsEnabled ? "enabled" : "disabled"}
            </p>
          )}
          {due.length > 0 && <p className="text-yellow-800">Stripe still needs: {due.join(", ")}</p>}
          {account.requirements?.disabledReason && <p className="text-red-700">Disabled: {account.requirements.disabledReason}</p>}
          <p className="text-gray-600">{account.checkedAt ? `Checked ${formatDateTime(account.checkedAt)}` : "Never checked with Stripe"}</p>
        </CardContent>
      </Card>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Stat label="Balance">{formatCurrency(money.balance)}</Stat>
        <Stat label="Earned">{formatCurrency(money.earned)}</Stat>
        <Stat label="Paid Out">{formatCurrency(money.paidOut)}</Stat>
        <Stat label="In Flight">{formatCurrency(money.inFlight)}</Stat>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Last payouts</CardTitle>
        </CardHeader>
        <CardContent>
          {recentPayouts.length === 0 ? (
            <p className="py-4 text-center text-gray-600">No payouts yet</p>
          ) : (
            <Table aria-label="Last payouts">
              <TableHeader>
                <TableRow>
                  <TableHead>Date</TableHead>
                  <TableHead>Amount</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>Details</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {recentPayouts.map((p) => (
                  <TableRow key={p.id}>
                    <TableCell>{formatDateTime(p.paidAt ?? p.createdAt)}</TableCell>
                    <TableCell>{formatCurrency(p.amount)}</TableCell>
                    <TableCell>{PAYOUT_LABELS[p.status]}</TableCell>
                    <TableCell className="text-xs">{p.status === "failed" ? p.failureReason : (p.stripeTransferId ?? "")}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          <p className="pt-2 text-sm text-gray-600">Last payout: {money.lastPayoutAt ? formatDate(money.lastPayoutAt) : "Never"}</p>
        </CardContent>
      </Card>
    </div>
  );
}
