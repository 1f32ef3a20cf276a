import { z } from "zod";
import { pageQuerySchema, queryBoolean } from "./common.ts";

/** Spec §3: error levels. Colours (web): error red, warning yellow, info blue. */
export const errorLevelSchema = z.enum(["error", "warning", "info"]);
export type ErrorLevel = z.infer<typeof errorLevelSchema>;
export const ERROR_LEVELS: readonly ErrorLevel[] = errorLevelSchema.options;

/** Spec §3 "Error log" entity, field names as the spec writes them. `context` is JSON text. */
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

/**
 * GET /api/admin/errors query: the spec's page/limit/level/archived plus an opaque `cursor`
 * (from the previous answer's nextCursor). With a cursor, `page` is informative only.
 */
export const errorListQuerySchema = pageQuerySchema
  .extend({
    level: errorLevelSchema.optional(),
    archived: queryBoolean.default(false),
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
export const archiveAllRequestSchema = z.object({ level: errorLevelSchema.nullish() }).strict();
export type ArchiveAllRequest = z.infer<typeof archiveAllRequestSchema>;

/** Archive-all and cleanup answer with a message the screen shows as is. */
export const errorMessageResponseSchema = z.object({ message: z.string(), count: z.number() });
export type ErrorMessageResponse = z.infer<typeof errorMessageResponseSchema>;

export const archiveOneResponseSchema = z.object({ message: z.string(), error: errorLogSchema });
export type ArchiveOneResponse = z.infer<typeof archiveOneResponseSchema>;

/** Spec §9: archived entries are kept this long; cleanup deletes the ones archived earlier. */
export const ARCHIVE_RETENTION_DAYS = 30;
