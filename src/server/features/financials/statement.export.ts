import { STATEMENT_EXPORT_KIND, type StatementEntry, type StatementFilters, statementFiltersSchema } from "../../../contract/financials.ts";
import { defineExport } from "../../platform/exports/export-kind.ts";
import { readStatementPage } from "./statement.ts";

/** An artist's statement as CSV (docs/product.md §15.8), newest first with the running balance, through the one export mechanism. */
export const statementExport = defineExport<StatementFilters, StatementEntry, string>({
  kind: STATEMENT_EXPORT_KIND,
  fileStem: "statement",
  filters: statementFiltersSchema,
  columns: [
    { header: "Date", value: (e) => e.at },
    { header: "Kind", value: (e) => e.kind },
    { header: "Description", value: (e) => e.description },
    { header: "Reference", value: (e) => e.reference },
    { header: "Order line", value: (e) => e.orderId },
    { header: "Amount (USD)", value: (e) => e.amount.toFixed(2) },
    { header: "Balance (USD)", value: (e) => e.balance.toFixed(2) },
  ],
  async readPage(db, filters, cursor, limit) {
    const page = await readStatementPage(db, filters.vendorId, cursor, limit);
    return { rows: page.entries, next: page.nextCursor ?? undefined };
  },
});
