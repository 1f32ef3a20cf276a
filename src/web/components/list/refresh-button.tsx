import { Button } from "@web/components/ui/button";
import type { ListQuery } from "./list-state";

/** 'Refresh': reads the list again; unavailable while it is being read. */
export function RefreshButton({ query }: { query: Pick<ListQuery<unknown>, "refetch" | "isFetching"> }) {
  return (
    <Button variant="outline" onClick={() => void query.refetch()} disabled={query.isFetching}>
      Refresh
    </Button>
  );
}
