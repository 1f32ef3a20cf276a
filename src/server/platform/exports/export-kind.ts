import { z } from "zod";
import type { Executor } from "../db/executor.ts";

export interface ExportColumn<Row> {
  header: string;
  value: (row: Row) => string | number | boolean | null | undefined;
}

/**
 * One exportable list: its filters (validated like the list's own query), its columns as the
 * screen shows them, and how to read it page by page in a stable order (keyset), so an export of
 * any size streams at constant memory and no statement holds the database for long.
 */
export interface ExportKind<Filters = unknown, Row = unknown, Cursor = unknown> {
  kind: string;
  /** The file name's stem, e.g. "audit-log" -> audit-log-2026-11-23.csv. */
  fileStem: string;
  /** The list's filters (query-string values) as an object schema; defineExport makes it refuse unknown keys. */
  filters: z.ZodType<Filters>;
  columns: ReadonlyArray<ExportColumn<Row>>;
  /** Up to `limit` rows after `cursor` (undefined: from the start), and the cursor after the last. */
  readPage(db: Executor, filters: Filters, cursor: Cursor | undefined, limit: number): Promise<{ rows: Row[]; next: Cursor | undefined }>;
}

/**
 * Declares an export kind with its types checked together. Its filters are an object schema (the
 * list's query without paging and sort), taken strictly whatever the schema says: a key the kind
 * does not know is a 400 naming it (`filters.state`), never dropped to export everything. A kind
 * whose filters are not an object is refused here, when the server starts.
 */
export function defineExport<Filters, Row, Cursor>(kind: ExportKind<Filters, Row, Cursor>): ExportKind<Filters, Row, Cursor> {
  const filters: unknown = kind.filters;
  if (!(filters instanceof z.ZodObject)) throw new Error(`export kind ${kind.kind}: its filters must be an object schema`);
  // catchall(never) is what z.strictObject is; the schema's refinements stay with it.
  return { ...kind, filters: filters.catchall(z.never()) as unknown as z.ZodType<Filters> };
}
