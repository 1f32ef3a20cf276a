import type { ReactNode } from "react";

/**
 * Says why a control is disabled: a disabled button gets no pointer or focus events, so the reason
 * sits on a wrapper that can be hovered (tooltip) and focused (screen readers read its label).
 * Without a reason it renders the control as it is.
 */
export function DisabledReason({ reason, children }: { reason: string | undefined; children: ReactNode }) {
  if (!reason) return <>{children}</>;
  return (
    <span className="inline-flex cursor-not-allowed" title={reason} tabIndex={0} aria-label={reason} role="note">
      {children}
    </span>
  );
}
