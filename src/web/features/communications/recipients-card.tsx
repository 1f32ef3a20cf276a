import { RECIPIENT_STATUSES, type RecipientItem, type RecipientStatus } from "@contract/communications";
import { type Column, FilterBar, ListTable, Pager, SelectFilter, useKeysetPages, useUrlParams } from "@web/components/list";
import { Badge } from "@web/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@web/components/ui/card";
import { formatDateTime } from "@web/lib/format";
import { useRecipients } from "./communications-api";
import { RECIPIENT_STATUS_BADGE, RECIPIENT_STATUS_LABELS } from "./communications-text";

const columns: ReadonlyArray<Column<RecipientItem>> = [
  { id: "artist", header: "Artist", cell: (r) => r.vendorName },
  { id: "email", header: "E-mail", cell: (r) => r.email },
  { id: "status", header: "Status", cell: (r) => <Badge variant={RECIPIENT_STATUS_BADGE[r.status]}>{RECIPIENT_STATUS_LABELS[r.status]}</Badge> },
  { id: "attempts", header: "Attempts", className: "text-right", cell: (r) => r.attempts },
  { id: "error", header: "Last error", className: "max-w-md text-sm text-red-800", cell: (r) => r.lastError ?? "" },
  { id: "sent", header: "Sent", cell: (r) => (r.sentAt ? formatDateTime(r.sentAt) : "") },
];

const STATUS_OPTIONS = [{ value: "all" as const, label: "All statuses" }, ...RECIPIENT_STATUSES.map((s) => ({ value: s, label: RECIPIENT_STATUS_LABELS[s] }))];

/** An announcement's recipients (docs/product.md §17.4), filtered by status (`?status=` in the URL), page by page. */
export function RecipientsCard({ announcementId, live }: { announcementId: string; live: boolean }) {
  const [params] = useUrlParams();
  const value = params.get("status");
  const status: RecipientStatus | "all" = value !== null && (RECIPIENT_STATUSES as readonly string[]).includes(value) ? (value as RecipientStatus) : "all";
  const pages = useKeysetPages();
  const q = useRecipients(announcementId, status, pages.cursor, live);
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-end justify-between gap-3">
        <CardTitle>Recipients</CardTitle>
        <FilterBar>
          <SelectFilter id="recipients-status" label="Status" param="status" value={status} options={STATUS_OPTIONS} />
        </FilterBar>
      </CardHeader>
      <CardContent>
        <ListTable
          inline
          query={q}
          rowsOf={(d) => d.recipients}
          loadingLabel="Loading recipients"
          errorTitle="Failed to load recipients"
          emptyText={status === "all" ? "No e-mail recipients (dashboard only)." : `No ${RECIPIENT_STATUS_LABELS[status].toLowerCase()} recipients.`}
          footer={() => <Pager label="Recipient pages" {...pages.controls(q)} />}
          label="Recipients"
          columns={columns}
          rowKey={(r) => r.vendorId}
        />
      </CardContent>
    </Card>
  );
}
