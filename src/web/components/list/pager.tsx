import { Button } from "@web/components/ui/button";
import { cn } from "@web/lib/cn";
import type { PagerControls } from "./use-pages";

export interface PagerProps extends PagerControls {
  /** The navigation landmark's name, e.g. 'Vendor pages'. */
  label: string;
  /** The line beside the buttons; 'Page {n}' when not given. */
  summary?: string;
  className?: string;
}

const unavailable = "aria-disabled:cursor-not-allowed aria-disabled:opacity-50 aria-disabled:hover:bg-white";

/**
 * Previous / Next for every list, keyset or page-numbered (controls from useKeysetPages or
 * useNumberedPages). An unavailable button is aria-disabled rather than disabled, so it keeps the
 * keyboard focus when the last page is reached (a disabled button would drop it to the page).
 */
export function Pager({ label, summary, className, page, hasPrevious, hasNext, onPrevious, onNext }: PagerProps) {
  return (
    <nav aria-label={label} className={cn("flex flex-wrap items-center justify-between gap-2 text-sm text-gray-600", className)}>
      <span aria-live="polite">{summary ?? `Page ${page}`}</span>
      <div className="flex gap-2">
        <Button size="sm" variant="outline" className={unavailable} aria-disabled={!hasPrevious} onClick={() => hasPrevious && onPrevious()}>
          Previous
        </Button>
        <Button size="sm" variant="outline" className={unavailable} aria-disabled={!hasNext} onClick={() => hasNext && onNext()}>
          Next
        </Button>
      </div>
    </nav>
  );
}
