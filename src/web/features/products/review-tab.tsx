import { useState } from "react";
import { bulkApproveReviewEndpoint, decideReviewEndpoint, type ReviewItem, type ReviewResponse } from "@contract/products";
import { useEndpointAccess } from "@web/app/current-user";
import { BulkApproval, type Column, ListTable, Pager, useKeysetPages, useQueryRowSelection } from "@web/components/list";
import { WriteButton } from "@web/components/ui/write-button";
import { apiErrorMessage } from "@web/lib/api-client";
import { countOf, formatCurrency, formatDateTime } from "@web/lib/format";
import { useBulkApproveReview, useReviewQueue } from "./products-api";
import { type ReviewTarget, ReviewDialog } from "./review-dialog";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** How long a listing has waited: '5 hours', '1 day', '12 days'. */
export function waitingFor(createdAt: string, now = Date.now()): string {
  const ms = Math.max(0, now - Date.parse(createdAt));
  return ms < DAY_MS ? countOf(Math.floor(ms / HOUR_MS), "hour") : countOf(Math.floor(ms / DAY_MS), "day");
}

const idsOf = (data: ReviewResponse) => data.products.map((p) => p.id);

/**
 * The Review tab (docs/product.md §20.4): new listings waiting for review, oldest first, with how
 * long each has waited and its artist's takedowns; approve or reject each (a reject with the reason
 * the artist is shown), or approve the selected ones at once (all or nothing).
 */
export function ReviewTab() {
  const pages = useKeysetPages("review");
  const list = useReviewQueue(pages.cursor);
  const { allowed: canWrite } = useEndpointAccess(bulkApproveReviewEndpoint);
  const selection = useQueryRowSelection(list, idsOf, canWrite);
  const [target, setTarget] = useState<ReviewTarget | null>(null);
  const bulk = useBulkApproveReview();

  const columns: Array<Column<ReviewItem>> = [
    { id: "listing", header: "Listing", cell: (p) => <span className="font-medium">{p.name}</span> },
    { id: "artist", header: "Artist", cell: (p) => p.vendorName },
    {
      id: "takedowns",
      header: "Takedowns",
      className: "text-right",
      cell: (p) => (p.vendorTakedowns > 0 ? <strong className="text-red-700">{p.vendorTakedowns}</strong> : 0),
    },
    { id: "price", header: "Price", className: "text-right", cell: (p) => formatCurrency(p.price) },
    { id: "submitted", header: "Submitted", cell: (p) => formatDateTime(p.createdAt) },
    { id: "waiting", header: "Waiting", cell: (p) => waitingFor(p.createdAt) },
    {
      id: "decide",
      header: "Decision",
      hideHeader: true,
      cell: (p) => (
        <div className="flex justify-end gap-2">
          <WriteButton endpoint={decideReviewEndpoint} size="sm" onClick={() => setTarget({ decision: "approve", item: p })} aria-label={`Approve ${p.name}`}>
            Approve
          </WriteButton>
          <WriteButton endpoint={decideReviewEndpoint} size="sm" variant="outline" onClick={() => setTarget({ decision: "reject", item: p })} aria-label={`Reject ${p.name}`}>
            Reject…
          </WriteButton>
        </div>
      ),
    },
  ];

  return (
    <div className="grid gap-4">
      {canWrite && (
        <BulkApproval
          selection={selection}
          noun="listing"
          consequence="Each goes live as its artist has it and each artist is e-mailed; all of them are approved, or none is."
          approve={(ids) => bulk.mutateAsync({ ids, reason: "" })}
          pending={bulk.isPending}
        />
      )}
      <ListTable
        query={list}
        rowsOf={(data) => data.products}
        loadingLabel="Loading listings waiting for review"
        errorTitle="Error Loading the Review Queue"
        errorMessage={apiErrorMessage}
        emptyText="No listings are waiting for review."
        footer={(data) => <Pager label="Review pages" summary={`${countOf(data.total, "listing")} waiting · page ${pages.page}`} {...pages.controls(list)} />}
        framed
        label="Listings waiting for review"
        columns={columns}
        rowKey={(p) => p.id}
        rowName={(p) => p.name}
        rowProps={(p) => ({ "data-testid": `review-row-${p.id}` })}
        selection={canWrite ? selection : undefined}
      />
      <ReviewDialog target={target} onClose={() => setTarget(null)} />
    </div>
  );
}
