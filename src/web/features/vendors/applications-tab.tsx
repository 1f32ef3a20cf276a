import { useState } from "react";
import { type ApplicationItem, type ApplicationsResponse, bulkApproveApplicationsEndpoint } from "@contract/vendors";
import { useEndpointAccess } from "@web/app/current-user";
import { BulkApproval, type Column, ListTable, Pager, useKeysetPages, useQueryRowSelection } from "@web/components/list";
import { Button } from "@web/components/ui/button";
import { countOf, formatDateTime } from "@web/lib/format";
import { ApplicationReviewDialog } from "./application-review-dialog";
import { StatusReasonField, useStatusReason } from "./vendor-dialogs";
import { useApplications, useBulkApproveApplications } from "./vendors-api";

const DAY_MS = 86_400_000;

/** How long an application has waited: 'today', '1 day', '12 days'. */
export function waitedFor(appliedAt: string, now = Date.now()): string {
  const days = Math.floor((now - Date.parse(appliedAt)) / DAY_MS);
  return days <= 0 ? "today" : countOf(days, "day");
}

const idsOf = (data: ApplicationsResponse) => data.applications.map((a) => a.id);

/**
 * The Applications tab (docs/product.md §20.2): artists waiting for a decision, oldest first, with
 * how long each has waited; 'Review' opens one in full to decide it; the selected ones can be
 * approved at once (all or nothing).
 */
export function ApplicationsTab() {
  const pages = useKeysetPages("applications");
  const list = useApplications(pages.cursor);
  const { allowed: canWrite } = useEndpointAccess(bulkApproveApplicationsEndpoint);
  const selection = useQueryRowSelection(list, idsOf, canWrite);
  const [open, setOpen] = useState<ApplicationItem | null>(null);
  const note = useStatusReason();
  const bulk = useBulkApproveApplications();

  const columns: Array<Column<ApplicationItem>> = [
    { id: "artist", header: "Artist", cell: (a) => <span className="font-medium">{a.name}</span> },
    { id: "owner", header: "Owner", cell: (a) => `${a.owner} · ${a.email}` },
    { id: "applied", header: "Applied", cell: (a) => formatDateTime(a.appliedAt) },
    { id: "waiting", header: "Waiting", cell: (a) => waitedFor(a.appliedAt) },
    { id: "images", header: "Images", className: "text-right", cell: (a) => a.application?.sampleImageUrls.length ?? 0 },
    {
      id: "review",
      header: "Review",
      hideHeader: true,
      cell: (a) => (
        <Button size="sm" variant="outline" onClick={() => setOpen(a)} aria-label={`Review ${a.name}`}>
          Review
        </Button>
      ),
    },
  ];

  return (
    <div className="grid gap-4">
      {canWrite && (
        <BulkApproval
          selection={selection}
          noun="application"
          consequence="Each artist becomes active and is e-mailed; all of them are approved, or none is."
          approve={(ids) => bulk.mutateAsync({ ids, reason: note.reason })}
          pending={bulk.isPending}
          onClose={note.clear}
        >
          <StatusReasonField state={note} required={false} />
        </BulkApproval>
      )}
      <ListTable
        query={list}
        rowsOf={(data) => data.applications}
        loadingLabel="Loading applications"
        errorTitle="Error Loading Applications"
        errorMessage={(error) => error.message || "Failed to load applications"}
        emptyText="No applications are waiting."
        footer={(data) => <Pager label="Application pages" summary={`${countOf(data.total, "application")} waiting · page ${pages.page}`} {...pages.controls(list)} />}
        framed
        label="Applications"
        columns={columns}
        rowKey={(a) => a.id}
        rowName={(a) => a.name}
        rowProps={(a) => ({ "data-testid": `application-row-${a.slug}` })}
        selection={canWrite ? selection : undefined}
      />
      <ApplicationReviewDialog item={open} onClose={() => setOpen(null)} />
    </div>
  );
}
