import { useCallback, useState } from "react";

/**
 * A module loaded on first use (a click, a shortcut) and kept: the layout's menus, drawer and
 * command palette stay out of the JS a signed-in admin downloads to see the dashboard (issue 23).
 * `load` must be a stable function (declared at module level); calling it again costs nothing.
 */
export function useOnDemand<T>(load: () => Promise<T>): [T | null, () => Promise<T>] {
  const [loaded, setLoaded] = useState<T | null>(null);
  const get = useCallback(async () => {
    const module = await load();
    setLoaded(() => module);
    return module;
  }, [load]);
  return [loaded, get];
}
