import { Button } from "@web/components/ui/button";
import type { ListQuery } from "./list-state";

export interface RefreshButtonProps {
  query: Pick<ListQuery<unknown>, "refetch" | "isFetching">;
  /** What it says while reading ('Refreshing…' on System Debug, docs/product.md §8.1); 'Refresh' by default. */
  busyLabel?: string;
  /** Unavailable for another reason too (e.g. before the screen's load delay has passed). */
  disabled?: boolean;
}

/** 'Refresh': reads the list again; unavailable while it is being read. */
export function RefreshButton({ query, busyLabel = "Refresh", disabled = false }: RefreshButtonProps) {
  return (
    <Button variant="outline" onClick={() => void query.refetch()} disabled={disabled || query.isFetching}>
      {query.isFetching ? busyLabel : "Refresh"}
    </Button>
  );
}
