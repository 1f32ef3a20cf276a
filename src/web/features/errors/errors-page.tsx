import { useState } from "react";
import { useSearchParams } from "react-router";
import type { ErrorLevel, ErrorLevelCounts, ErrorLogEntry } from "@contract/error-logs";
import { ConfirmDialog } from "@web/components/ui/alert-dialog";
import { Button } from "@web/components/ui/button";
import { Card, CardContent } from "@web/components/ui/card";
import { Spinner } from "@web/components/ui/spinner";
import { toast } from "@web/components/ui/toast";
import { cn } from "@web/lib/cn";
import { formatRelativeTime, levelColorClasses } from "@web/lib/format";
import { useLoadDelay } from "@web/lib/use-load-delay";
import { ErrorDetailDialog } from "./error-detail-dialog";
import { ERROR_PAGE_SIZE, useArchiveAll, useArchiveError, useCleanupArchived, useErrorList, type ErrorListParams } from "./errors-api";
import { LoadErrorCard } from "@web/components/ui/load-error-card";
import { DisabledReason } from "@web/components/ui/disabled-reason";
import { useWriteAccess } from "@web/app/current-user";

const LEVELS: readonly ErrorLevel[] = ["error", "warning", "info"];
export const CLEANUP_CONFIRM_TEXT = "This will permanently delete all archived errors older than 30 days. Are you sure?";

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function readLevel(value: string | null): ErrorLevel | null {
  return LEVELS.find((l) => l === value) ?? null;
}

/** Error Logs (docs/product.md §5.1): active/archived views, level cards, archive, archive all, cleanup, details. */
export default function ErrorsPage() {
  // View and level live in the URL (?archived=true&level=warning), so reload and back keep them.
  const [searchParams, setSearchParams] = useSearchParams();
  const archived = searchParams.get("archived") === "true";
  const level = readLevel(searchParams.get("level"));

  const setFilter = (next: { archived?: boolean; level?: ErrorLevel | null }) => {
    setSearchParams((prev) => {
      const merged = new URLSearchParams(prev);
      const nextArchived = next.archived ?? archived;
      const nextLevel = next.level === undefined ? level : next.level;
      if (nextArchived) merged.set("archived", "true");
      else merged.delete("archived");
      if (nextLevel) merged.set("level", nextLevel);
      else merged.delete("level");
      return merged;
    });
  };

  // A new view or level starts again at its first page (the key resets the cursor stack).
  return <ErrorLogsView key={`${archived}:${level ?? "all"}`} archived={archived} level={level} setFilter={setFilter} />;
}

interface ViewProps {
  archived: boolean;
  level: ErrorLevel | null;
  setFilter: (next: { archived?: boolean; level?: ErrorLevel | null }) => void;
}

function ErrorLogsView({ archived, level, setFilter }: ViewProps) {
  // Cursors of the pages before the current one: Previous pops, Next pushes (keyset paging).
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const cursor = cursors[cursors.length - 1] ?? null;
  const params: ErrorListParams = { archived, level, cursor };
  const ready = useLoadDelay();
  const list = useErrorList(params, ready);
  const archiveOne = useArchiveError();
  const archiveAll = useArchiveAll();
  const cleanup = useCleanupArchived();
  // Viewers see archive, archive all and cleanup disabled, with the reason (docs/product.md §1.3).
  const { canWrite, reason: readOnly } = useWriteAccess();
  const [selected, setSelected] = useState<ErrorLogEntry | null>(null);
  const [confirmCleanup, setConfirmCleanup] = useState(false);
  const data = list.data;

  const onArchive = (entry: ErrorLogEntry) =>
    archiveOne.mutate(entry.id, {
      onSuccess: (res) => toast({ title: res.message, variant: "success" }),
      onError: () => toast({ title: "Failed to archive error", variant: "destructive" }),
    });
  const onArchiveAll = () =>
    archiveAll.mutate(level, {
      onSuccess: (res) => {
        setCursors([null]);
        toast({ title: res.message, variant: "success" });
      },
      onError: () => toast({ title: "Failed to archive errors", variant: "destructive" }),
    });
  const onCleanup = () => {
    setConfirmCleanup(false);
    cleanup.mutate(undefined, {
      onSuccess: (res) => {
        setCursors([null]);
        toast({ title: res.message, variant: "success" });
      },
      onError: () => toast({ title: "Failed to cleanup archived errors", variant: "destructive" }),
    });
  };

  return (
    <section aria-labelledby="page-title" className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h1 id="page-title" className="text-2xl font-bold">
            Error Logs
          </h1>
          <p className="text-gray-600">{archived ? "Archived errors" : "Active errors"}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => setFilter({ archived: !archived })}>
            {archived ? "View Active" : "View Archived"}
          </Button>
          <Button variant="outline" onClick={() => void list.refetch()} disabled={list.isFetching}>
            Refresh
          </Button>
          <DisabledReason reason={readOnly}>
            {archived ? (
              <Button variant="destructive" onClick={() => setConfirmCleanup(true)} disabled={cleanup.isPending || !canWrite}>
                Cleanup Old Archives
              </Button>
            ) : (
              <Button onClick={onArchiveAll} disabled={archiveAll.isPending || data?.total === 0 || !canWrite}>
                {level ? `Archive All ${capitalise(level)}` : "Archive All"}
              </Button>
            )}
          </DisabledReason>
        </div>
      </div>

      <LevelCards counts={data?.counts} level={level} onSelect={(l) => setFilter({ level: l })} />

      {list.isPending ? (
        <Spinner className="py-12" label="Loading error logs" />
      ) : list.isError ? (
        <LoadErrorCard title="Error loading error logs" message={list.error.message} onRetry={() => void list.refetch()} retrying={list.isFetching} />
      ) : data && data.errors.length === 0 ? (
        <Card>
          <CardContent className="py-10 text-center text-gray-600">No error logs found</CardContent>
        </Card>
      ) : (
        data && (
          <div className="grid gap-3">
            <ul className="grid gap-2" aria-label="Error logs" aria-busy={list.isFetching}>
              {data.errors.map((entry) => (
                <ErrorRow
                  key={entry.id}
                  entry={entry}
                  onOpen={() => setSelected(entry)}
                  onArchive={() => onArchive(entry)}
                  archiving={archiveOne.isPending && archiveOne.variables === entry.id}
                  readOnly={readOnly}
                />
              ))}
            </ul>
            <nav aria-label="Pagination" className="flex items-center justify-between gap-2">
              <p className="text-sm text-gray-600">
                Page {cursors.length} of {Math.max(1, Math.ceil(data.total / ERROR_PAGE_SIZE)).toLocaleString("en-US")} ·{" "}
                {data.total.toLocaleString("en-US")} total
              </p>
              <div className="flex gap-2">
                <Button variant="outline" size="sm" disabled={cursors.length <= 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
                  Previous
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={!data.nextCursor || list.isPlaceholderData}
                  onClick={() => data.nextCursor && setCursors((c) => [...c, data.nextCursor])}
                >
                  Next
                </Button>
              </div>
            </nav>
          </div>
        )
      )}

      <ErrorDetailDialog entry={selected} onClose={() => setSelected(null)} />

      <ConfirmDialog
        open={confirmCleanup}
        onOpenChange={setConfirmCleanup}
        title="Cleanup Old Archives"
        description={CLEANUP_CONFIRM_TEXT}
        confirmLabel="Delete"
        confirmVariant="destructive"
        onConfirm={onCleanup}
      />
    </section>
  );
}

