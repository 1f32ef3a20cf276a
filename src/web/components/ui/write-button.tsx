import { useWriteAccess } from "@web/app/current-user";
import { Button, type ButtonProps } from "@web/components/ui/button";
import { DisabledReason } from "@web/components/ui/disabled-reason";

export interface WriteButtonProps extends Omit<ButtonProps, "asChild"> {
  /** Why this one action is refused even to an admin (e.g. on one's own account): shown the same way. */
  refusal?: string;
}

/** A button that changes something (a payout, a run, an announcement): a viewer sees it disabled with the reason (docs/product.md §1.3). */
export function WriteButton({ disabled = false, refusal, ...props }: WriteButtonProps) {
  const reason = useWriteAccess().reason ?? refusal;
  return (
    <DisabledReason reason={reason}>
      <Button {...props} disabled={disabled || reason !== undefined} />
    </DisabledReason>
  );
}
