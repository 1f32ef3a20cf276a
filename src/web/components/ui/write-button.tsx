import type { EndpointDefinition } from "@contract/endpoint";
import { useEndpointAccess } from "@web/app/current-user";
import { Button, type ButtonProps } from "@web/components/ui/button";
import { DisabledReason } from "@web/components/ui/disabled-reason";

export interface WriteButtonProps extends Omit<ButtonProps, "asChild"> {
  /** The endpoint the button calls: a role it does not allow sees the button disabled with the reason. */
  endpoint: Pick<EndpointDefinition, "access">;
  /** Why this one action is refused even to a role that may call it (e.g. on one's own account): shown the same way. */
  refusal?: string;
}

/** A button that changes something (a payout, a run, an announcement): a role the endpoint does not allow sees it disabled with the reason (docs/product.md "Roles"). */
export function WriteButton({ endpoint, disabled = false, refusal, ...props }: WriteButtonProps) {
  const reason = useEndpointAccess(endpoint).reason ?? refusal;
  return (
    <DisabledReason reason={reason}>
      <Button {...props} disabled={disabled || reason !== undefined} />
    </DisabledReason>
  );
}
