import { type ChangeEvent, type ComponentProps, type FormEvent, useId, useState } from "react";
import { Button } from "@web/components/ui/button";
import { DisabledReason } from "@web/components/ui/disabled-reason";
import { Input } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import type { AuditLogFilterValues } from "./admin-users-api";

export const NO_FILTERS: AuditLogFilterValues = { actor: "", action: "", targetType: "", targetId: "", from: "", to: "" };

/** Actions the panel writes today (the filter also takes any other, for actions added later). */
export const KNOWN_ACTIONS = [
  "vendor.enable",
  "vendor.disable",
  "vendor.delete",
  "settings.update",
  "error_logs.archive",
  "error_logs.archive_all",
  "error_logs.cleanup_archived",
  "invitation.create",
  "invitation.resend",
  "invitation.revoke",
  "invitation.accept",
  "user.role_change",
  "user.access_remove",
  "user.sessions_revoke",
  "user.two_step_reset",
  "auth.sign_in",
  "auth.sign_in_failed",
  "auth.lockout",
  "auth.two_step_setup",
  "auth.two_step_enable",
  "auth.two_step_disable",
  "audit_log.retention",
  "export.create",
];
const KNOWN_TARGET_TYPES = ["vendor", "settings", "error_log", "error_logs", "user", "invitation", "audit_log", "export"];

/** One filter: its label, the field, and the values it suggests (any other is taken too). */
function FilterField({ label, suggestions, ...input }: { label: string; suggestions?: readonly string[] } & ComponentProps<typeof Input>) {
  const id = useId();
  const listId = useId();
  return (
    <div className="grid gap-1">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} list={suggestions ? listId : undefined} {...input} />
      {suggestions && (
        <datalist id={listId}>
          {suggestions.map((value) => (
            <option key={value} value={value} />
          ))}
        </datalist>
      )}
    </div>
  );
}

interface AuditLogFilterFormProps {
  /** The filters in the URL: the form starts from them (remount it when they change). */
  filters: AuditLogFilterValues;
  filtered: boolean;
  onApply: (filters: AuditLogFilterValues) => void;
  onExport: () => void;
  exporting: boolean;
  /** Why exporting is disabled (a viewer's session), if it is. */
  readOnly: string | undefined;
}

/** 'Actor', 'Action', 'Target type', 'Target id', 'From', 'To'; 'Apply filters', 'Clear filters', 'Export CSV' (docs/product.md §14.5). */
export function AuditLogFilterForm({ filters, filtered, onApply, onExport, exporting, readOnly }: AuditLogFilterFormProps) {
  const [draft, setDraft] = useState<AuditLogFilterValues>(filters);
  const field = (key: keyof AuditLogFilterValues) => ({ value: draft[key], onChange: (e: ChangeEvent<HTMLInputElement>) => setDraft((d) => ({ ...d, [key]: e.target.value })) });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <form onSubmit={onSubmit} className="grid gap-3 rounded-lg border border-gray-200 bg-white p-4" aria-label="Activity filters">
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <FilterField label="Actor" type="email" placeholder="E-mail of who did it" {...field("actor")} />
        <FilterField label="Action" placeholder="e.g. vendor.disable" suggestions={KNOWN_ACTIONS} {...field("action")} />
        <FilterField label="Target type" placeholder="e.g. vendor" suggestions={KNOWN_TARGET_TYPES} {...field("targetType")} />
        <FilterField label="Target id" placeholder="Needs a target type" disabled={draft.targetType.trim() === ""} {...field("targetId")} />
        <FilterField label="From" type="date" {...field("from")} />
        <FilterField label="To" type="date" {...field("to")} />
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="outline" disabled={!filtered} onClick={() => onApply(NO_FILTERS)}>
          Clear filters
        </Button>
        <Button type="submit">Apply filters</Button>
        <DisabledReason reason={readOnly}>
          <Button type="button" variant="outline" disabled={exporting || readOnly !== undefined} onClick={onExport}>
            {exporting ? "Exporting…" : "Export CSV"}
          </Button>
        </DisabledReason>
      </div>
    </form>
  );
}
