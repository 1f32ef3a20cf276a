import type { ReactNode } from "react";
import { Button } from "./button";
import { DialogFooter } from "./dialog";
import { FormError } from "./field-error";

/** The end of a dialog's form: the error of the form as a whole (if any), Cancel, and the submit button given as `children`. */
export function FormDialogFooter({ error, onCancel, children }: { error: string | undefined; onCancel: () => void; children: ReactNode }) {
  return (
    <>
      <FormError error={error} />
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        {children}
      </DialogFooter>
    </>
  );
}
