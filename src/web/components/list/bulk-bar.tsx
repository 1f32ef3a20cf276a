import type { ReactNode } from "react";
import { Button } from "@web/components/ui/button";
import { countOf } from "@web/lib/format";
import type { RowSelection } from "./use-row-selection";

export interface BulkBarProps {
  selection: RowSelection;
  /** The rows' noun, e.g. "vendor" ("3 vendors selected"); `plural` when not noun + "s". */
  noun: string;
  plural?: string;
  /** The bulk actions (buttons that open a confirmation naming how many). */
  children: ReactNode;
}

/**
 * The bar of a list's bulk actions, shown while rows are selected: how many (announced to screen
 * readers as it changes), the actions, and a way to clear the selection.
 */
export function BulkBar({ selection, noun, plural, children }: BulkBarProps) {
  const count = selection.selectedIds.length;
  if (count === 0) return null;
  return (
    <div role="region" aria-label="Bulk actions" className="flex flex-wrap items-center gap-3 rounded-lg border border-blue-200 bg-blue-50 px-4 py-2">
      <span aria-live="polite" className="text-sm font-medium">
        {countOf(count, noun, plural)} selected
      </span>
      <div className="flex flex-wrap gap-2">{children}</div>
      <Button size="sm" variant="ghost" onClick={selection.clear} className="ml-auto">
        Clear selection
      </Button>
    </div>
  );
}
