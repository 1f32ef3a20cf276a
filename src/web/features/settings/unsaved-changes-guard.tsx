import { useEffect } from "react";
import { useLeaveBlocker } from "@web/app/navigation";
import { ConfirmDialog } from "@web/components/ui/alert-dialog";

/**
 * Asks before leaving with unsaved changes: in-app navigation is held by the panel's blocker (app/navigation.tsx) and
 * answered in a dialog; closing or reloading the tab gets the browser's own prompt (beforeunload).
 */
export function UnsavedChangesGuard({ dirty }: { dirty: boolean }) {
  const blocker = useLeaveBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers need returnValue set to show the prompt.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [dirty]);

  return (
    <ConfirmDialog
      open={blocker.state === "blocked"}
      onOpenChange={(open) => {
        if (!open && blocker.state === "blocked") blocker.reset();
      }}
      title="Leave without saving?"
      description="You have unsaved changes. If you leave this page they will be lost."
      cancelLabel="Stay on Page"
      onCancel={() => blocker.reset?.()}
      confirmLabel="Leave Page"
      confirmVariant="destructive"
      onConfirm={() => blocker.proceed?.()}
    />
  );
}
