import type { ProductListItem } from "@contract/products";
import { Button } from "@web/components/ui/button";
import { DisabledReason } from "@web/components/ui/disabled-reason";
import { countOf } from "@web/lib/format";
import type { ModerationTarget } from "./moderation-dialog";

/**
 * What the selected rows can have done to them at once (docs/product.md §16): hide or restore,
 * all or nothing. Drafts are neither hidden nor restored, so a selection holding one offers neither.
 */
export function BulkBar({ selected, readOnly, onAction, onClear }: { selected: ProductListItem[]; readOnly: string | undefined; onAction: (t: ModerationTarget) => void; onClear: () => void }) {
  if (selected.length === 0) return null;
  const drafts = selected.filter((p) => p.status === "draft").length;
  const refusal = readOnly ?? (drafts > 0 ? `The selection holds ${countOf(drafts, "draft")}: drafts are not listed, so they can be neither hidden nor restored` : undefined);
  const products = selected.map((p) => ({ id: p.id, name: p.name }));
  const active = selected.filter((p) => p.status === "active").length;
  const hidden = selected.filter((p) => p.status === "hidden").length;
  return (
    <div role="region" aria-label="Selected products" className="flex flex-wrap items-center gap-3 rounded border border-blue-200 bg-blue-50 px-3 py-2 text-sm">
      <span data-testid="product-selection-count">{countOf(selected.length, "product")} selected</span>
      <DisabledReason reason={refusal ?? (active === 0 ? "None of the selected products is active" : undefined)}>
        <Button size="sm" variant="destructive" disabled={refusal !== undefined || active === 0} onClick={() => onAction({ action: "hide", products, bulk: true })}>
          Hide selected
        </Button>
      </DisabledReason>
      <DisabledReason reason={refusal ?? (hidden === 0 ? "None of the selected products is hidden" : undefined)}>
        <Button size="sm" variant="outline" disabled={refusal !== undefined || hidden === 0} onClick={() => onAction({ action: "restore", products, bulk: true })}>
          Restore selected
        </Button>
      </DisabledReason>
      <Button size="sm" variant="link" onClick={onClear}>
        Clear selection
      </Button>
    </div>
  );
}
