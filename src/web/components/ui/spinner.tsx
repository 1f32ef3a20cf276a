import { cn } from "@web/lib/cn";

export interface SpinnerProps {
  className?: string;
  /** Announced to screen readers; the visual ring is hidden from them. */
  label?: string;
}

export function Spinner({ className, label = "Loading" }: SpinnerProps) {
  return (
    <div role="status" aria-live="polite" className={cn("inline-flex items-center justify-center", className)}>
      <span aria-hidden="true" className="h-8 w-8 animate-spin rounded-full border-4 border-gray-200 border-t-gray-900 motion-reduce:animate-none" />
      <span className="sr-only">{label}</span>
    </div>
  );
}
