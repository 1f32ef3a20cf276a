import { Link } from "react-router";
import type { AnnouncementItem } from "@contract/communications";
import { Badge } from "@web/components/ui/badge";
import { countOf, formatCount } from "@web/lib/format";
import { ANNOUNCEMENT_STATUS_BADGE, ANNOUNCEMENT_STATUS_LABELS, settledPercent } from "./communications-text";

/** How far an announcement's mails have gone: status, a bar, sent / failed / pending / canceled. */
export function SendProgress({ announcement: a, showLink = false }: { announcement: AnnouncementItem; showLink?: boolean }) {
  const percent = settledPercent(a);
  return (
    <div className="grid gap-2" data-testid="announcement-progress">
      <div className="flex flex-wrap items-center gap-3">
        <Badge variant={ANNOUNCEMENT_STATUS_BADGE[a.status]}>{ANNOUNCEMENT_STATUS_LABELS[a.status]}</Badge>
        <span className="text-sm text-gray-700">
          {a.recipients === 0
            ? "No e-mail to send"
            : `${formatCount(a.sent)} sent, ${formatCount(a.failed)} failed, ${formatCount(a.pending)} pending${a.canceled > 0 ? `, ${formatCount(a.canceled)} canceled` : ""} of ${countOf(a.recipients, "recipient")}`}
        </span>
        {showLink && (
          <Link className="text-sm text-blue-700 underline" to={`/communications/${a.id}`}>
            Open “{a.title}”
          </Link>
        )}
      </div>
      {a.recipients > 0 && (
        <div className="h-2 w-full overflow-hidden rounded bg-gray-200" role="progressbar" aria-label="Delivery progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
          <div className={a.failed > 0 ? "h-full bg-yellow-500" : "h-full bg-green-600"} style={{ width: `${percent}%` }} />
        </div>
      )}
    </div>
  );
}
