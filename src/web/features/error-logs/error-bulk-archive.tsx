import { useState } from "react";
import { BulkBar, type RowSelection } from "@web/components/list";
import { ConfirmDialog } from "@web/components/ui/alert-dialog";
import { Button } from "@web/components/ui/button";
import { toast } from "@web/components/ui/toast";
import { apiErrorMessage } from "@web/lib/api-client";
import { countOf } from "@web/lib/format";
import { useArchiveSelected } from "./error-logs-api";

/** Archive the entries selected on the page (docs/product.md §5.1): one confirmation naming how many, all or none. */
export function ErrorBulkArchive({ selection }: { selection: RowSelection }) {
  const archive = useArchiveSelected();
  const [pending, setPending] = useState<string[] | null>(null);
  const count = countOf(pending?.length ?? 0, "error");

  const confirm = () => {
    const ids = pending;
    setPending(null);
    if (!ids) return;
    archive.mutate(ids, {
      onSuccess: (res) => {
        selection.clear();
        toast({ title: res.message, variant: "success" });
      },
      onError: (error) => toast({ title: `Failed to archive errors: ${apiErrorMessage(error)}`, variant: "destructive" }),
    });
  };

  return (
    <>
      <BulkBar selection={selection} noun="error">
        <Button size="sm" disabled={archive.isPending} onClick={() => setPending(selection.selectedIds)}>
          Archive selected
        </Button>
      </BulkBar>
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title={`Archive ${count}`}
        description={`Archive ${count}? They move to the archived view and are deleted by a cleanup 30 days later.`}
        confirmLabel={`Archive ${count}`}
        onConfirm={confirm}
      />
    </>
  );
}
