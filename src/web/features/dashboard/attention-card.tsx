import { Link } from "react-router";
import type { AttentionItem } from "@contract/dashboard";
import { TitledCard } from "@web/components/ui/card";
import { Spinner } from "@web/components/ui/spinner";
import { apiErrorMessage } from "@web/lib/api-client";
import { formatCount } from "@web/lib/format";
import { cn } from "@web/lib/cn";
import { useAttention } from "./dashboard-api";

const SEVERITY_CLASSES: Record<AttentionItem["severity"], string> = {
  critical: "border-red-200 bg-red-50 text-red-900",
  warning: "border-yellow-200 bg-yellow-50 text-yellow-900",
  info: "border-blue-200 bg-blue-50 text-blue-900",
};

/** 'Needs Attention' (docs/product.md §18.3): each item with its count, linking to the filtered list. */
export function AttentionCard({ enabled }: { enabled: boolean }) {
  const attention = useAttention(enabled);
  return (
    <TitledCard title="Needs Attention" contentClassName="grid gap-2">
      {attention.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {apiErrorMessage(attention.error)}
        </p>
      ) : !attention.data ? (
        <Spinner label="Loading what needs attention" />
      ) : attention.data.items.length === 0 ? (
        <p className="text-sm text-gray-600">Nothing needs attention right now.</p>
      ) : (
        <ul className="grid gap-2" aria-label="Needs Attention">
          {attention.data.items.map((item) => (
            <li key={item.key}>
              <Link to={item.href} className={cn("flex items-center justify-between gap-3 rounded-md border p-3 text-sm hover:underline", SEVERITY_CLASSES[item.severity])}>
                <span className="grid">
                  <span className="font-medium">{item.label}</span>
                  {item.detail ? <span className="text-xs opacity-80">{item.detail}</span> : null}
                </span>
                <span className="shrink-0 text-lg font-semibold tabular-nums" aria-label={`${item.capped ? "at least " : ""}${item.count}`}>
                  {formatCount(item.count)}
                  {item.capped ? "+" : ""}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </TitledCard>
  );
}
