import { useState } from "react";
import { ANNOUNCEMENT_AUDIENCES, type AnnouncementAudience } from "@contract/communications";
import { Button } from "@web/components/ui/button";
import { FieldError, invalidProps } from "@web/components/ui/field-error";
import { Input, inputClasses } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { countOf } from "@web/lib/format";
import { useDebouncedValue } from "@web/lib/use-debounced-value";
import { useArtistSearch } from "./communications-api";
import { AUDIENCE_LABELS } from "./communications-text";
import type { ComposerForm } from "./composer-form";

interface AudienceFieldsProps {
  form: ComposerForm;
  change: (changes: Partial<ComposerForm>) => void;
  /** How many artists the audience reaches now (from the preview), null while unknown. */
  reach: number | null;
  errors: Record<string, string>;
}

/** Who receives it: all, active or inactive artists, or chosen ones; internal stores only when ticked; and how many that is. */
export function AudienceFields({ form, change, reach, errors }: AudienceFieldsProps) {
  return (
    <fieldset className="grid gap-3">
      <legend className="mb-1 text-sm font-medium">Audience</legend>
      <div className="flex flex-wrap items-end gap-4">
        <div className="grid gap-1">
          <Label htmlFor="announcement-audience">Send to</Label>
          <select
            id="announcement-audience"
            className={inputClasses}
            value={form.audience}
            onChange={(e) => change({ audience: e.target.value as AnnouncementAudience, ...(e.target.value === "vendorIds" ? { dashboard: false, email: true } : {}) })}
            {...invalidProps("announcement-audience", errors.audience)}
          >
            {ANNOUNCEMENT_AUDIENCES.map((a) => (
              <option key={a} value={a}>
                {AUDIENCE_LABELS[a]}
              </option>
            ))}
          </select>
        </div>
        <label className="flex items-center gap-2 pb-2 text-sm">
          <input type="checkbox" checked={form.includeInternal} onChange={(e) => change({ includeInternal: e.target.checked })} />
          Include internal stores
        </label>
        <p className="pb-2 text-sm" aria-live="polite" data-testid="announcement-reach">
          {reach === null ? "" : reach === 0 ? "Reaches nobody" : `Reaches ${countOf(reach, "artist")}`}
        </p>
      </div>
      <FieldError id="announcement-audience" error={errors.audience} />
      {form.audience === "vendorIds" && <ArtistPicker form={form} change={change} error={errors.vendorIds} />}
    </fieldset>
  );
}

/** Chosen artists: search by name or e-mail, add from the matches, remove a chip. */
function ArtistPicker({ form, change, error }: { form: ComposerForm; change: AudienceFieldsProps["change"]; error: string | undefined }) {
  const [search, setSearch] = useState("");
  const settled = useDebouncedValue(search, 250);
  const matches = useArtistSearch(settled);
  const chosenIds = new Set(form.chosen.map((c) => c.id));
  return (
    <div className="grid gap-2">
      <Label htmlFor="announcement-artist-search">Find artists</Label>
      <Input
        id="announcement-artist-search"
        type="search"
        placeholder="Name or e-mail"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        {...invalidProps("announcement-artist-search", error)}
      />
      <FieldError id="announcement-artist-search" error={error} />
      {settled.trim() !== "" && (
        <ul className="grid gap-1" aria-label="Matching artists">
          {(matches.data?.vendors ?? []).map((v) => (
            <li key={v.id} className="flex items-center justify-between gap-2 text-sm">
              <span>
                {v.name} <span className="text-gray-500">{v.email}</span>
                {!v.isActive && <span className="text-gray-500"> (inactive)</span>}
                {v.isInternal && <span className="text-gray-500"> (internal)</span>}
              </span>
              <Button size="sm" variant="outline" disabled={chosenIds.has(v.id)} onClick={() => change({ chosen: [...form.chosen, { id: v.id, name: v.name }] })}>
                {chosenIds.has(v.id) ? "Added" : "Add"}
              </Button>
            </li>
          ))}
          {matches.data && matches.data.vendors.length === 0 && <li className="text-sm text-gray-600">No artist matches.</li>}
        </ul>
      )}
      {form.chosen.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label="Chosen artists">
          {form.chosen.map((c) => (
            <li key={c.id} className="flex items-center gap-1 rounded-full border border-gray-300 px-3 py-1 text-sm">
              {c.name}
              <button type="button" className="text-gray-500 hover:text-gray-900" aria-label={`Remove ${c.name}`} onClick={() => change({ chosen: form.chosen.filter((x) => x.id !== c.id) })}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
