import type { ArtistStatus, VendorDetail, VendorStatusEntry } from "@contract/vendors";
import { type Column, DataTable } from "@web/components/list";
import { TitledCard } from "@web/components/ui/card";
import { formatDateTime } from "@web/lib/format";
import { TrustedControl } from "./trusted-control";

export const ARTIST_STATUS_LABELS: Record<ArtistStatus, string> = {
  active: "Active",
  inactive: "Suspended",
  pending: "Application pending",
  changes_requested: "Changes requested",
  rejected: "Rejected",
};

const ACTION_LABELS: Record<VendorStatusEntry["action"], string> = {
  disable: "Suspended",
  enable: "Reactivated",
  approve: "Application approved",
  reject: "Application rejected",
  request_changes: "Changes requested",
  apply: "Applied",
  trust: "Marked trusted",
  untrust: "No longer trusted",
};

const COLUMNS: ReadonlyArray<Column<VendorStatusEntry>> = [
  { id: "when", header: "When", cell: (e) => formatDateTime(e.createdAt) },
  { id: "what", header: "Decision", cell: (e) => `${ACTION_LABELS[e.action]} (${ARTIST_STATUS_LABELS[e.fromStatus]} → ${ARTIST_STATUS_LABELS[e.toStatus]})` },
  { id: "who", header: "By", cell: (e) => e.actorEmail },
  { id: "why", header: "Reason", className: "text-sm", cell: (e) => e.reason ?? "—" },
];

/** The artist's status decisions with who, when and why (docs/product.md "Reasons for every decision"), its takedowns and whether it is trusted (its listings skip review). */
export function StatusHistoryCard({ vendor }: { vendor: VendorDetail }) {
  return (
    <TitledCard title="Status history" contentClassName="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-gray-700" data-testid="vendor-takedowns">
          Infringement takedowns: <strong>{vendor.takedowns}</strong>
          {vendor.trusted ? " · Trusted: listings go live without review" : " · Not trusted: new listings wait for review when the setting asks"}
        </p>
        <TrustedControl vendor={vendor} />
      </div>
      {vendor.statusHistory.length === 0 ? (
        <p className="py-2 text-gray-600">No status decisions yet</p>
      ) : (
        <DataTable label="Status history" columns={COLUMNS} rows={vendor.statusHistory} rowKey={(e) => e.id} />
      )}
    </TitledCard>
  );
}
