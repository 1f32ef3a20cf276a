import type { PlatformSetting } from "@contract/settings";
import { Badge } from "@web/components/ui/badge";
import { Input } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@web/components/ui/select";
import { Textarea } from "@web/components/ui/textarea";
import type { FieldDef } from "./settings-form";

interface SettingFieldProps {
  field: FieldDef;
  setting: PlatformSetting;
  value: string;
  error: string | undefined;
  disabled: boolean;
  onChange: (value: string) => void;
}

/** One setting: its label, the input kind of docs/product.md §7.1, its description and any server error beside it. */
export function SettingField({ field, setting, value, error, disabled, onChange }: SettingFieldProps) {
  const id = `setting-${field.key}`;
  const descriptionId = `${id}-description`;
  const errorId = `${id}-error`;
  const describedBy = error ? `${descriptionId} ${errorId}` : descriptionId;
  const common = { id, disabled, "aria-describedby": describedBy, "aria-invalid": error ? true : undefined } as const;

  return (
    <div className="grid gap-1.5">
      <div className="flex items-center gap-2">
        <Label htmlFor={id}>{field.label}</Label>
        {field.kind === "on-off" && <Badge variant={value === "true" ? (field.key === "maintenance_mode" ? "destructive" : "success") : "secondary"}>{value === "true" ? "ON" : "OFF"}</Badge>}
      </div>
      {renderInput(field, value, onChange, common)}
      <p id={descriptionId} className="text-sm text-gray-600">
        {setting.description}
      </p>
      {error && (
        <p id={errorId} role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

type CommonProps = { id: string; disabled: boolean; "aria-describedby": string; "aria-invalid": true | undefined };

function renderInput(field: FieldDef, value: string, onChange: (value: string) => void, common: CommonProps) {
  const onInput = (e: { target: { value: string } }) => onChange(e.target.value);
  switch (field.kind) {
    case "money":
      return <Input {...common} type="number" inputMode="decimal" step="0.01" min="0" value={value} onChange={onInput} />;
    case "percentage":
      return <Input {...common} type="number" inputMode="decimal" step="0.1" min="0" max="100" value={value} onChange={onInput} />;
    case "integer":
      return <Input {...common} type="number" inputMode="numeric" step="1" min="1" value={value} onChange={onInput} />;
    case "email":
      return <Input {...common} type="email" autoComplete="off" value={value} onChange={onInput} />;
    case "textarea":
      return <Textarea {...common} rows={3} placeholder="Leave empty to hide announcement" value={value} onChange={onInput} />;
    case "templates":
      return <Textarea {...common} rows={5} placeholder="One reason per line" value={value} onChange={onInput} />;
    case "on-off":
      return (
        <Select value={value} onValueChange={onChange} disabled={common.disabled}>
          <SelectTrigger id={common.id} aria-describedby={common["aria-describedby"]} aria-invalid={common["aria-invalid"]}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="false">Disabled</SelectItem>
            <SelectItem value="true">Enabled</SelectItem>
          </SelectContent>
        </Select>
      );
    case "feePayer":
      return (
        <Select value={value} onValueChange={onChange} disabled={common.disabled}>
          <SelectTrigger id={common.id} aria-describedby={common["aria-describedby"]} aria-invalid={common["aria-invalid"]}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="platform">Platform</SelectItem>
            <SelectItem value="artist">Artist</SelectItem>
          </SelectContent>
        </Select>
      );
    case "reviewMode":
      return (
        <Select value={value} onValueChange={onChange} disabled={common.disabled}>
          <SelectTrigger id={common.id} aria-describedby={common["aria-describedby"]} aria-invalid={common["aria-invalid"]}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="off">Off: every listing goes live at once</SelectItem>
            <SelectItem value="first_listings">The first listings of each artist</SelectItem>
            <SelectItem value="all">All new listings</SelectItem>
          </SelectContent>
        </Select>
      );
    case "text":
      return <Input {...common} type="text" autoComplete="off" value={value} onChange={onInput} />;
  }
}
