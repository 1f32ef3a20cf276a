import type { HTMLAttributes } from "react";
import { cn } from "@web/lib/cn";

const variants = {
  default: "border-transparent bg-gray-900 text-white",
  secondary: "border-transparent bg-gray-100 text-gray-900",
  success: "border-transparent bg-green-100 text-green-800",
  destructive: "border-transparent bg-red-100 text-red-800",
  warning: "border-transparent bg-yellow-100 text-yellow-800",
  info: "border-transparent bg-blue-100 text-blue-800",
  outline: "border-gray-300 text-gray-900",
} as const;

export type BadgeVariant = keyof typeof variants;

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  variant?: BadgeVariant;
}

export function Badge({ className, variant = "default", ...props }: BadgeProps) {
  return <span className={cn("inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold", variants[variant], className)} {...props} />;
}
