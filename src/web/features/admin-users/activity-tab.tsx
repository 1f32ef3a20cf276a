import { apiErrorMessage } from "@web/lib/api-client";
import { useEffect, useId, useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router";
import { AUDIT_LOG_EXPORT_KIND, type AuditEntry } from "@contract/audit-log";
import { useWriteAccess } from "@web/app/current-user";
import { Button } from "@web/components/ui/button";
import { Card, CardContent } from "@web/components/ui/card";
import { DisabledReason } from "@web/components/ui/disabled-reason";
import { Input } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { LoadErrorCard } from "@web/components/ui/load-error-card";
import { Spinner } from "@web/components/ui/spinner";
import { toast } from "@web/components/ui/toast";
import { downloadExport } from "@web/lib/download-export";
import { formatDateTime } from "@web/lib/format";
import { useLoadDelay } from "@web/lib/use-load-delay";
import { type ActivityFilters, activityQuery, useAuditLog } from "./admin-users-api";
import { AuditDiff } from "./audit-diff";

const FILTER_KEYS = ["actor", "action", "targetType", "targetId", "from", "to"] as const;
const EMPTY: ActivityFilters = { actor: "", action: "", targetType: "", targetId: "", from: "", to: "" };

/** Actions the panel writes today (the filter also takes any other, for actions added later). */
export const KNOWN_ACTIONS = [
  "vendor.enable",
  "vendor.disable",
  "vendor.delete",
  "settings.update",
  "error_logs.archive",
  "error_logs.archive_all",
  "error_logs.cleanup_archived",
  "invitation.create",
  "invitation.resend",
  "invitation.revoke",
  "invitation.accept",
  "user.role_change",
  "user.access_remove",
  "user.sessions_revoke",
  "auth.sign_in",
  "auth.sign_in_failed",
  "auth.lockout",
  "audit_log.retention",
];
const KNOWN_TARGET_TYPES = ["vendor", "settings", "error_log", "error_logs", "user", "invitation", "audit_log"];

function filtersOf(params: URLSearchParams): ActivityFilters {
  return Object.fromEntries(FILTER_KEYS.map((k) => [k, params.get(k) ?? ""])) as unknown as ActivityFilters;
}

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

/**
 * The Activity tab (docs/product.md §14.5): the audit log with filters kept in the URL, each entry's
 * before/after values on demand, links to what it concerned, and the same filter as CSV.
 */
export function ActivityTab() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = filtersOf(searchParams);
  const filterKey = JSON.stringify(filters);
  const [draft, setDraft] = useState<ActivityFilters>(filters);
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const [open, setOpen] = useState<Record<string, boolean>>({});
  const [exporting, setExporting] = useState(false);
  const ready = useLoadDelay();
  const log = useAuditLog(filters, cursors.at(-1) ?? null, ready);
  const { reason: readOnly } = useWriteAccess();
  const ids = { actor: useId(), action: useId(), targetType: useId(), targetId: useId(), from: useId(), to: useId(), actions: useId(), types: useId() };

  // Filters changed by a link or back/forward: the form and the paging follow.
  useEffect(() => {
    setDraft(JSON.parse(filterKey) as ActivityFilters);
    setCursors([null]);
  }, [filterKey]);

  const apply = (next: ActivityFilters) => {
    const params = new URLSearchParams({ tab: "activity" });
    for (const [key, value] of Object.entries(activityQuery(next))) params.set(key, value);
    setSearchParams(params, { replace: true });
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    apply(draft);
  };

  const onExport = async () => {
    setExporting(true);
    try {
      await downloadExport(AUDIT_LOG_EXPORT_KIND, activityQuery(filters));
    } catch (error) {
      toast({ title: `Failed to export: ${apiErrorMessage(error)}`, variant: "destructive" });
    } finally {
      setExporting(false);
    }
  };

  const set = (key: keyof ActivityFilters) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: e.target.value }));
  const entries = log.data?.entries;
  const filtered = Object.keys(activityQuery(filters)).length > 0;

  return (
    <div className="grid gap-4">
      <form onSubmit={onSubmit} className="grid gap-3 rounded-lg border border-gray-200 bg-white p-4" aria-label="Activity filters">
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          <div className="grid gap-1">
            <Label htmlFor={ids.actor}>Actor</Label>
            <Input id={ids.actor} type="email" placeholder="E-mail of who did it" value={draft.actor} onChange={set("actor")} />
          </div>
          <div className="grid gap-1">
            <Label htmlFor={ids.action}>Action</Label>
            <Input id={ids.action} list={ids.actions} placeholder="e.g. vendor.disable" value={draft.action} onChange={set("action")} />
            <datalist id={ids.actions}>
              {KNOWN_ACTIONS.map((a) => (
                <option key={a} value={a} />
              ))}
            </datalist>
          </div>
          <div className="grid gap-1">
            <Label htmlFor={ids.targetType}>Target type</Label>
            <Input id={ids.targetType} list={ids.types} placeholder="e.g. vendor" value={draft.targetType} onChange={set("targetType")} />
            <datalist id={ids.types}>
              {KNOWN_TARGET_TYPES.map((t) => (
                <option key={t} value={t} />
              ))}
            </datalist>
          </div>
          <div className="grid gap-1">
            <Label htmlFor={ids.targetId}>Target id</Label>
            <Input id={ids.targetId} placeholder="Needs a target type" value={draft.targetId} onChange={set("targetId")} disabled={draft.targetType.trim() === ""} />
          </div>
          <div className="grid gap-1">
            <Label htmlFor={ids.from}>From</Label>
            <Input id={ids.from} type="date" value={draft.from} onChange={set("from")} />
          </div>
          <div className="grid gap-1">
            <Label htmlFor={ids.to}>To</Label>
            <Input id={ids.to} type="date" value={draft.to} onChange={set("to")} />
          </div>
        </div>
        <div className="flex flex-wrap justify-end gap-2">
          <Button type="button" variant="outline" disabled={!filtered} onClick={() => apply(EMPTY)}>
            Clear filters
          </Button>
          <Button type="submit">Apply filters</Button>
          <DisabledReason reason={readOnly}>
            <Button type="button" variant="outline" disabled={exporting || readOnly !== undefined} onClick={() => void onExport()}>
              {exporting ? "Exporting…" : "Export CSV"}
            </Button>
          </DisabledReason>
        </div>
      </form>

      {log.isPending ? (
        <Spinner className="py-12" label="Loading activity" />
      ) : log.isError ? (
        <LoadErrorCard title="Error loading activity" message={apiErrorMessage(log.error)} onRetry={() => void log.refetch()} retrying={log.isFetching} />
      ) : entries && entries.length === 0 ? (
        <Card>
          <CardContent className="py-10 text-center text-gray-600">{filtered ? "No activity matches these filters." : "No activity yet."}</CardContent>
        </Card>
      ) : (
        entries && (
          <div className="grid gap-3">
            <ol className="grid gap-2" aria-label="Activity" aria-busy={log.isFetching}>
              {entries.map((entry) => (
                <ActivityEntry key={entry.id} entry={entry} open={open[entry.id] ?? false} onToggle={() => setOpen((o) => ({ ...o, [entry.id]: !o[entry.id] }))} onOnlyTarget={() => apply({ ...EMPTY, targetType: entry.target.type, targetId: entry.target.id })} />
              ))}
            </ol>
            <nav aria-label="Activity pages" className="flex items-center justify-between gap-2 text-sm text-gray-600">
              <span>Page {cursors.length}</span>
              <div className="flex gap-2">
                <Button size="sm" variant="outline" disabled={cursors.length <= 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
                  Previous
                </Button>
                <Button size="sm" variant="outline" disabled={!log.data?.nextCursor || log.isPlaceholderData} onClick={() => setCursors((c) => [...c, log.data?.nextCursor ?? null])}>
                  Next
                </Button>
              </div>
            </nav>
          </div>
        )
      )}
    </div>
  );
}

function ActivityEntry({ entry, open, onToggle, onOnlyTarget }: { entry: AuditEntry; open: boolean; onToggle: () => void; onOnlyTarget: () => void }) {
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
