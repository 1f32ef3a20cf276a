import { FieldError, invalidProps } from "@web/components/ui/field-error";
import { Input } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import type { ComposerForm } from "./composer-form";

/** Channels (e-mail, dashboard) and, for the dashboard, until when it shows (empty: until taken down). */
export function ChannelFields({ form, change, errors }: { form: ComposerForm; change: (changes: Partial<ComposerForm>) => void; errors: Record<string, string> }) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">Channels</legend>
      <div className="flex flex-wrap gap-4">
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={form.email} onChange={(e) => change({ email: e.target.checked })} />
          Email
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={form.dashboard} disabled={form.audience === "vendorIds"} onChange={(e) => change({ dashboard: e.target.checked })} />
          Artists' dashboard
        </label>
      </div>
      {form.audience === "vendorIds" && <p className="text-xs text-gray-500">The dashboard shows to all, active or inactive artists: chosen artists get an e-mail.</p>}
      <FieldError id="announcement-channels" error={errors.channels ?? errors["channels.0"]} />
      {form.dashboard && (
        <div className="grid max-w-xs gap-1">
          <Label htmlFor="announcement-show-until">Show on the dashboard until</Label>
          <Input
            id="announcement-show-until"
            type="datetime-local"
            value={form.showUntil}
            onChange={(e) => change({ showUntil: e.target.value })}
            {...invalidProps("announcement-show-until", errors.showUntil)}
          />
          <p className="text-xs text-gray-500">Empty: until you take it down.</p>
          <FieldError id="announcement-show-until" error={errors.showUntil} />
        </div>
      )}
    </fieldset>
  );
}
