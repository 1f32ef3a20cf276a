import { Link, useParams } from "react-router";
import type { AnnouncementItem } from "@contract/communications";
import { Card, CardContent, CardHeader, CardTitle } from "@web/components/ui/card";
import { LoadErrorCard } from "@web/components/ui/load-error-card";
import { PageHeader } from "@web/components/ui/page-header";
import { Spinner } from "@web/components/ui/spinner";
import { apiErrorMessage } from "@web/lib/api-client";
import { formatDateTime } from "@web/lib/format";
import { AnnouncementActions } from "./announcement-actions";
import { isInProgress, useAnnouncement } from "./communications-api";
import { audienceText, channelsText } from "./communications-text";
import { RecipientsCard } from "./recipients-card";
import { SendProgress } from "./send-progress";

/** One announcement (docs/product.md §17.4): what was sent to whom, its delivery, its actions and its recipients. */
export default function AnnouncementPage() {
  const { announcementId = "" } = useParams();
  const q = useAnnouncement(announcementId);
  return (
    <section aria-labelledby="page-title" className="grid gap-6">
      <Link to="/communications" className="text-sm text-blue-700 underline">
        ← Communications
      </Link>
      {q.isPending && <Spinner className="py-12" label="Loading announcement" />}
      {q.isError && <LoadErrorCard title="Error Loading Announcement" message={apiErrorMessage(q.error)} onRetry={() => void q.refetch()} retrying={q.isFetching} />}
      {q.data && <AnnouncementDetails announcement={q.data} />}
    </section>
  );
}

function AnnouncementDetails({ announcement: a }: { announcement: AnnouncementItem }) {
  const facts: Array<[string, string]> = [
    ["Sent", `${formatDateTime(a.createdAt)}${a.createdBy ? ` by ${a.createdBy}` : ""}`],
    ["Audience", audienceText(a)],
    ["Channels", channelsText(a)],
    ...(a.channels.includes("dashboard")
      ? ([
          [
            "Dashboard",
            a.takenDownAt ? `Taken down ${formatDateTime(a.takenDownAt)}` : a.onDashboard ? (a.showUntil ? `Showing until ${formatDateTime(a.showUntil)}` : "Showing until taken down") : "Ended",
          ],
        ] as Array<[string, string]>)
      : []),
  ];
  return (
    <>
      <PageHeader title={a.title}>
        <AnnouncementActions announcement={a} />
      </PageHeader>
      <Card>
        <CardHeader>
          <CardTitle>Delivery</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4">
          <SendProgress announcement={a} />
          <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1 text-sm">
            {facts.map(([term, value]) => (
              <div key={term} className="contents">
                <dt className="text-gray-600">{term}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          <details>
            <summary className="cursor-pointer text-sm text-gray-700">The e-mail</summary>
            <iframe title="E-mail as sent" sandbox="" srcDoc={a.html} className="mt-2 h-72 w-full rounded border border-gray-200 bg-white" />
          </details>
        </CardContent>
      </Card>
      <RecipientsCard announcementId={a.id} live={isInProgress(a)} />
    </>
  );
}
