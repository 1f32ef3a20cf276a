import { useState } from "react";
import { archiveErrorLogEndpoint, type ErrorLevel, type ErrorListResponse, type ErrorLogEntry, type ErrorLogSort } from "@contract/error-logs";
import { useEndpointAccess } from "@web/app/current-user";
import { FilterBar, ListState, Pager, pageCountOf, SelectFilter, useKeysetPages, useQueryRowSelection, useUrlParams } from "@web/components/list";
import { toast } from "@web/components/ui/toast";
import { formatCount } from "@web/lib/format";
import { useLoadDelay } from "@web/lib/use-load-delay";
import { ErrorBulkArchive } from "./error-bulk-archive";
import { ErrorDetailDialog } from "./error-detail-dialog";
import { ErrorRow } from "./error-row";
import { ERROR_PAGE_SIZE, useArchiveError, useErrorList } from "./error-logs-api";
import { ErrorLogsHeader } from "./error-logs-header";
import { LevelCards } from "./level-cards";

export { CLEANUP_CONFIRM_TEXT } from "./error-logs-header";

function readLevel(value: string | null): ErrorLevel | null {
  return value === "error" || value === "warning" || value === "info" ? value : null;
}

const errorIds = (list: ErrorListResponse) => list.errors.map((e) => e.id);

const ORDERS: Array<{ value: ErrorLogSort; label: string }> = [
  { value: "newest", label: "Newest first" },
  { value: "oldest", label: "Oldest first" },
];

/**
 * Error Logs (docs/product.md §5.1): active/archived views, level cards, archive, archive all,
 * cleanup, details, newest or oldest first, select and archive several, CSV of the view and level.
 * View, level, order and page live in the URL (?archived=true&level=warning&sort=oldest&cursor=…),
 * so reload and back keep them; a new view, level or order starts at its first page.
 */
export default function ErrorLogsPage() {
  const [searchParams, update] = useUrlParams();
  const archived = searchParams.get("archived") === "true";
  const level = readLevel(searchParams.get("level"));
  const sort: ErrorLogSort = searchParams.get("sort") === "oldest" ? "oldest" : "newest";
  const pages = useKeysetPages();
  const ready = useLoadDelay();
  const list = useErrorList({ archived, level, cursor: pages.cursor, sort }, ready);
  const archiveOne = useArchiveError();
  // A role that may not archive sees archive disabled, with the reason (docs/product.md "Roles").
  const { allowed: canWrite, reason: readOnly } = useEndpointAccess(archiveErrorLogEndpoint);
  const [selected, setSelected] = useState<ErrorLogEntry | null>(null);
  // Active entries on screen can be selected for one archive.
  const selectable = canWrite && !archived;
  const selection = useQueryRowSelection(list, errorIds, selectable);

  const onArchive = (entry: ErrorLogEntry) =>
    archiveOne.mutate(entry.id, {
      onSuccess: (res) => toast({ title: res.message, variant: "success" }),
      onError: () => toast({ title: "Failed to archive error", variant: "destructive" }),
    });

  return (
    <section aria-labelledby="page-title" className="grid gap-6">
      <ErrorLogsHeader archived={archived} level={level} list={list} onWholeLogChanged={pages.reset} />

      <LevelCards counts={list.data?.counts} level={level} onSelect={(l) => update({ level: l }, { push: true })} />

      <FilterBar>
        <SelectFilter id="error-order" label="Order" param="sort" value={sort} options={ORDERS} allValue="newest" />
        {selection.rowCount > 0 && (
          <label className="flex items-center gap-2 self-end pb-2 text-sm">
            <input type="checkbox" checked={selection.allSelected} onChange={selection.toggleAll} />
            Select all on this page
          </label>
        )}
      </FilterBar>

      <ErrorBulkArchive selection={selection} />

      <ListState
        query={list}
        isEmpty={(d) => d.errors.length === 0}
        loadingLabel="Loading error logs"
        errorTitle="Error loading error logs"
        emptyText="No error logs found"
        footer={(d) => <Pager label="Pagination" summary={`Page ${pages.page} of ${formatCount(pageCountOf(d.total, ERROR_PAGE_SIZE))} · ${formatCount(d.total)} total`} {...pages.controls(list)} />}
      >
        {(d) => (
          <ul className="grid gap-2" aria-label="Error logs" aria-busy={list.isFetching}>
            {d.errors.map((entry) => (
              <ErrorRow
                key={entry.id}
                entry={entry}
                onOpen={() => setSelected(entry)}
                onArchive={() => onArchive(entry)}
                archiving={archiveOne.isPending && archiveOne.variables === entry.id}
                readOnly={readOnly}
                select={selectable ? { checked: selection.isSelected(entry.id), onToggle: () => selection.toggle(entry.id) } : undefined}
              />
            ))}
          </ul>
        )}
      </ListState>

      <ErrorDetailDialog entry={selected} onClose={() => setSelected(null)} />
    </section>
  );
}
