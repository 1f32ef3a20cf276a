import { Label } from "@web/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@web/components/ui/select";

export interface StatusSelectProps<S extends string> {
  /** The trigger's id, named by the label. */
  id: string;
  label: string;
  /** The first choice, which filters nothing ('All accounts'). */
  allLabel: string;
  /** The statuses offered, in order, with their words (lib/labels.ts). */
  labels: Readonly<Record<S, string>>;
  value: S | "all";
  onChange: (value: string) => void;
  /** The trigger's width. */
  className: string;
}

/** A list card's status filter: 'All …' and every status. */
export function StatusSelect<S extends string>({ id, label, allLabel, labels, value, onChange, className }: StatusSelectProps<S>) {
  return (
    <div className="grid gap-1">
      <Label htmlFor={id}>{label}</Label>
      <Select value={value} onValueChange={onChange}>
        <SelectTrigger id={id} className={className}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value="all">{allLabel}</SelectItem>
          {(Object.keys(labels) as S[]).map((s) => (
            <SelectItem key={s} value={s}>
              {labels[s]}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
