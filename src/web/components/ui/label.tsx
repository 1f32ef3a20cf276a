import { forwardRef, type LabelHTMLAttributes } from "react";
import { cn } from "@web/lib/cn";

export const Label = forwardRef<HTMLLabelElement, LabelHTMLAttributes<HTMLLabelElement>>(function Label({ className, ...props }, ref) {
  return <label ref={ref} className={cn("text-sm font-medium leading-none text-gray-900", className)} {...props} />;
});
