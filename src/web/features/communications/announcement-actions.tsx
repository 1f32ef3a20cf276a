import { useState } from "react";
import { type AnnouncementItem, cancelAnnouncementEndpoint, retryFailedEndpoint, takeDownAnnouncementEndpoint } from "@contract/communications";
import { ConfirmDialog } from "@web/components/ui/alert-dialog";
import { toast } from "@web/components/ui/toast";
import { apiErrorMessage } from "@web/lib/api-client";
import { countOf } from "@web/lib/format";
import { isInProgress, useCancelAnnouncement, useRetryFailed, useTakeDown } from "./communications-api";
import { WriteButton } from "@web/components/ui/write-button";

type Action = "retry" | "cancel" | "takeDown";

/** 'Retry Failed', 'Cancel Sending' and 'Take Down' of one announcement, each confirmed first (docs/product.md §17.4). */
export function AnnouncementActions({ announcement: a }: { announcement: AnnouncementItem }) {
  const [asking, setAsking] = useState<Action | null>(null);
  const retry = useRetryFailed();
  const cancel = useCancelAnnouncement();
  const takeDown = useTakeDown();
  const busy = retry.isPending || cancel.isPending || takeDown.isPending;
  const done = (title: string) => ({
    onSuccess: () => toast({ title, variant: "success" as const }),
    onError: (error: unknown) => toast({ title: `Failed: ${apiErrorMessage(error)}`, variant: "destructive" as const }),
  });
  const dialogs: Record<Action, { title: string; description: string; confirmLabel: string; run: () => void }> = {
    retry: {
      title: "Retry Failed",
      description: `Send “${a.title}” again to the ${countOf(a.failed, "artist")} whose mail failed?`,
      confirmLabel: `Retry ${countOf(a.failed, "mail")}`,
      run: () => retry.mutate(a.id, done("Failed mails queued again")),
    },
    cancel: {
      title: "Cancel Sending",
      description: `Stop sending “${a.title}”? The ${countOf(a.pending, "mail")} not sent yet will not be sent (mails being handed to the mail server right now still go).`,
      confirmLabel: "Cancel Sending",
      run: () => cancel.mutate(a.id, done("Sending canceled")),
    },
    takeDown: {
      title: "Take Down",
      description: `Take “${a.title}” off the artists' dashboard? E-mails already sent are not affected.`,
      confirmLabel: "Take Down",
      run: () => takeDown.mutate(a.id, done("Taken off the dashboard")),
    },
  };
  const dialog = asking ? dialogs[asking] : null;
  return (
    <div className="flex flex-wrap gap-2">
      {a.failed > 0 && a.status !== "canceled" && (
        <WriteButton endpoint={retryFailedEndpoint} variant="outline" disabled={busy} onClick={() => setAsking("retry")}>
          Retry Failed
        </WriteButton>
      )}
      {isInProgress(a) && (
        <WriteButton endpoint={cancelAnnouncementEndpoint} variant="destructive" disabled={busy} onClick={() => setAsking("cancel")}>
          Cancel Sending
        </WriteButton>
      )}
      {a.onDashboard && (
        <WriteButton endpoint={takeDownAnnouncementEndpoint} variant="outline" disabled={busy} onClick={() => setAsking("takeDown")}>
          Take Down
        </WriteButton>
      )}
      <ConfirmDialog
        open={dialog !== null}
        onOpenChange={(open) => !open && setAsking(null)}
        title={dialog?.title ?? ""}
        description={dialog?.description ?? ""}
        confirmLabel={dialog?.confirmLabel ?? ""}
        confirmVariant={asking === "cancel" ? "destructive" : "default"}
        onConfirm={() => {
          dialog?.run();
          setAsking(null);
        }}
      />
    </div>
  );
}
