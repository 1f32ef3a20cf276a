import { useId, useState, type FormEvent } from "react";
import { Button } from "@web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@web/components/ui/dialog";
import { FormDialogFooter } from "@web/components/ui/form-dialog-footer";
import { ReasonField } from "@web/components/reason-field";
import { useReasonTemplates } from "@web/lib/use-reason-templates";
import { toast } from "@web/components/ui/toast";
import { apiErrorMessage, apiFieldErrors } from "@web/lib/api-client";
import { countOf } from "@web/lib/format";
import { useBulkProductStatus, useSetProductStatus } from "./products-api";

/** What an operator is about to do: hide or restore one product (a row's action) or the selected ones (a bulk action). */
export interface ModerationTarget {
  action: "hide" | "restore";
  products: ReadonlyArray<{ id: string; name: string }>;
  bulk: boolean;
}

const whatOf = (t: ModerationTarget) => (t.products.length === 1 ? `"${t.products[0]!.name}"` : countOf(t.products.length, "product"));

/**
 * Hide (a reason is required: the artist is shown it) or restore, with what will happen said before
 * it does; a bulk change is all or nothing. Field errors of the server show under the reason.
 */
export function ModerationDialog({ target, onClose, onDone }: { target: ModerationTarget | null; onClose: () => void; onDone: () => void }) {
  const reasonId = useId();
  const templates = useReasonTemplates("listing");
  const single = useSetProductStatus();
  const bulk = useBulkProductStatus();
  const [reason, setReason] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const pending = single.isPending || bulk.isPending;

  const close = () => {
    setReason("");
    setErrors({});
    onClose();
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!target) return;
    const text = reason.trim();
    if (target.action === "hide" && text === "") {
      setErrors({ reason: "A reason is required to hide a product (the artist is shown it)" });
      return;
    }
    setErrors({});
    const status = target.action === "hide" ? "hidden" : "active";
    const what = whatOf(target);
    const onError = (error: unknown) => {
      const fields = apiFieldErrors(error);
      if (fields.reason) setErrors({ reason: fields.reason });
      else setErrors({ form: apiErrorMessage(error) });
    };
    const onSuccess = () => {
      toast({ title: `${what} ${target.action === "hide" ? "hidden" : "restored"}`, variant: "success" });
      setReason("");
      onDone();
    };
    const body = { status, ...(text !== "" ? { reason: text } : {}) } as const;
    if (target.bulk) bulk.mutate({ ids: target.products.map((p) => p.id), ...body }, { onSuccess, onError });
    else single.mutate({ id: target.products[0]!.id, ...body }, { onSuccess, onError });
  };

  const hide = target?.action === "hide";
  return (
    <Dialog open={target !== null} onOpenChange={(open) => !open && close()}>
      <DialogContent>
        {target && (
          <>
            <DialogHeader>
              <DialogTitle>{hide ? `Hide ${whatOf(target)}?` : `Restore ${whatOf(target)}?`}</DialogTitle>
              <DialogDescription>
                {hide
                  ? `${target.products.length === 1 ? "It leaves its store" : "They leave their stores"} at once and stop counting as listed products (the vendor's count and the dashboard follow). The artist is shown the reason.`
                  : `${target.products.length === 1 ? "It is" : "They are"} listed in ${target.products.length === 1 ? "its store" : "their stores"} again and count as listed products.`}
                {target.bulk && target.products.length > 1 && " All of them change, or none does."}
              </DialogDescription>
            </DialogHeader>
            <form className="grid gap-4" noValidate onSubmit={onSubmit}>
              <ReasonField
                id={reasonId}
                label={hide ? "Reason (shown to the artist)" : "Note (optional)"}
                value={reason}
                onChange={setReason}
                templates={templates}
                required={hide}
                error={errors.reason}
              />
              <FormDialogFooter error={errors.form} onCancel={close}>
                <Button type="submit" variant={hide ? "destructive" : "default"} disabled={pending}>
                  {pending ? (hide ? "Hiding…" : "Restoring…") : hide ? `Hide ${countOf(target.products.length, "product")}` : `Restore ${countOf(target.products.length, "product")}`}
                </Button>
              </FormDialogFooter>
            </form>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
