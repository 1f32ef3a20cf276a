import { useWriteAccess } from "@web/app/current-user";
import { Button, type ButtonProps } from "@web/components/ui/button";
import { DisabledReason } from "@web/components/ui/disabled-reason";

/** A button that changes something (a payout, a run, an announcement): a viewer sees it disabled with the reason (docs/product.md §1.3). */
export function WriteButton({ disabled = false, ...props }: Omit<ButtonProps, "asChild">) {
  const { canWrite, reason } = useWriteAccess();
  return (
    <DisabledReason reason={reason}>
      <Button {...props} disabled={disabled || !canWrite} />
    </DisabledReason>
  );
}
