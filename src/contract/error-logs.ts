import { z } from "zod";
import { defineEndpoint } from "./endpoint.ts";
import { pageQuerySchema, queryBoolean } from "./common.ts";

/**
 * Error levels (docs/product.md §11.6). Colours (web): error red, warning yellow, info blue. A plain list (not read from the schema): the web uses it at run time, where zod is inert (decision 0007).
 */
export const ERROR_LEVELS = ["error", "warning", "info"] as const;
export const errorLevelSchema = z.enum(ERROR_LEVELS);
export type ErrorLevel = z.infer<typeof errorLevelSchema>;

/** The error-log entry (docs/product.md §11.6), field names as docs/product.md §11.6 writes them. `context` is JSON text. */
export const errorLogSchema = z.object({
  id: z.string(),
  level: errorLevelSchema,
  message: z.string(),
  endpoint: z.string().nullable(),
  method: z.string().nullable(),
  status_code: z.number().nullable(),
  user_email: z.string().nullable(),
  ip_address: z.string().nullable(),
  user_agent: z.string().nullable(),
  stack_trace: z.string().nullable(),
  context: z.string().nullable(),
  created_at: z.string(),
  archived_at: z.string().nullable(),
});
export type ErrorLogEntry = z.infer<typeof errorLogSchema>;

/**
 * Pages deeper than this without a cursor are refused (400): an OFFSET walk costs time in
 * proportion to its depth, while the cursor (keyset) costs the same at any depth.
 */
export const MAX_OFFSET_ROWS = 10_000;

/** Orders of the list (docs/product.md §5.1): newest first (the default) or oldest first. */
export const ERROR_LOG_SORTS = ["newest", "oldest"] as const;
export const errorLogSortSchema = z.enum(ERROR_LOG_SORTS);
export type ErrorLogSort = z.infer<typeof errorLogSortSchema>;

/** The most entries one archive of selected entries names. */
export const MAX_ARCHIVE_IDS = 500;
/** The name the CSV export of the list is registered under (POST /api/admin/exports {kind}). */
export const ERROR_LOGS_EXPORT_KIND = "error-logs";

/** The list's view and level: also the CSV export's filters. */
export const errorLogsFiltersSchema = z.object({
  level: errorLevelSchema.optional(),
  archived: queryBoolean.default(false),
});
export type ErrorLogsFilters = z.infer<typeof errorLogsFiltersSchema>;

/**
 * GET /api/admin/errors query: the page/limit/level/archived of docs/product.md §10.6 plus `sort`
 * and an opaque `cursor` (from the previous answer's nextCursor). With a cursor, `page` is informative only.
 */
export const errorListQuerySchema = pageQuerySchema
  .extend({
    level: errorLevelSchema.optional(),
    archived: queryBoolean.default(false),
    sort: errorLogSortSchema.default("newest"),
    cursor: z.string().min(1).max(200).optional(),
  })
  .refine((q) => q.cursor !== undefined || (q.page - 1) * q.limit <= MAX_OFFSET_ROWS, {
    path: ["page"],
    message: `page is too deep for page numbers (at most ${MAX_OFFSET_ROWS.toLocaleString("en-US")} rows in); follow nextCursor instead`,
  });
export type ErrorListQuery = z.infer<typeof errorListQuerySchema>;

export const errorLevelCountsSchema = z.object({
  all: z.number(),
  error: z.number(),
  warning: z.number(),
  info: z.number(),
});
export type ErrorLevelCounts = z.infer<typeof errorLevelCountsSchema>;

