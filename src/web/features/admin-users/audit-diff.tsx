import { cn } from "@web/lib/cn";

type Values = Record<string, unknown> | null;

/** A value as the diff shows it: strings as they are, "empty" for "", "none" for a missing value, JSON otherwise. */
export function shownValue(value: unknown): string {
  if (value === undefined || value === null) return "none";
  if (value === "") return "empty";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

export interface DiffRow {
  field: string;
  before: unknown;
  after: unknown;
  changed: boolean;
}

/** One row per field of `before` or `after`, in the order they first appear; `changed` where they differ. */
export function diffRows(before: Values, after: Values): DiffRow[] {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return fields.map((field) => {
    const b = before?.[field];
    const a = after?.[field];
    return { field, before: b, after: a, changed: JSON.stringify(b) !== JSON.stringify(a) };
  });
}

/** The before/after values of an audit entry side by side, changes marked, then its other details. */
export function AuditDiff({ before, after, details }: { before: Values; after: Values; details: Record<string, unknown> }) {
  const rows = diffRows(before, after);
  const extra = Object.entries(details);
  if (rows.length === 0 && extra.length === 0) return <p className="text-sm text-gray-600">No values recorded for this action.</p>;
  return (
    <div className="grid gap-3">
      {rows.length > 0 && (
        <table className="w-full text-sm" aria-label="Changes">
          <thead>
            <tr className="border-b border-gray-200 text-left text-gray-600">
              <th scope="col" className="py-1 pr-3 font-medium">
                Field
              </th>
              <th scope="col" className="py-1 pr-3 font-medium">
                Before
              </th>
              <th scope="col" className="py-1 font-medium">
                After
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.field} className="border-b border-gray-100 align-top" data-changed={row.changed}>
                <th scope="row" className="py-1 pr-3 font-mono text-xs font-normal">
                  {row.field}
                </th>
                <td className={cn("break-all py-1 pr-3", row.changed ? "bg-red-50 text-red-800 line-through decoration-red-400" : "text-gray-500")}>{shownValue(row.before)}</td>
                <td className={cn("break-all py-1", row.changed ? "bg-green-50 text-green-800" : "text-gray-500")}>{shownValue(row.after)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {extra.length > 0 && (
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-xs" aria-label="Details">
          {extra.map(([key, value]) => (
            <div key={key} className="contents">
              <dt className="font-mono text-gray-600">{key}</dt>
              <dd className="break-all">{shownValue(value)}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
