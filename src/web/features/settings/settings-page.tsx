import { useEffect, useMemo, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router";
import { type SettingKeyName, type SettingsResponse, updateSettingsEndpoint } from "@contract/settings";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@web/components/ui/card";
import { Spinner } from "@web/components/ui/spinner";
import { toast } from "@web/components/ui/toast";
import { useLoadDelay } from "@web/lib/use-load-delay";
import { queryKeys } from "@web/lib/query-keys";
import { useSaveSettings, useSettings } from "./settings-api";
import { SETTING_GROUPS, type SettingValues, changedValues, fieldErrorsOf, valuesOf } from "./settings-form";
import { SettingField } from "./setting-field";
import { UnsavedChangesGuard } from "./unsaved-changes-guard";
import { UpdateHistory } from "./update-history";
import { LoadErrorCard } from "@web/components/ui/load-error-card";
import { DisabledReason } from "@web/components/ui/disabled-reason";
import { useEndpointAccess } from "@web/app/current-user";

/** Settings (docs/product.md §7.1): three groups, dirty tracking, save of changed keys only, reset, update history. */
export default function SettingsPage() {
  const ready = useLoadDelay();
  const settings = useSettings(ready);

  useEffect(() => {
    // docs/product.md §7.1: settings failures are logged to the console (and, here, also shown).
    if (settings.isError) console.error("Failed to load settings:", settings.error);
  }, [settings.isError, settings.error]);

  return (
    <section aria-labelledby="page-title" className="grid gap-6">
      <div>
        <h1 id="page-title" className="text-2xl font-bold">
          Settings
        </h1>
        <p className="text-gray-600">Platform pricing, configuration and communication.</p>
        <Link to="/admin-users?tab=activity&targetType=settings&targetId=platform" className="text-sm text-blue-700 hover:underline">
          View activity
        </Link>
      </div>
      {settings.isError ? (
        <LoadErrorCard title="Error loading settings" message={settings.error.message} onRetry={() => void settings.refetch()} retrying={settings.isFetching} />
      ) : settings.data ? (
        <SettingsForm settings={settings.data} />
      ) : (
        <Spinner className="py-12" label="Loading settings" />
      )}
    </section>
  );
}

function SettingsForm({ settings }: { settings: SettingsResponse }) {
  const queryClient = useQueryClient();
  const save = useSaveSettings();
  const loaded = useMemo(() => valuesOf(settings), [settings]);
  const [draft, setDraft] = useState<SettingValues>(loaded);
  const [errors, setErrors] = useState<Partial<Record<SettingKeyName, string>>>({});
  // Every role reads the settings; for a role that may not change them the fields and Save are disabled, with the reason (docs/product.md "Roles").
  const { allowed: canWrite, reason: readOnly } = useEndpointAccess(updateSettingsEndpoint);

  // A (re)load replaces the form with what the server holds: this is what clears the dirty state after Save.
  useEffect(() => {
    setDraft(loaded);
    setErrors({});
  }, [loaded]);

  const changes = changedValues(loaded, draft);
  const dirty = Object.keys(changes).length > 0;

  const onChange = (key: SettingKeyName, value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors(({ [key]: _dropped, ...rest }) => rest);
  };

  const onSave = () => {
    save.mutate(changes, {
      onSuccess: (saved) => {
        queryClient.setQueryData(queryKeys.settings.values(), saved);
        toast({ title: "Settings saved", variant: "success" });
      },
      onError: (error) => {
        // Each refused field shows its own message; the toast names the first.
        const fields = fieldErrorsOf(error);
        if (fields.length > 0) setErrors(Object.fromEntries(fields.map((f) => [f.key, f.message])));
        toast({ title: "Failed to save settings", description: fields[0]?.message ?? error.message, variant: "destructive" });
      },
    });
  };

  const onReset = () => {
    setDraft(loaded);
    setErrors({});
  };

  return (
    <>
      <UnsavedChangesGuard dirty={dirty} />
      <form
        className="grid gap-6"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (dirty && !save.isPending) onSave();
        }}
      >
        {dirty && (
          <div role="status" className="rounded-md border border-yellow-300 bg-yellow-50 px-4 py-3 text-sm font-medium text-yellow-900">
            You have unsaved changes
          </div>
        )}
        {SETTING_GROUPS.map((group) => (
          <Card key={group.title} role="group" aria-labelledby={`group-${group.title}`}>
            <CardHeader>
              <CardTitle id={`group-${group.title}`}>{group.title}</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-5 md:grid-cols-2">
              {group.fields.map((field) => (
                <div key={field.key} className={field.kind === "textarea" ? "md:col-span-2" : undefined}>
                  <SettingField
                    field={field}
                    setting={settings[field.key]}
                    value={draft[field.key]}
                    error={errors[field.key]}
                    disabled={save.isPending || !canWrite}
                    onChange={(v) => onChange(field.key, v)}
                  />
                </div>
              ))}
            </CardContent>
          </Card>
        ))}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="outline" disabled={!dirty || save.isPending} onClick={onReset}>
            Reset
          </Button>
          <DisabledReason reason={readOnly}>
            <Button type="submit" disabled={!dirty || save.isPending || !canWrite}>
              {save.isPending ? "Saving…" : "Save Changes"}
            </Button>
          </DisabledReason>
        </div>
      </form>
      <UpdateHistory settings={settings} />
    </>
  );
}