export const errorListResponseSchema = z.object({
  errors: z.array(errorLogSchema),
  /** Entries matching the current filter (view + level). */
  total: z.number(),
  /** Entries per level in the current view (active or archived). */
  counts: errorLevelCountsSchema,
  /** Pass as `cursor` to get the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type ErrorListResponse = z.infer<typeof errorListResponseSchema>;

/** `level` may be absent (or null): then every active entry is archived. */
export const archiveAllRequestSchema = z.strictObject({ level: errorLevelSchema.nullish() });
export type ArchiveAllRequest = z.infer<typeof archiveAllRequestSchema>;

/** POST /api/admin/errors/archive: the entries selected on screen. */
export const archiveSelectedRequestSchema = z.strictObject({
  ids: z
    .array(z.string().min(1).max(100))
    .min(1, "must name at least one entry")
    .max(MAX_ARCHIVE_IDS, `must name at most ${MAX_ARCHIVE_IDS} entries`)
    .refine((ids) => new Set(ids).size === ids.length, "must not name an entry twice"),
});
export type ArchiveSelectedRequest = z.infer<typeof archiveSelectedRequestSchema>;

/** Archive-all and cleanup answer with a message the screen shows as is. */
export const errorMessageResponseSchema = z.object({ message: z.string(), count: z.number() });
export type ErrorMessageResponse = z.infer<typeof errorMessageResponseSchema>;

export const archiveOneResponseSchema = z.object({ message: z.string(), error: errorLogSchema });
export type ArchiveOneResponse = z.infer<typeof archiveOneResponseSchema>;

/** docs/product.md §5.2: archived entries are kept this long; cleanup deletes the ones archived earlier. */
export const ARCHIVE_RETENTION_DAYS = 30;

export const listErrorLogsEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/errors",
  area: "error-logs",
  cache: { per: "everyone" },
  access: "staff",
  summary: "One page of error-log entries (active or archived, optionally one level), newest or oldest first, with counts per level",
  description:
    'Each order walks the (archived[, level], created_at, id) index from the cursor, so any depth costs the same. The same view and level export as CSV (POST /api/admin/exports with kind "error-logs").',
  query: errorListQuerySchema,
  success: { status: 200, description: "The page, the filter's total, counts per level and the next cursor", schema: errorListResponseSchema },
  errors: [400],
});

export const archiveAllErrorLogsEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/errors/archive-all",
  area: "error-logs",
  access: { roles: ["admin"] },
  summary: "Archive every active entry, or every active entry of one level",
  body: archiveAllRequestSchema,
  bodyExample: { level: "warning" },
  success: { status: 200, description: "How many were archived, as a message to show", schema: errorMessageResponseSchema },
  errors: [400, 415],
  invalidates: ["error-logs", "dashboard"],
});

export const archiveSelectedErrorLogsEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/errors/archive",
  area: "error-logs",
  access: { roles: ["admin"] },
  summary: `Archive up to ${MAX_ARCHIVE_IDS} entries by id, all or nothing`,
  description: "An unknown id (404, naming it) archives nothing. Entries archived already keep their first archived_at and count as unchanged.",
  body: archiveSelectedRequestSchema,
  bodyExample: { ids: ["0193a0c4-8a5e-7c1e-9a51-2f4b6c8d9e01"] },
  success: { status: 200, description: "How many were archived, as a message to show", schema: errorMessageResponseSchema },
  errors: [400, 404, 415],
  invalidates: ["error-logs", "dashboard"],
});

export const archiveErrorLogEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/errors/{id}/archive",
  area: "error-logs",
  access: { roles: ["admin"] },
  summary: "Archive one entry (archiving an archived entry changes nothing)",
  params: z.object({ id: z.string() }),
  success: { status: 200, description: "The archived entry", schema: archiveOneResponseSchema },
  errors: [404],
  invalidates: ["error-logs", "dashboard"],
});

export const cleanupArchivedErrorLogsEndpoint = defineEndpoint({
  method: "delete",
  path: "/api/admin/errors/cleanup-archived",
  area: "error-logs",
  access: { roles: ["admin"] },
  summary: `Delete the entries archived more than ${ARCHIVE_RETENTION_DAYS} days ago`,
  success: { status: 200, description: "How many were deleted, as a message to show", schema: errorMessageResponseSchema },
  invalidates: ["error-logs", "dashboard"],
});
