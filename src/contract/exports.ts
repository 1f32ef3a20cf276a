import { z } from "zod";
import { defineEndpoint } from "./endpoint.ts";

/** How long a download link lives; it also works only once. */
export const EXPORT_LINK_TTL_SECONDS = 60;

export const createExportRequestSchema = z.strictObject({
  /** Which list to export (each area registers its own: e.g. "audit-log", "payouts"). */
  kind: z.string().min(1).max(64),
  /** The list's filters as the screen shows them (query-string values). */
  filters: z.record(z.string(), z.string().max(500)).default({}),
});
export type CreateExportRequest = z.input<typeof createExportRequestSchema>;

export const createExportResponseSchema = z.object({
  /** A single-use link, valid for EXPORT_LINK_TTL_SECONDS: open it to download the CSV. */
  url: z.string(),
  expiresAt: z.string(),
  filename: z.string(),
});
export type CreateExportResponse = z.infer<typeof createExportResponseSchema>;

export const createExportEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/exports",
  area: "exports",
  access: { roles: ["admin", "finance", "support"] },
  summary: "A short-lived, single-use download link for a CSV export of a list with its filters",
  body: createExportRequestSchema,
  bodyExample: { kind: "audit-log", filters: { action: "vendor.disable" } },
  success: { status: 201, description: "The link", schema: createExportResponseSchema },
  errors: [400, 415],
});

export const downloadExportEndpoint = defineEndpoint({
  method: "get",
  path: "/api/exports/{token}",
  area: "exports",
  access: "public",
  summary: "Download a CSV export (the link's token authorises it; it works once, for a minute)",
  description: "Streamed from the database in chunks. Cells starting with =, +, - or @ are prefixed with an apostrophe so spreadsheets do not run them as formulas.",
  params: z.object({ token: z.string() }),
  success: { status: 200, description: "The CSV file", mediaTypes: ["text/csv"] },
  errors: [404, 410],
});
