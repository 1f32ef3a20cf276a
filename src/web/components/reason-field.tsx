import { MAX_DECISION_REASON_LENGTH } from "@contract/common";
import { FieldError, invalidProps } from "@web/components/ui/field-error";
import { Label } from "@web/components/ui/label";
import { Textarea } from "@web/components/ui/textarea";

interface ReasonFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The reason templates (Settings): choosing one puts its text in the field, to send as it is or edit. */
  templates: readonly string[];
  required?: boolean;
  error?: string | undefined;
}

/**
 * The reason of a decision (docs/product.md "Reasons for every decision"): a template from Settings
 * or the operator's own text, shown to the artist.
 */
export function ReasonField({ id, label, value, onChange, templates, required = false, error }: ReasonFieldProps) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {templates.length > 0 && (
        <ul aria-label="Reason templates" className="flex flex-wrap gap-1.5">
          {templates.map((template) => (
            <li key={template}>
              <button
                type="button"
                className="max-w-full truncate rounded-full border border-gray-300 bg-gray-50 px-2.5 py-0.5 text-left text-xs text-gray-800 hover:bg-gray-100 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none"
                aria-pressed={value === template}
                onClick={() => onChange(template)}
              >
                {template}
              </button>
            </li>
          ))}
        </ul>
      )}
      <Textarea id={id} value={value} rows={3} maxLength={MAX_DECISION_REASON_LENGTH} required={required} onChange={(e) => onChange(e.target.value)} {...invalidProps(id, error)} />
      <FieldError id={id} error={error} />
    </div>
  );
}
