import { useState } from "react";
import type { SettingKeyName, SettingsResponse } from "@contract/settings";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { Spinner } from "@web/components/ui/spinner";
import { formatDateTime } from "@web/lib/format";
import { useSettingHistory } from "./settings-api";
import { ALL_FIELDS } from "./settings-form";

/** docs/product.md §7.3: each setting with its last update date and who updated it; expandable to its change history. */
export function UpdateHistory({ settings }: { settings: SettingsResponse }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Update History</CardTitle>
        <CardDescription>When each setting was last changed, and by whom.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y divide-gray-200">
          {ALL_FIELDS.map((field) => (
            <HistoryRow key={field.key} settingKey={field.key} label={field.label} settings={settings} />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

function HistoryRow({ settingKey, label, settings }: { settingKey: SettingKeyName; label: string; settings: SettingsResponse }) {
  const [open, setOpen] = useState(false);
  const setting = settings[settingKey];
  const panelId = `history-${settingKey}`;
  return (
    <li className="py-3" aria-label={`${label} history`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <p className="font-medium">{label}</p>
          <p className="text-sm text-gray-600">
            Last updated {formatDateTime(setting.updatedAt)} by {setting.updatedBy ?? "system (initial value)"}
          </p>
        </div>
        <Button variant="outline" size="sm" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)}>
          {open ? "Hide changes" : "Show changes"}
        </Button>
      </div>
      {open && (
        <div id={panelId} className="mt-2">
          <ChangeList settingKey={settingKey} />
        </div>
      )}
    </li>
  );
}

function ChangeList({ settingKey }: { settingKey: SettingKeyName }) {
  const history = useSettingHistory(settingKey, true);
  if (history.isPending) return <Spinner label="Loading history" />;
  if (history.isError)
    return (
      <p role="alert" className="text-sm text-red-700">
        Failed to load history: {history.error.message}
      </p>
    );
  const changes = history.data.pages.flatMap((p) => p.changes);
  if (changes.length === 0) return <p className="text-sm text-gray-600">No changes recorded yet.</p>;
  return (
    <div className="grid gap-2">
      <ol className="grid gap-1 text-sm">
        {changes.map((c) => (
          <li key={c.id} className="rounded bg-gray-50 px-3 py-2">
            <span className="text-gray-600">{formatDateTime(c.changedAt)}</span> · {c.changedBy}: <Value value={c.oldValue} /> → <Value value={c.newValue} />
          </li>
        ))}
      </ol>
      {history.hasNextPage && (
        <Button variant="ghost" size="sm" className="justify-self-start" disabled={history.isFetchingNextPage} onClick={() => void history.fetchNextPage()}>
          {history.isFetchingNextPage ? "Loading…" : "Load older changes"}
        </Button>
      )}
    </div>
  );
}

function Value({ value }: { value: string | null }) {
  if (value === null) return <em>none</em>;
  if (value === "") return <em>empty</em>;
  return <code className="break-all rounded bg-white px-1">{value}</code>;
}
