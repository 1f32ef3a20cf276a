import { createExportEndpoint } from "@contract/exports";
import { callApi } from "./api-client";

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
