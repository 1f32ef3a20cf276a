import { createExportEndpoint } from "@contract/exports";
import { useState } from "react";
import { toast } from "@web/components/ui/toast-store";
import { apiErrorMessage, callApi } from "./api-client";

/**
 * Downloads a CSV export of a list with the filters on screen. The server hands out a single-use
 * link valid for a minute; the browser follows it as a download, so the file streams straight to
 * disk (never held whole in the page's memory).
 */
export async function downloadExport(kind: string, filters: Record<string, string | undefined>): Promise<void> {
  const present = Object.fromEntries(Object.entries(filters).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ""));
  const link = await callApi(createExportEndpoint, { body: { kind, filters: present } });
  const anchor = document.createElement("a");
  anchor.href = link.url;
  anchor.download = link.filename;
  anchor.rel = "noopener";
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}

/**
 * A screen's CSV export: `exporting` while the link is asked for, and a toast
 * '{failureTitle}: {the server's words}' when it fails (the Activity tab, the financials lists).
 */
export function useCsvExport(failureTitle: string): { exporting: boolean; run: (kind: string, filters: Record<string, string | undefined>) => void } {
  const [exporting, setExporting] = useState(false);
  const run = (kind: string, filters: Record<string, string | undefined>) => {
    setExporting(true);
    downloadExport(kind, filters)
      .catch((error: unknown) => toast({ title: `${failureTitle}: ${apiErrorMessage(error)}`, variant: "destructive" }))
      .finally(() => setExporting(false));
  };
  return { exporting, run };
}
