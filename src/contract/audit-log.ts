import { z } from "zod";
import { MAX_PAGE_LIMIT } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";

/**
 * The audit log of admin actions (docs/product.md §14.4): who did what to which target, with the
 * values before and after, from where, in the same transaction as the change.
 */

/** The name the CSV export of the log is registered under (POST /api/admin/exports {kind}). */
export const AUDIT_LOG_EXPORT_KIND = "audit-log";

const jsonObject = z.record(z.string(), z.unknown());

export const auditEntrySchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  actor: z.object({
    /** Null for rows written before actors had ids, and for work the system does on its own. */
    id: z.string().nullable(),
    /** "system" for work the system does on its own (retention sweeps). */
    email: z.string(),
    role: z.string().nullable(),
  }),
  /** Dotted verb, e.g. "vendor.disable", "settings.update", "user.role_change". */
  action: z.string(),
  target: z.object({
    /** e.g. "vendor", "settings", "error_log", "error_logs", "user", "invitation". */
    type: z.string(),
    id: z.string(),
    /** What the target was called then (a vendor's name, a user's e-mail). */
    label: z.string().nullable(),
  }),
  /** For updates: the values before and after (only what changed); null otherwise. */
  before: jsonObject.nullable(),
  after: jsonObject.nullable(),
  details: jsonObject,
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  requestId: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** A time bound: an ISO-8601 time, or a UTC day (YYYY-MM-DD: `from` its start, `to` its end). */
const timeBound = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/, "must be a date (YYYY-MM-DD) or an ISO-8601 time")
  .refine((v) => !Number.isNaN(Date.parse(v)), "must be a real date");

const filterFields = z.object({
  /** The actor's e-mail, exactly (ignoring case). */
  actor: z.string().trim().toLowerCase().min(1).max(320).optional(),
  action: z.string().trim().min(1).max(100).optional(),
  targetType: z.string().trim().min(1).max(50).optional(),
  targetId: z.string().trim().min(1).max(200).optional(),
  from: timeBound.optional(),
  to: timeBound.optional(),
});
/** targetId alone cannot use an index: the target index leads with the type. */
const targetIdNeedsType = (q: { targetId?: string | undefined; targetType?: string | undefined }) => q.targetId === undefined || q.targetType !== undefined;
const targetIdNeedsTypeError = { path: ["targetId"], message: "needs targetType too" };

/** The log's filters: the CSV export's filters (the list's query without its paging). */
export const auditLogFiltersSchema = filterFields.refine(targetIdNeedsType, targetIdNeedsTypeError);
export type AuditLogFilters = z.infer<typeof auditLogFiltersSchema>;

export const auditLogQuerySchema = filterFields
  .extend({
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(50),
    cursor: z.string().min(1).max(200).optional(),
  })
  .refine(targetIdNeedsType, targetIdNeedsTypeError);
export type AuditLogQuery = z.infer<typeof auditLogQuerySchema>;

export const auditLogResponseSchema = z.object({
  /** Newest first. */
  entries: z.array(auditEntrySchema),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type AuditLogResponse = z.infer<typeof auditLogResponseSchema>;

export const listAuditLogEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/audit-log",
  area: "audit-log",
  access: "staff",
  summary: "One page of the audit log, newest first, filtered by actor, action, target and time",
  description:
    'Keyset pagination: every page costs the same at any depth. `targetId` needs `targetType`. `from` is inclusive, `to` exclusive (a bare day means the whole day). The same filters export as CSV (POST /api/admin/exports with kind "audit-log").',
  query: auditLogQuerySchema,
  success: { status: 200, description: "The page and the next cursor", schema: auditLogResponseSchema },
  errors: [400],
});
