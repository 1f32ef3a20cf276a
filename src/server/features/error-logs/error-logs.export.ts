import { ERROR_LOGS_EXPORT_KIND, type ErrorLogEntry, type ErrorLogsFilters, errorLogsFiltersSchema } from "../../../contract/error-logs.ts";
import type { NewestFirstPosition } from "../../platform/http/keyset-cursor.ts";
import { defineExport } from "../../platform/exports/export-kind.ts";
import { listErrorLogs } from "./error-logs.queries.ts";

/**
 * The error log as CSV with the screen's view (active or archived) and level (docs/product.md §5.1),
 * newest first, streamed page by page by the one export mechanism (the list's own keyset walk).
 */
export const errorLogsExport = defineExport<ErrorLogsFilters, ErrorLogEntry, NewestFirstPosition>({
  kind: ERROR_LOGS_EXPORT_KIND,
  fileStem: "error-logs",
  filters: errorLogsFiltersSchema,
  columns: [
    { header: "Time", value: (e) => e.created_at },
    { header: "Level", value: (e) => e.level },
    { header: "Message", value: (e) => e.message },
    { header: "Method", value: (e) => e.method },
    { header: "Endpoint", value: (e) => e.endpoint },
    { header: "Status", value: (e) => e.status_code },
    { header: "User", value: (e) => e.user_email },
    { header: "IP address", value: (e) => e.ip_address },
    { header: "User agent", value: (e) => e.user_agent },
    { header: "Archived at", value: (e) => e.archived_at },
    { header: "Id", value: (e) => e.id },
  ],
  async readPage(db, filters, cursor, limit) {
    const page = await listErrorLogs(db, { archived: filters.archived, level: filters.level, limit, offset: 0, after: cursor });
    return { rows: page.rows, next: page.next ?? undefined };
  },
});
