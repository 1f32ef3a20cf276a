import { useId, useState, type FormEvent } from "react";
import type { ReviewDecision, ReviewItem } from "@contract/products";
import { ReasonField } from "@web/components/reason-field";
import { Button } from "@web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@web/components/ui/dialog";
import { FormDialogFooter } from "@web/components/ui/form-dialog-footer";
import { toast } from "@web/components/ui/toast";
import { apiErrorMessage, apiFieldErrors } from "@web/lib/api-client";
import { useReasonTemplates } from "@web/lib/use-reason-templates";
import { useDecideReview } from "./products-api";

/** What an operator is about to decide: approve or reject one listing of the Review queue. */
export interface ReviewTarget {
  decision: ReviewDecision;
  item: ReviewItem;
}

/** A template naming an infringement marks the reject as a takedown (the operator may change it). */
const isInfringement = (text: string) => /^infringement\b/i.test(text.trim());

/**
 * Approve (an optional note) or reject (a reason is required: the artist is shown it) one listing
 * waiting for review (docs/product.md §20.4). A reject for infringement counts a takedown against
 * the artist; choosing the 'Infringement…' template ticks it.
 */
export function ReviewDialog({ target, onClose }: { target: ReviewTarget | null; onClose: () => void }) {
  const reasonId = useId();
  const infringementId = useId();
  const templates = useReasonTemplates("listing");
  const decide = useDecideReview();
  const [reason, setReason] = useState("");
  const [infringement, setInfringement] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const close = () => {
    setReason("");
    setInfringement(false);
    setErrors({});
    onClose();
  };
  const changeReason = (text: string) => {
    setReason(text);
    if (templates.includes(text)) setInfringement(isInfringement(text));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!target) return;
    const reject = target.decision === "reject";
    if (reject && reason.trim() === "") {
      setErrors({ reason: "A reason is required to reject a listing (the artist is shown it)" });
      return;
    }
    decide.mutate(
      { id: target.item.id, decision: target.decision, reason, infringement },
      {
        onSuccess: () => {
          toast({ title: `"${target.item.name}" ${reject ? "rejected" : "approved"}`, variant: "success" });
          close();
        },
        onError: (error) => {
          const fields = apiFieldErrors(error);
          setErrors(fields.reason ? { reason: fields.reason } : { form: apiErrorMessage(error) });
        },
      },
    );
  };

  const reject = target?.decision === "reject";
  return (
    <Dialog open={target !== null} onOpenChange={(open) => !open && close()}>
      <DialogContent>
        {target && (
          <>
            <DialogHeader>
              <DialogTitle>{reject ? `Reject "${target.item.name}"?` : `Approve "${target.item.name}"?`}</DialogTitle>
              <DialogDescription>
                {reject
                  ? `It never goes live, whatever its artist sends later. ${target.item.vendorName} is e-mailed the reason.`
                  : `It goes live as ${target.item.vendorName} has it on the storefront (a draft stays a draft), and the artist is e-mailed.`}
              </DialogDescription>
            </DialogHeader>
            <form className="grid gap-4" noValidate onSubmit={onSubmit}>
              <ReasonField
                id={reasonId}
                label={reject ? "Reason (shown to the artist)" : "Note to the artist (optional)"}
                value={reason}
                onChange={changeReason}
                templates={reject ? templates : []}
                required={reject}
                error={errors.reason}
              />
              {reject && (
                <div className="flex items-start gap-2 text-sm">
                  <input id={infringementId} type="checkbox" className="mt-1" checked={infringement} onChange={(e) => setInfringement(e.target.checked)} />
                  <label htmlFor={infringementId}>
                    Infringement: counts a takedown against {target.item.vendorName} (now {target.item.vendorTakedowns})
                  </label>
                </div>
              )}
              <FormDialogFooter error={errors.form} onCancel={close}>
                <Button type="submit" variant={reject ? "destructive" : "default"} disabled={decide.isPending}>
                  {decide.isPending ? (reject ? "Rejecting…" : "Approving…") : reject ? "Reject listing" : "Approve listing"}
                </Button>
              </FormDialogFooter>
            </form>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
