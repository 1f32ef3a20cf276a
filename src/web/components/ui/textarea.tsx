import { forwardRef, type TextareaHTMLAttributes } from "react";
import { cn } from "@web/lib/cn";
import { inputClasses } from "./input";

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(function Textarea({ className, ...props }, ref) {
  return <textarea ref={ref} className={cn(inputClasses, "min-h-20 h-auto py-2", className)} {...props} />;
});
