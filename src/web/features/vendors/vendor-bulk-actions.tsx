import { useState } from "react";
import { bulkVendorStatusEndpoint } from "@contract/vendors";
import { useEndpointAccess } from "@web/app/current-user";
import { BulkBar, type RowSelection } from "@web/components/list";
import { ConfirmDialog } from "@web/components/ui/alert-dialog";
import { Button } from "@web/components/ui/button";
import { toast } from "@web/components/ui/toast";
import { apiErrorMessage } from "@web/lib/api-client";
import { countOf } from "@web/lib/format";
import { useBulkVendorStatus } from "./vendors-api";
import { StatusReasonField, useStatusReason } from "./vendor-dialogs";

/**
 * Enable or disable the vendors selected on the page (docs/product.md §4.1): one confirmation naming
 * how many, one call that changes all of them or none.
 */
export function VendorBulkActions({ selection }: { selection: RowSelection }) {
  const { allowed: canWrite } = useEndpointAccess(bulkVendorStatusEndpoint);
  const bulk = useBulkVendorStatus();
  const [pending, setPending] = useState<{ ids: string[]; isActive: boolean } | null>(null);
  const reason = useStatusReason();
  if (!canWrite) return null;

  const confirm = () => {
    const target = pending ? { ...pending, reason: reason.reason } : null;
    setPending(null);
    reason.clear();
    if (!target) return;
    const what = countOf(target.ids.length, "vendor");
    bulk.mutate(target, {
      onSuccess: () => {
        selection.clear();
        toast({ title: `${what} ${target.isActive ? "enabled" : "disabled"}`, variant: "success" });
      },
      onError: (error) => toast({ title: `Failed to ${target.isActive ? "enable" : "disable"} ${what}: ${apiErrorMessage(error)}`, variant: "destructive" }),
    });
  };

  const count = pending ? countOf(pending.ids.length, "vendor") : "";
  return (
    <>
      <BulkBar selection={selection} noun="vendor">
        <Button size="sm" variant="outline" disabled={bulk.isPending} onClick={() => setPending({ ids: selection.selectedIds, isActive: true })}>
          Enable selected
        </Button>
        <Button size="sm" variant="destructive" disabled={bulk.isPending} onClick={() => setPending({ ids: selection.selectedIds, isActive: false })}>
          Disable selected
        </Button>
      </BulkBar>
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => {
          if (open) return;
          setPending(null);
          reason.clear();
        }}
        title={pending?.isActive ? `Enable ${count}` : `Disable ${count}`}
        confirmLabel={pending?.isActive ? `Enable ${count}` : `Disable ${count}`}
        confirmVariant={pending?.isActive ? "default" : "destructive"}
        confirmDisabled={pending?.isActive === false && reason.reason.trim() === ""}
        onConfirm={confirm}
        description={
          pending?.isActive
            ? `Enable ${count}? Their stores become visible in public listings again and they regain access to their vendor dashboards.`
            : `Disable ${count}? Their stores will be hidden from public listings and they will not be able to access their vendor dashboards; a featured artist among them stops being featured. All their data is kept.`
        }
      >
        <StatusReasonField state={reason} required={pending?.isActive === false} />
      </ConfirmDialog>
    </>
  );
}
