import type { ErrorLevel, ErrorLevelCounts } from "@contract/error-logs";
import { cn } from "@web/lib/cn";
import { formatCount, levelColorClasses } from "@web/lib/format";
import { LEVEL_LABELS } from "@web/lib/labels";

const CARDS: Array<{ key: keyof ErrorLevelCounts; label: string; level: ErrorLevel | null }> = [
  { key: "all", label: "All", level: null },
  ...(["error", "warning", "info"] as const).map((level) => ({ key: level, label: LEVEL_LABELS[level], level })),
];

/** The count of each level, each card a toggle that filters the list by its level (docs/product.md §5.1). */
export function LevelCards({ counts, level, onSelect }: { counts: ErrorLevelCounts | undefined; level: ErrorLevel | null; onSelect: (level: ErrorLevel | null) => void }) {
  return (
    <div className="grid grid-cols-2 gap-4 md:grid-cols-4" role="group" aria-label="Filter by level">
      {CARDS.map((card) => {
        const active = card.level === level;
        const count = counts?.[card.key];
        return (
          <button
            key={card.key}
            type="button"
            aria-pressed={active}
            data-testid={`error-card-${card.key}`}
            onClick={() => onSelect(card.level)}
            className={cn(
              "rounded-lg border bg-white p-4 text-left shadow-sm transition focus:outline-none focus-visible:ring-2 focus-visible:ring-gray-900",
              active ? "border-gray-900 ring-2 ring-gray-900" : "border-gray-200 hover:border-gray-400",
            )}
          >
            <span className="flex items-center gap-2 text-sm font-medium text-gray-600">
              {card.level && <span aria-hidden className={cn("h-2.5 w-2.5 rounded-full border", levelColorClasses(card.level))} />}
              {card.label}
            </span>
            <span className="mt-1 block text-2xl font-bold" data-testid={`error-count-${card.key}`}>
              {count === undefined ? "—" : formatCount(count)}
            </span>
          </button>
        );
      })}
    </div>
  );
}
