import type { PreviewResponse } from "@contract/communications";
import { Spinner } from "@web/components/ui/spinner";

/**
 * The live preview: the mail's HTML part in a sandboxed frame (nothing in it can run, even though
 * the server already sanitised it) and its plain-text part.
 */
export function PreviewPanel({ preview, loading, waitingFor }: { preview: PreviewResponse | undefined; loading: boolean; waitingFor: string | null }) {
  if (!preview) {
    return (
      <div className="grid min-h-48 place-items-center rounded border border-dashed border-gray-300 p-6 text-sm text-gray-600">
        {loading ? <Spinner label="Loading preview" /> : (waitingFor ?? "The preview shows here.")}
      </div>
    );
  }
  return (
    <div className="grid gap-3" aria-busy={loading}>
      <iframe title="E-mail preview" sandbox="" srcDoc={preview.html} className="h-72 w-full rounded border border-gray-200 bg-white" />
      <details>
        <summary className="cursor-pointer text-sm text-gray-700">Plain-text part</summary>
        <pre className="mt-2 max-h-60 overflow-auto whitespace-pre-wrap rounded bg-gray-50 p-3 text-sm">{preview.text}</pre>
      </details>
    </div>
  );
}
