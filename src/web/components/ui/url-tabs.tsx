import type { ReactNode } from "react";
import { useSearchParams } from "react-router";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "./tabs";

export interface UrlTab<T extends string> {
  value: T;
  label: string;
  /** A count shown beside the label (what waits there), announced with it; none when undefined or 0. */
  badge?: number | undefined;
  /** Mounted only while its tab is open (so its data loads only then). */
  panel: ReactNode;
}

export interface UrlTabsProps<T extends string> {
  tabs: ReadonlyArray<UrlTab<T>>;
  /** The tab shown when `?tab=` names none of them. */
  fallback: T;
  /**
   * Each tab has filters of its own in the URL: a new tab starts with none of the other's (and the
   * fallback tab with a bare URL). Otherwise the other parameters stay.
   */
  ownParams?: boolean;
}

/** Tabs whose choice lives in the URL (`?tab=`), so reload, back and links keep it. */
export function UrlTabs<T extends string>({ tabs, fallback, ownParams = false }: UrlTabsProps<T>) {
  const [searchParams, setSearchParams] = useSearchParams();
  const value = tabs.find((t) => t.value === searchParams.get("tab"))?.value ?? fallback;
  const choose = (next: string) =>
    setSearchParams(
      (prev) => {
        if (ownParams) return new URLSearchParams(next === fallback ? {} : { tab: next });
        const params = new URLSearchParams(prev);
        params.set("tab", next);
        return params;
      },
      { replace: true },
    );
  return (
    <Tabs value={value} onValueChange={choose}>
      {/* Many tabs scroll sideways on a small screen rather than spill out of it. */}
      <TabsList className="max-w-full justify-start overflow-x-auto">
        {tabs.map((t) => (
          <TabsTrigger key={t.value} value={t.value}>
            {t.label}
            {t.badge ? (
              <span className="ml-1.5 rounded-full bg-red-600 px-1.5 text-xs font-semibold text-white" aria-label={`(${t.badge} waiting)`}>
                {t.badge.toLocaleString("en-US")}
              </span>
            ) : null}
          </TabsTrigger>
        ))}
      </TabsList>
      {tabs.map((t) => (
        <TabsContent key={t.value} value={t.value}>
          {t.panel}
        </TabsContent>
      ))}
    </Tabs>
  );
}
