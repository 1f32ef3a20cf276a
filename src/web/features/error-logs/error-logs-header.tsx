import { useState } from "react";
import { archiveAllErrorLogsEndpoint, ERROR_LOGS_EXPORT_KIND, type ErrorLevel, type ErrorListResponse } from "@contract/error-logs";
import type { UseQueryResult } from "@tanstack/react-query";
import { useEndpointAccess } from "@web/app/current-user";
import { RefreshButton, useUrlParams } from "@web/components/list";
import { PageHeader } from "@web/components/ui/page-header";
import { ConfirmDialog } from "@web/components/ui/alert-dialog";
import { Button } from "@web/components/ui/button";
import { DisabledReason } from "@web/components/ui/disabled-reason";
import { toast } from "@web/components/ui/toast";
import { LEVEL_LABELS } from "@web/lib/labels";
import { useCsvExport } from "@web/lib/download-export";
import { useArchiveAll, useCleanupArchived } from "./error-logs-api";

export const CLEANUP_CONFIRM_TEXT = "This will permanently delete all archived errors older than 30 days. Are you sure?";

/**
 * The Error Logs header: switch between active and archived, the CSV of the view and level, and
 * the whole-log actions (archive all of the level, clean up old archives, confirmed first), which
 * a role that may not archive sees disabled with the reason. `onWholeLogChanged`: the list goes back to its first page.
 */
export function ErrorLogsHeader({ archived, level, list, onWholeLogChanged }: { archived: boolean; level: ErrorLevel | null; list: UseQueryResult<ErrorListResponse>; onWholeLogChanged: () => void }) {
  const [, update] = useUrlParams();
  const csv = useCsvExport("Export failed");
  const archiveAll = useArchiveAll();
  const cleanup = useCleanupArchived();
  const { allowed: canWrite, reason: readOnly } = useEndpointAccess(archiveAllErrorLogsEndpoint);
  const [confirmCleanup, setConfirmCleanup] = useState(false);

  const onArchiveAll = () =>
    archiveAll.mutate(level, {
      onSuccess: (res) => {
        onWholeLogChanged();
        toast({ title: res.message, variant: "success" });
      },
      onError: () => toast({ title: "Failed to archive errors", variant: "destructive" }),
    });
  const onCleanup = () => {
    setConfirmCleanup(false);
    cleanup.mutate(undefined, {
      onSuccess: (res) => {
        onWholeLogChanged();
        toast({ title: res.message, variant: "success" });
      },
      onError: () => toast({ title: "Failed to cleanup archived errors", variant: "destructive" }),
    });
  };

  return (
    <>
      <PageHeader title="Error Logs" description={archived ? "Archived errors" : "Active errors"}>
        <Button variant="outline" onClick={() => update({ archived: archived ? null : "true" }, { push: true })}>
          {archived ? "View Active" : "View Archived"}
        </Button>
        <Button variant="outline" disabled={csv.exporting} onClick={() => csv.run(ERROR_LOGS_EXPORT_KIND, { archived: String(archived), level: level ?? undefined })}>
          Export CSV
        </Button>
        <RefreshButton query={list} />
        <DisabledReason reason={readOnly}>
          {archived ? (
            <Button variant="destructive" onClick={() => setConfirmCleanup(true)} disabled={cleanup.isPending || !canWrite}>
              Cleanup Old Archives
            </Button>
          ) : (
            <Button onClick={onArchiveAll} disabled={archiveAll.isPending || list.data?.total === 0 || !canWrite}>
              {level ? `Archive All ${LEVEL_LABELS[level]}` : "Archive All"}
            </Button>
          )}
        </DisabledReason>
      </PageHeader>
      <ConfirmDialog
        open={confirmCleanup}
        onOpenChange={setConfirmCleanup}
        title="Cleanup Old Archives"
        description={CLEANUP_CONFIRM_TEXT}
        confirmLabel="Delete"
        confirmVariant="destructive"
        onConfirm={onCleanup}
      />
    </>
  );
}
