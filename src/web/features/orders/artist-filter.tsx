import { useState } from "react";
import { useUrlParams } from "@web/components/list";
import { Input } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { useDebouncedValue } from "@web/lib/use-debounced-value";
import { useArtistOptions } from "./orders-api";

/**
 * The artist filter: type part of an artist's name, choose one of the matches (buttons, reached
 * with Tab), and the list shows that artist's orders (`?vendorId=`). The artist in force is named
 * under the filters with 'Show every artist'.
 */
export function ArtistFilter() {
  const [, update] = useUrlParams();
  const [input, setInput] = useState("");
  const search = useDebouncedValue(input.trim(), 300);
  const options = useArtistOptions(search);
  const matches = search === "" ? undefined : options.data?.vendors;
  return (
    <div className="relative grid gap-1">
      <Label htmlFor="order-artist">Artist</Label>
      <Input id="order-artist" type="search" placeholder="Part of an artist's name" value={input} onChange={(e) => setInput(e.target.value)} />
      {matches && (
        <ul aria-label="Matching artists" className="absolute top-full z-10 mt-1 grid min-w-full gap-1 rounded-md border border-gray-200 bg-white p-1 text-sm shadow-md">
          {matches.length === 0 && <li className="px-2 py-1 text-gray-600">No artist matches.</li>}
          {matches.map((v) => (
            <li key={v.id}>
              <button
                type="button"
                className="w-full rounded px-2 py-1 text-left hover:bg-gray-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
                onClick={() => {
                  update({ vendorId: v.id });
                  setInput("");
                }}
              >
                {v.name}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
