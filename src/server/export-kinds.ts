import { auditLogExport } from "./features/audit-log/audit-log.export.ts";
import { analyticsDailyExport } from "./features/analytics/analytics.export.ts";
import { errorLogsExport } from "./features/error-logs/error-logs.export.ts";
import { balancesExport, payoutsExport } from "./features/financials/financials.export.ts";
import { statementExport } from "./features/financials/statement.export.ts";
import { ordersExport } from "./features/orders/orders.export.ts";
import { productsExport } from "./features/products/products.export.ts";
import { vendorsExport } from "./features/vendors/vendors.export.ts";
import type { ExportKind } from "./platform/exports/export-kind.ts";

/**
 * Every list that can be exported as CSV. An area adds its kind here (defined next to its queries
 * with defineExport); the screens ask for it by name with the filters they show.
 */
export const exportKinds: ReadonlyArray<ExportKind<never, never, never>> = [
  // Kinds differ in their filter, row and cursor types; the service treats them alike.
  auditLogExport as never,
  payoutsExport as never,
  balancesExport as never,
  productsExport as never,
  ordersExport as never,
  statementExport as never,
  vendorsExport as never,
  errorLogsExport as never,
  analyticsDailyExport as never,
];
