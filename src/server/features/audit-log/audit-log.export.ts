import { AUDIT_LOG_EXPORT_KIND, type AuditEntry, type AuditLogFilters, auditLogFiltersSchema } from "../../../contract/audit-log.ts";
import { defineExport } from "../../platform/exports/export-kind.ts";
import { type AuditCursor, listAuditRows } from "../../domain/audit/audit.queries.ts";
import { rowFilters, toAuditEntry } from "./audit-log.service.ts";

const json = (value: unknown) => (value === null || value === undefined ? "" : JSON.stringify(value));

/** The audit log as CSV, with the Activity tab's filters (streamed page by page by the one export mechanism). */
export const auditLogExport = defineExport<AuditLogFilters, AuditEntry, AuditCursor>({
  kind: AUDIT_LOG_EXPORT_KIND,
  fileStem: "audit-log",
  filters: auditLogFiltersSchema,
  columns: [
    { header: "Time", value: (e) => e.createdAt },
    { header: "Actor", value: (e) => e.actor.email },
    { header: "Actor role", value: (e) => e.actor.role },
    { header: "Action", value: (e) => e.action },
    { header: "Target type", value: (e) => e.target.type },
    { header: "Target id", value: (e) => e.target.id },
    { header: "Target", value: (e) => e.target.label },
    { header: "Before", value: (e) => json(e.before) },
    { header: "After", value: (e) => json(e.after) },
    { header: "Details", value: (e) => (Object.keys(e.details).length > 0 ? json(e.details) : "") },
    { header: "IP address", value: (e) => e.ipAddress },
    { header: "User agent", value: (e) => e.userAgent },
    { header: "Request id", value: (e) => e.requestId },
  ],
  async readPage(db, filters, cursor, limit) {
    const page = await listAuditRows(db, rowFilters(filters), cursor, limit);
    return { rows: page.rows.map(toAuditEntry), next: page.next ?? undefined };
  },
});
