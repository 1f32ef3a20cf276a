import { apiErrorMessage } from "@web/lib/api-client";
import { createExportEndpoint } from "@contract/exports";
import { useState } from "react";
import { AUDIT_LOG_EXPORT_KIND } from "@contract/audit-log";
import { useEndpointAccess } from "@web/app/current-user";
import { ListState, Pager, useKeysetPages, useUrlParams } from "@web/components/list";
import { useCsvExport } from "@web/lib/download-export";
import { useLoadDelay } from "@web/lib/use-load-delay";
import { AuditLogEntry } from "./audit-log-entry";
import { AuditLogFilterForm, NO_FILTERS } from "./audit-log-filters";
import { type AuditLogFilterValues, auditLogQuery, useAuditLog } from "./admin-users-api";

const FILTER_KEYS = Object.keys(NO_FILTERS) as Array<keyof AuditLogFilterValues>;

function filtersOf(params: URLSearchParams): AuditLogFilterValues {
  return Object.fromEntries(FILTER_KEYS.map((k) => [k, params.get(k) ?? ""])) as unknown as AuditLogFilterValues;
}

/**
 * The Activity tab (docs/product.md §14.5): the audit log with filters and page kept in the URL,
 * each entry's before/after values on demand, links to what it concerned, and the same filter as CSV.
 */
export function AuditLogTab() {
  const [searchParams, update] = useUrlParams();
  const filters = filtersOf(searchParams);
  const pages = useKeysetPages();
  const [open, setOpen] = useState<Record<string, boolean>>({});
  const csv = useCsvExport("Failed to export");
  const ready = useLoadDelay();
  const log = useAuditLog(filters, pages.cursor, ready);
  const { reason: readOnly } = useEndpointAccess(createExportEndpoint);

  // Applying sets every filter at once (those left empty leave the URL) and starts at the first page.
  const apply = (next: AuditLogFilterValues) => update({ ...NO_FILTERS, ...auditLogQuery(next) });

  const filtered = Object.keys(auditLogQuery(filters)).length > 0;

  return (
    <div className="grid gap-4">
      {/* Filters changed by a link or back/forward: the form starts again from them. */}
      <AuditLogFilterForm
        key={JSON.stringify(filters)}
        filters={filters}
        filtered={filtered}
        onApply={apply}
        onExport={() => csv.run(AUDIT_LOG_EXPORT_KIND, auditLogQuery(filters))}
        exporting={csv.exporting}
        readOnly={readOnly}
      />

      <ListState
        query={log}
        isEmpty={(data) => data.entries.length === 0}
        loadingLabel="Loading activity"
        errorTitle="Error loading activity"
        errorMessage={apiErrorMessage}
        emptyText={filtered ? "No activity matches these filters." : "No activity yet."}
        footer={() => <Pager label="Activity pages" {...pages.controls(log)} />}
      >
        {(data) => (
          <ol className="grid gap-2" aria-label="Activity" aria-busy={log.isFetching}>
            {data.entries.map((entry) => (
              <AuditLogEntry
                key={entry.id}
                entry={entry}
                open={open[entry.id] ?? false}
                onToggle={() => setOpen((o) => ({ ...o, [entry.id]: !o[entry.id] }))}
                onOnlyTarget={() => apply({ ...NO_FILTERS, targetType: entry.target.type, targetId: entry.target.id })}
              />
            ))}
          </ol>
        )}
      </ListState>
    </div>
  );
}
