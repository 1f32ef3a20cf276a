import { Link } from "react-router";
import { type AdminVendorRow, deleteVendorEndpoint, setVendorStatusEndpoint } from "@contract/vendors";
import { useEndpointAccess } from "@web/app/current-user";
import type { Column } from "@web/components/list";
import { Badge } from "@web/components/ui/badge";
import { Button, buttonVariants } from "@web/components/ui/button";
import { DisabledReason } from "@web/components/ui/disabled-reason";
import { formatCount, formatCurrency, formatDate } from "@web/lib/format";
import { storefrontLink } from "@web/lib/use-public-config";

interface VendorColumnsOptions {
  storefrontUrl: string;
  onStatus: (vendor: AdminVendorRow) => void;
  onDelete: (vendor: AdminVendorRow) => void;
}

/** The vendor list's columns (docs/product.md §4.1); a role the action's endpoint does not allow sees it disabled, with the reason (docs/product.md "Roles"). */
export function useVendorColumns({ storefrontUrl, onStatus, onDelete }: VendorColumnsOptions): Array<Column<AdminVendorRow>> {
  const status = useEndpointAccess(setVendorStatusEndpoint);
  const deletion = useEndpointAccess(deleteVendorEndpoint);
  const storeUrl = (v: AdminVendorRow) => storefrontLink(storefrontUrl, `/${v.slug}`);
  return [
    {
      id: "vendor",
      header: "Vendor",
      sortKey: "name",
      cell: (v) => (
        <div className="flex flex-wrap items-center gap-2">
          <Link to={`/vendors/${encodeURIComponent(v.id)}`} className="font-medium text-blue-700 hover:underline">
            {v.name}
          </Link>
          <Badge variant={v.isActive ? "success" : "destructive"}>{v.isActive ? "Active" : "Inactive"}</Badge>
          {v.isInternal && <Badge variant="info">Internal</Badge>}
        </div>
      ),
    },
    { id: "owner", header: "Owner", cell: (v) => v.owner },
    { id: "email", header: "Email", cell: (v) => v.email },
    { id: "store", header: "Store URL", className: "max-w-56 truncate", cell: storeUrl },
    { id: "products", header: "Products", sortKey: "products", className: "text-right", cell: (v) => formatCount(v.products) },
    { id: "revenue", header: "Revenue", sortKey: "revenue", className: "text-right", cell: (v) => formatCurrency(v.revenue) },
    { id: "joined", header: "Joined", sortKey: "joined", cell: (v) => formatDate(v.joinedDate) },
    {
      id: "actions",
      header: "Actions",
      hideHeader: true,
      cell: (v) => (
        <div className="flex justify-end gap-2">
          <a href={storeUrl(v)} target="_blank" rel="noopener noreferrer" className={buttonVariants({ variant: "outline", size: "sm" })} aria-label={`View store of ${v.name} (opens in a new tab)`}>
            View Store
          </a>
          <DisabledReason reason={status.reason}>
            <Button size="sm" variant="outline" disabled={!status.allowed} onClick={() => onStatus(v)} aria-label={`${v.isActive ? "Disable" : "Enable"} ${v.name}`}>
              {v.isActive ? "Disable" : "Enable"}
            </Button>
          </DisabledReason>
          <DisabledReason reason={deletion.reason}>
            <Button size="sm" variant="destructive" disabled={!deletion.allowed} onClick={() => onDelete(v)} aria-label={`Delete ${v.name}`}>
              Delete
            </Button>
          </DisabledReason>
        </div>
      ),
    },
  ];
}
