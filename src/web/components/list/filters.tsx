import type { ReactNode } from "react";
import { Input, inputClasses } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { useUrlParams } from "./url-params";
import type { UrlSearch } from "./use-url-search";

/** The row of a list's filters above it. */
export function FilterBar({ children }: { children: ReactNode }) {
  return <div className="flex flex-wrap items-end gap-4">{children}</div>;
}

/** The search field of a list (its state from useUrlSearch). */
export function SearchFilter({ id, label, placeholder, search }: { id: string; label: string; placeholder: string; search: UrlSearch }) {
  return (
    <div className="grid min-w-64 flex-1 gap-1">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} type="search" placeholder={placeholder} value={search.input} onChange={(e) => search.setInput(e.target.value)} />
    </div>
  );
}

interface SelectFilterProps<T extends string> {
  id: string;
  label: string;
  /** The URL parameter it sets; choosing `allValue` removes it. Either way the lists go back to their first page. */
  param: string;
  value: T;
  options: ReadonlyArray<{ value: T; label: string }>;
  allValue?: T | "all";
}

/** A choice among a list's values (status, role), kept in the URL. */
export function SelectFilter<T extends string>({ id, label, param, value, options, allValue = "all" }: SelectFilterProps<T>) {
  const [, update] = useUrlParams();
  return (
    <div className="grid gap-1">
      <Label htmlFor={id}>{label}</Label>
      <select id={id} className={inputClasses} value={value} onChange={(e) => update({ [param]: e.target.value === allValue ? null : e.target.value })}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
