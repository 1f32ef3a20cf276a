import * as DialogPrimitive from "@radix-ui/react-dialog";
import { useEffect, type RefObject } from "react";
import { NavList } from "./nav-list";

/** Where the sidebar shows instead (Tailwind's md breakpoint). */
const WIDE = "(min-width: 768px)";

/**
 * The navigation below 768 px (issue 23): a drawer from the left, opened by the top bar's menu
 * button. Radix's dialog traps focus inside and closes on Escape or a click outside; focus then goes
 * back to the menu button. Loaded on the first press of that button (src/web/app/on-demand.ts).
 */
export default function NavDrawer({ open, onOpenChange, returnFocusTo }: { open: boolean; onOpenChange: (open: boolean) => void; returnFocusTo: RefObject<HTMLButtonElement | null> }) {
  // Widening the window past the breakpoint shows the sidebar: the drawer closes.
  useEffect(() => {
    const wide = window.matchMedia(WIDE);
    const onChange = () => {
      if (wide.matches) onOpenChange(false);
    };
    wide.addEventListener("change", onChange);
    return () => wide.removeEventListener("change", onChange);
  }, [onOpenChange]);

  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-black/50" />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusTo.current?.focus();
          }}
          className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col gap-3 overflow-y-auto border-r border-gray-200 bg-white p-3 text-gray-900 shadow-lg focus:outline-none"
        >
          <div className="flex items-center justify-between gap-2 px-3 pt-1">
            <DialogPrimitive.Title className="text-base font-semibold">HKI Global Admin</DialogPrimitive.Title>
            <DialogPrimitive.Close
              aria-label="Close navigation"
              className="flex h-9 w-9 items-center justify-center rounded-md text-xl text-gray-600 hover:bg-gray-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
            >
              <span aria-hidden="true">×</span>
            </DialogPrimitive.Close>
          </div>
          <nav aria-label="Main">
            <NavList onNavigate={() => onOpenChange(false)} />
          </nav>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
