import type { ErrorLogEntry } from "@contract/error-logs";
import { Button } from "@web/components/ui/button";
import { DisabledReason } from "@web/components/ui/disabled-reason";
import { cn } from "@web/lib/cn";
import { formatRelativeTime, levelColorClasses } from "@web/lib/format";

interface ErrorRowProps {
  entry: ErrorLogEntry;
  onOpen: () => void;
  onArchive: () => void;
  archiving: boolean;
  /** Why archiving is disabled (a viewer's session), if it is. */
  readOnly: string | undefined;
  /** A checkbox selecting the entry for a bulk archive (active entries, for someone who can write). */
  select?: { checked: boolean; onToggle: () => void };
}

/** One entry of the list: level, status, message (the way into the details), where, who, when, and 'Archive'. */
export function ErrorRow({ entry, onOpen, onArchive, archiving, readOnly, select }: ErrorRowProps) {
  return (
    <li className="flex cursor-pointer items-start justify-between gap-4 rounded-lg border border-gray-200 bg-white p-4 shadow-sm hover:bg-gray-50" data-testid="error-row" onClick={onOpen}>
      {select && (
        // The box selects; it never opens the details (the row's click).
        <input type="checkbox" className="mt-1" aria-label={`Select: ${entry.message}`} checked={select.checked} onClick={(e) => e.stopPropagation()} onChange={select.onToggle} />
      )}
      <div className="grid min-w-0 flex-1 gap-1">
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
