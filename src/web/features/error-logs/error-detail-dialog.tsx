import type { ReactNode } from "react";
import type { ErrorLogEntry } from "@contract/error-logs";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@web/components/ui/dialog";
import { cn } from "@web/lib/cn";
import { formatDateTime, levelColorClasses } from "@web/lib/format";

/** Context is stored as JSON text: pretty-printed when it parses, shown as is when it does not. */
export function formatContext(context: string | null): string | null {
  if (context === null || context.trim() === "") return null;
  try {
    return JSON.stringify(JSON.parse(context), null, 2);
  } catch {
    return context;
  }
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1">
      <dt className="text-xs font-medium uppercase tracking-wide text-gray-500">{label}</dt>
      <dd className="text-sm text-gray-900 break-words">{children}</dd>
    </div>
  );
}

const preClasses = "max-h-64 overflow-auto rounded-md border border-gray-200 bg-gray-50 p-3 font-mono text-xs whitespace-pre";

/** docs/product.md §5.1: level, status code, endpoint, method, user (or 'Anonymous'), IP, message, stack trace, user agent, context. */
export function ErrorDetailDialog({ entry, onClose }: { entry: ErrorLogEntry | null; onClose: () => void }) {
  const context = entry ? formatContext(entry.context) : null;
  return (
    <Dialog open={entry !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90vh] max-w-3xl overflow-y-auto">
        {entry && (
          <>
            <DialogHeader>
              <DialogTitle>Error Details</DialogTitle>
              <DialogDescription>{formatDateTime(entry.created_at)}</DialogDescription>
            </DialogHeader>
            <dl className="grid grid-cols-2 gap-4">
              <Field label="Level">
                <span className={cn("inline-block rounded-full border px-2 py-0.5 text-xs font-semibold", levelColorClasses(entry.level))}>{entry.level}</span>
              </Field>
              <Field label="Status Code">{entry.status_code ?? "—"}</Field>
              <Field label="Endpoint">{entry.endpoint ?? "—"}</Field>
              <Field label="Method">{entry.method ?? "—"}</Field>
              <Field label="User">{entry.user_email ?? "Anonymous"}</Field>
              <Field label="IP Address">{entry.ip_address ?? "—"}</Field>
            </dl>
            <dl className="grid gap-4">
              <Field label="Message">{entry.message}</Field>
              {entry.stack_trace && (
                <Field label="Stack Trace">
                  <pre className={preClasses} data-testid="error-stack-trace" tabIndex={0}>
                    {entry.stack_trace}
                  </pre>
                </Field>
              )}
              {entry.user_agent && <Field label="User Agent">{entry.user_agent}</Field>}
              {context !== null && (
                <Field label="Context">
                  <pre className={preClasses} data-testid="error-context" tabIndex={0}>
                    {context}
                  </pre>
                </Field>
              )}
            </dl>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
