import type { DebugResponse } from "@contract/system-debug";
import { TitledCard } from "@web/components/ui/card";

/** 'Raw Debug Data': the whole answer, pretty-printed (docs/product.md §8.1). */
export function RawDataCard({ data }: { data: DebugResponse }) {
  return (
    <TitledCard title="Raw Debug Data" className="lg:col-span-2">
      <pre aria-label="Raw debug JSON" tabIndex={0} className="max-h-96 overflow-auto rounded bg-gray-900 p-4 text-xs text-gray-100">
        {JSON.stringify(data, null, 2)}
      </pre>
    </TitledCard>
  );
}