const CARDS: Array<{ key: keyof ErrorLevelCounts; label: string; level: ErrorLevel | null }> = [
  { key: "all", label: "All", level: null },
  { key: "error", label: "Error", level: "error" },
  { key: "warning", label: "Warning", level: "warning" },
  { key: "info", label: "Info", level: "info" },
];

function LevelCards({
  counts,
  level,
  onSelect,
}: {
  counts: ErrorLevelCounts | undefined;
  level: ErrorLevel | null;
  onSelect: (level: ErrorLevel | null) => void;
}) {
  return (
    <div className="grid grid-cols-2 gap-4 md:grid-cols-4" role="group" aria-label="Filter by level">
      {CARDS.map((card) => {
        const active = card.level === level;
        const count = counts?.[card.key];
        return (
          <button
            key={card.key}
            type="button"
            aria-pressed={active}
            data-testid={`error-card-${card.key}`}
            onClick={() => onSelect(card.level)}
            className={cn(
              "rounded-lg border bg-white p-4 text-left shadow-sm transition focus:outline-none focus-visible:ring-2 focus-visible:ring-gray-900",
              active ? "border-gray-900 ring-2 ring-gray-900" : "border-gray-200 hover:border-gray-400",
            )}
          >
            <span className="flex items-center gap-2 text-sm font-medium text-gray-600">
              {card.level && <span aria-hidden className={cn("h-2.5 w-2.5 rounded-full border", levelColorClasses(card.level))} />}
              {card.label}
            </span>
            <span className="mt-1 block text-2xl font-bold" data-testid={`error-count-${card.key}`}>
              {count === undefined ? "—" : count.toLocaleString("en-US")}
            </span>
          </button>
        );
      })}
    </div>
  );
}

function ErrorRow({
  entry,
  onOpen,
  onArchive,
  archiving,
  readOnly,
}: {
  entry: ErrorLogEntry;
  onOpen: () => void;
  onArchive: () => void;
  archiving: boolean;
  /** Why archiving is disabled (a viewer's session), if it is. */
  readOnly: string | undefined;
}) {
  return (
    <li
      className="flex cursor-pointer items-start justify-between gap-4 rounded-lg border border-gray-200 bg-white p-4 shadow-sm hover:bg-gray-50"
      data-testid="error-row"
      onClick={onOpen}
    >
      <div className="grid min-w-0 gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className={cn("rounded-full border px-2 py-0.5 text-xs font-semibold", levelColorClasses(entry.level))}>{entry.level}</span>
          {entry.status_code !== null && <span className="text-xs font-medium text-gray-700">Status {entry.status_code}</span>}
        </div>
        {/* The message is the keyboard way into the details; the whole row is the mouse way. */}
        <button
          type="button"
          className="truncate text-left font-medium text-gray-900 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-gray-900"
          onClick={(e) => {
            e.stopPropagation();
            onOpen();
          }}
        >
          {entry.message}
        </button>
        <p className="text-sm text-gray-600">
          {entry.method && <span className="font-mono">{entry.method} </span>}
          {entry.endpoint ?? "—"}
        </p>
        <p className="flex flex-wrap gap-x-4 text-xs text-gray-500">
          <span>{entry.user_email ?? "Anonymous"}</span>
          <span>{formatRelativeTime(entry.created_at)}</span>
          {entry.archived_at && <span>Archived {formatRelativeTime(entry.archived_at)}</span>}
        </p>
      </div>
      {!entry.archived_at && (
        <DisabledReason reason={readOnly}>
          <Button
            variant="outline"
            size="sm"
            aria-label={`Archive: ${entry.message}`}
            disabled={archiving || readOnly !== undefined}
            onClick={(e) => {
              e.stopPropagation();
              onArchive();
            }}
          >
            Archive
          </Button>
        </DisabledReason>
      )}
    </li>
  );
}
