import * as AlertDialogPrimitive from "@radix-ui/react-alert-dialog";
import type { ComponentPropsWithoutRef, HTMLAttributes, ReactElement, ReactNode } from "react";
import { cn } from "@web/lib/cn";
import { buttonVariants, type ButtonVariant } from "./button";

// Confirmations (disable/delete vendor, cleanup archives): Radix keeps focus inside and
// does not close on outside click, so the user must choose an action.
export const AlertDialog = AlertDialogPrimitive.Root;
export const AlertDialogTrigger = AlertDialogPrimitive.Trigger;
export const AlertDialogPortal = AlertDialogPrimitive.Portal;

export function AlertDialogOverlay({ className, ...props }: ComponentPropsWithoutRef<typeof AlertDialogPrimitive.Overlay>) {
  return <AlertDialogPrimitive.Overlay className={cn("fixed inset-0 z-50 bg-black/50", className)} {...props} />;
}

export function AlertDialogContent({ className, ...props }: ComponentPropsWithoutRef<typeof AlertDialogPrimitive.Content>) {
  return (
    <AlertDialogPortal>
      <AlertDialogOverlay />
      <AlertDialogPrimitive.Content
        className={cn(
          // On a phone a dialog keeps a margin and scrolls inside itself (issue 23).
          "fixed left-1/2 top-1/2 z-50 grid max-h-[90vh] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto",
          "rounded-lg border border-gray-200 bg-white p-6 shadow-lg focus:outline-none",
          className,
        )}
        {...props}
      />
    </AlertDialogPortal>
  );
}

export function AlertDialogHeader({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn("flex flex-col gap-2 text-left", className)} {...props} />;
}

export function AlertDialogFooter({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn("flex flex-col-reverse gap-2 sm:flex-row sm:justify-end", className)} {...props} />;
}

export function AlertDialogTitle({ className, ...props }: ComponentPropsWithoutRef<typeof AlertDialogPrimitive.Title>) {
  return <AlertDialogPrimitive.Title className={cn("text-lg font-semibold", className)} {...props} />;
}

export function AlertDialogDescription({ className, ...props }: ComponentPropsWithoutRef<typeof AlertDialogPrimitive.Description>) {
  return <AlertDialogPrimitive.Description className={cn("text-sm text-gray-600", className)} {...props} />;
}

export function AlertDialogAction({ className, variant = "default", ...props }: ComponentPropsWithoutRef<typeof AlertDialogPrimitive.Action> & { variant?: ButtonVariant }) {
  return <AlertDialogPrimitive.Action className={buttonVariants({ variant, className })} {...props} />;
}

export function AlertDialogCancel({ className, ...props }: ComponentPropsWithoutRef<typeof AlertDialogPrimitive.Cancel>) {
  return <AlertDialogPrimitive.Cancel className={buttonVariants({ variant: "outline", className })} {...props} />;
}

export interface ConfirmDialogProps {
  open: boolean;
  /** Called with false when the dialog closes by Cancel, Escape or the confirm action. */
  onOpenChange: (open: boolean) => void;
  title: string;
  /** Plain text, or one element (a block of several paragraphs) that becomes the description itself. */
  description: string | ReactElement;
  confirmLabel: string;
  confirmVariant?: ButtonVariant;
  onConfirm: () => void;
  cancelLabel?: string;
  onCancel?: () => void;
  /** Fields between the description and the buttons (a reason to give). */
  children?: ReactNode;
  /** The confirm action waits for them (a required reason not given yet). */
  confirmDisabled?: boolean;
}

/** The one confirmation layout: title, description, Cancel and the confirm action. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  confirmVariant = "default",
  onConfirm,
  cancelLabel = "Cancel",
  onCancel,
  children,
  confirmDisabled,
}: ConfirmDialogProps) {
  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          {typeof description === "string" ? <AlertDialogDescription>{description}</AlertDialogDescription> : <AlertDialogDescription asChild>{description}</AlertDialogDescription>}
        </AlertDialogHeader>
        {children}
        <AlertDialogFooter>
          <AlertDialogCancel onClick={onCancel}>{cancelLabel}</AlertDialogCancel>
          <AlertDialogAction variant={confirmVariant} onClick={onConfirm} disabled={confirmDisabled}>
            {confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
