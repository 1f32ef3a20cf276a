import { type ReactNode, useState } from "react";
import { ConfirmDialog } from "@web/components/ui/alert-dialog";
import { Button } from "@web/components/ui/button";
import { toast } from "@web/components/ui/toast";
import { apiErrorMessage } from "@web/lib/api-client";
import { countOf } from "@web/lib/format";
import { BulkBar } from "./bulk-bar";
import type { RowSelection } from "./use-row-selection";

export interface BulkApprovalProps {
  selection: RowSelection;
  /** The rows' noun: "listing" ("Approve 3 listings"). */
  noun: string;
  /** What approving does, after "Approve 3 listings?" in the confirmation. */
  consequence: string;
  /** Sends the approval of these rows (all or nothing); answers how many were approved. */
  approve: (ids: string[]) => Promise<{ approved: number }>;
  pending: boolean;
  /** Called whenever the confirmation closes, confirmed or not (to clear a note typed in it). */
  onClose?: () => void;
  /** Fields of the confirmation (an optional note). */
  children?: ReactNode;
}

/**
 * A queue's bulk approval (Applications, Review): 'Approve selected' in the list's bulk bar, a
 * confirmation naming how many and what happens, then a toast saying how it went. The selection is
 * cleared once they are approved and kept when the server refuses them.
 */
export function BulkApproval({ selection, noun, consequence, approve, pending, onClose, children }: BulkApprovalProps) {
  const [approving, setApproving] = useState<string[] | null>(null);
  const asked = countOf(approving?.length ?? 0, noun);
  const close = () => {
    setApproving(null);
    onClose?.();
  };
  const confirm = () => {
    const ids = approving;
    if (ids) {
      approve(ids).then(
        ({ approved }) => {
          selection.clear();
          toast({ title: `${countOf(approved, noun)} approved`, variant: "success" });
        },
        (error: unknown) => toast({ title: `Failed to approve ${countOf(ids.length, noun)}: ${apiErrorMessage(error)}`, variant: "destructive" }),
      );
    }
    close();
  };
  return (
    <>
      <BulkBar selection={selection} noun={noun}>
        <Button size="sm" disabled={pending} onClick={() => setApproving(selection.selectedIds)}>
          Approve selected
        </Button>
      </BulkBar>
      <ConfirmDialog
        open={approving !== null}
        onOpenChange={(isOpen) => !isOpen && close()}
        title={`Approve ${asked}`}
        confirmLabel={`Approve ${asked}`}
        onConfirm={confirm}
        description={`Approve ${asked}? ${consequence}`}
      >
        {children}
      </ConfirmDialog>
    </>
  );
}
