import { forwardRef, type InputHTMLAttributes } from "react";
import { cn } from "@web/lib/cn";

export const inputClasses =
  "flex h-9 w-full rounded-md border border-gray-300 bg-white px-3 py-1 text-sm shadow-sm placeholder:text-gray-500 " +
  "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:border-blue-600 " +
  "disabled:cursor-not-allowed disabled:opacity-50 aria-[invalid=true]:border-red-600";

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input({ className, type = "text", ...props }, ref) {
  return <input ref={ref} type={type} className={cn(inputClasses, className)} {...props} />;
});

type PasswordInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "onChange"> & { onValueChange: (value: string) => void };

/** A password field that hands its value over on change (the beta, sign-in and invitation forms). */
export const PasswordInput = forwardRef<HTMLInputElement, PasswordInputProps>(function PasswordInput({ onValueChange, ...props }, ref) {
  return <Input ref={ref} type="password" onChange={(e) => onValueChange(e.target.value)} {...props} />;
});
