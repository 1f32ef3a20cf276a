import { useEffect, useState } from "react";

/** docs/product.md §2.5: a screen's data loading starts 100 ms after it opens. */
export const LOAD_DELAY_MS = 100;

/** False until `ms` after the first render, then true: pass it as a query's `enabled`. */
export function useLoadDelay(ms: number = LOAD_DELAY_MS): boolean {
  const [ready, setReady] = useState(ms <= 0);
  useEffect(() => {
    if (ms <= 0) return;
    const timer = setTimeout(() => setReady(true), ms);
    return () => clearTimeout(timer);
  }, [ms]);
  return ready;
}
