import { useEffect } from "react";

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/** The search field of the list on screen (the list kit's SearchFilter is an input of type search). */
export function currentListSearch(): HTMLInputElement | null {
  const fields = document.querySelectorAll<HTMLInputElement>('main input[type="search"]');
  return [...fields].find((field) => field.getClientRects().length > 0 && !field.disabled) ?? null;
}

/**
 * The keyboard shortcuts of every screen (issue 23): Ctrl+K or Cmd+K opens the command palette;
 * `/` focuses the current list's search, unless the user is typing or a dialog is open.
 */
export function useGlobalShortcuts(openPalette: () => void): void {
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.altKey) return;
      if ((event.ctrlKey || event.metaKey) && !event.shiftKey && event.key.toLowerCase() === "k") {
        event.preventDefault();
        openPalette();
        return;
      }
      if (event.key !== "/" || event.ctrlKey || event.metaKey || isEditable(event.target)) return;
      if (document.querySelector('[role="dialog"], [role="alertdialog"], [role="menu"]')) return;
      const search = currentListSearch();
      if (!search) return;
      event.preventDefault();
      search.focus();
      search.select();
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [openPalette]);
}
