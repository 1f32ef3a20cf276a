import { useEffect, useRef, useState } from "react";
import { useDebouncedValue } from "@web/lib/use-debounced-value";
import { useUrlParams } from "./url-params";

export interface UrlSearch {
  /** What the field shows (every key typed). */
  input: string;
  setInput: (value: string) => void;
  /** The search to ask the server for: the input, trimmed, once typing has paused. */
  search: string;
  /** False while the URL still holds the search before: the list's position there belongs to that one. */
  settled: boolean;
}

/**
 * A search-as-you-type field whose search lives in the URL (`?search=`): the server is asked
 * `delayMs` after typing stops, and a new search starts the lists at their first page. Back,
 * forward and links that change the URL's search put it in the field.
 */
export function useUrlSearch(param = "search", delayMs = 300): UrlSearch {
  const [searchParams, update] = useUrlParams();
  const inUrl = searchParams.get(param) ?? "";
  const [input, setInput] = useState(inUrl);
  const search = useDebouncedValue(input.trim(), delayMs);
  const typed = useRef(search);

  // A search typed here goes to the URL once it settles.
  useEffect(() => {
    if (search === typed.current) return;
    typed.current = search;
    if (search !== inUrl) update({ [param]: search });
  }, [search, inUrl, param, update]);

  // The URL moved on its own (back, forward, a link): the field follows.
  const seen = useRef(inUrl);
  useEffect(() => {
    if (inUrl === seen.current) return;
    seen.current = inUrl;
    if (inUrl !== typed.current) setInput(inUrl);
  }, [inUrl]);

  return { input, setInput, search, settled: search === inUrl };
}
