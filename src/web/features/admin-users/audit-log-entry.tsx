import { useId } from "react";
import { Link } from "react-router";
import type { AuditEntry } from "@contract/audit-log";
import { Button } from "@web/components/ui/button";
import { formatDateTime } from "@web/lib/format";
import { AuditDiff } from "./audit-diff";

/** Where the screen about an entry's target is, if there is one. */
export function targetLink(entry: AuditEntry): string | null {
  const { type, id, label } = entry.target;
  switch (type) {
    case "vendor":
      return entry.action === "vendor.delete" ? null : `/vendors/${encodeURIComponent(id)}`;
    case "settings":
      return "/settings";
    case "error_log":
      return "/errors?archived=true";
    case "error_logs":
      return id === "archived" ? "/errors?archived=true" : "/errors";
    case "user":
      return `/admin-users?search=${encodeURIComponent(label ?? id)}`;
    case "invitation":
      return "/admin-users?tab=invitations";
    default:
      return null;
  }
}

/** One audit entry: action, target (a link to it), time, actor; 'Only this target'; the changes on demand. */
export function AuditLogEntry({ entry, open, onToggle, onOnlyTarget }: { entry: AuditEntry; open: boolean; onToggle: () => void; onOnlyTarget: () => void }) {
  const panelId = useId();
  const link = targetLink(entry);
  const label = entry.target.label ?? entry.target.id;
  return (
    <li className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm" data-testid="activity-entry">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1">
          <p className="flex flex-wrap items-center gap-2">
            <code className="rounded bg-gray-100 px-1.5 py-0.5 text-sm font-semibold">{entry.action}</code>
            <span className="text-sm text-gray-600">{entry.target.type}</span>
            {link ? (
              <Link to={link} className="text-sm font-medium text-blue-700 hover:underline">
                {label}
              </Link>
            ) : (
              <span className="text-sm font-medium">{label}</span>
            )}
          </p>
          <p className="text-xs text-gray-600">
            {formatDateTime(entry.createdAt)} · {entry.actor.email}
            {entry.actor.role ? ` (${entry.actor.role})` : ""}
          </p>
        </div>
        <div className="flex gap-2">
          <Button size="sm" variant="ghost" onClick={onOnlyTarget} aria-label={`Only activity of ${entry.target.type} ${label}`}>
            Only this target
          </Button>
          <Button size="sm" variant="outline" aria-expanded={open} aria-controls={panelId} onClick={onToggle}>
            {open ? "Hide changes" : "Show changes"}
          </Button>
        </div>
      </div>
      {open && (
        <div id={panelId} className="mt-3 grid gap-3">
          <AuditDiff before={entry.before} after={entry.after} details={entry.details} />
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-xs text-gray-600">
            <dt>IP address</dt>
            <dd>{entry.ipAddress ?? "—"}</dd>
            <dt>User agent</dt>
            <dd className="break-all">{entry.userAgent ?? "—"}</dd>
            <dt>Request id</dt>
            <dd className="font-mono">{entry.requestId ?? "—"}</dd>
          </dl>
        </div>
      )}
    </li>
  );
}
