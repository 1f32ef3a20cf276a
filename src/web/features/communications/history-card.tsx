import { Link } from "react-router";
import type { AnnouncementItem } from "@contract/communications";
import { type Column, ListTable, Pager, useKeysetPages } from "@web/components/list";
import { Badge } from "@web/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { formatCount, formatDateTime } from "@web/lib/format";
import { useAnnouncementHistory } from "./communications-api";
import { ANNOUNCEMENT_STATUS_BADGE, ANNOUNCEMENT_STATUS_LABELS, audienceText, channelsText } from "./communications-text";

const columns: ReadonlyArray<Column<AnnouncementItem>> = [
  { id: "date", header: "Date", cell: (a) => formatDateTime(a.createdAt) },
  {
    id: "title",
    header: "Title",
    cell: (a) => (
      <Link className="font-medium text-blue-700 underline" to={`/communications/${a.id}`}>
        {a.title}
      </Link>
    ),
  },
  { id: "audience", header: "Audience", cell: (a) => audienceText(a) },
  { id: "channels", header: "Channels", cell: (a) => channelsText(a) + (a.onDashboard ? " (showing)" : "") },
  { id: "status", header: "Status", cell: (a) => <Badge variant={ANNOUNCEMENT_STATUS_BADGE[a.status]}>{ANNOUNCEMENT_STATUS_LABELS[a.status]}</Badge> },
  { id: "sent", header: "Sent", className: "text-right", cell: (a) => formatCount(a.sent) },
  { id: "failed", header: "Failed", className: "text-right", cell: (a) => formatCount(a.failed) },
  { id: "pending", header: "Pending", className: "text-right", cell: (a) => formatCount(a.pending) },
];

/** The history (docs/product.md §17.4): newest first, each with its delivery counts; a title opens its page. */
export function HistoryCard() {
  const pages = useKeysetPages("history");
  const q = useAnnouncementHistory(pages.cursor);
  return (
    <Card>
      <CardHeader>
        <CardTitle>History</CardTitle>
        <CardDescription>Announcements sent, newest first</CardDescription>
      </CardHeader>
      <CardContent>
        <ListTable
          inline
          query={q}
          rowsOf={(d) => d.announcements}
          loadingLabel="Loading announcements"
          errorTitle="Failed to load announcements"
          emptyText="No announcements yet."
          footer={() => <Pager label="Announcement pages" {...pages.controls(q)} />}
          label="Announcements"
          columns={columns}
          rowKey={(a) => a.id}
        />
      </CardContent>
    </Card>
  );
}
