import { useId, useState, type FormEvent } from "react";
import { API_KEY_SCOPE_LABELS, API_KEY_SCOPES, type ApiKeyScope, type CreatedApiKey } from "@contract/integrations";
import { Button } from "@web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@web/components/ui/dialog";
import { FieldError, invalidProps } from "@web/components/ui/field-error";
import { FormDialogFooter } from "@web/components/ui/form-dialog-footer";
import { Input } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { toast } from "@web/components/ui/toast";
import { apiErrorMessage, apiFieldErrors } from "@web/lib/api-client";
import { useCreateApiKey } from "./integrations-api";

/** 'Create API key': a name and the scopes it may use; a field the server refuses shows its message. */
export function CreateApiKeyDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (created: CreatedApiKey) => void }) {
  const nameId = useId();
  const scopesId = useId();
  const create = useCreateApiKey();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<ApiKeyScope[]>(["events:write"]);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const reset = () => {
    setName("");
    setScopes(["events:write"]);
    setErrors({});
    create.reset();
  };
  const close = () => {
    reset();
    onClose();
  };
  const toggle = (scope: ApiKeyScope, on: boolean) => setScopes((s) => (on ? [...s.filter((x) => x !== scope), scope] : s.filter((x) => x !== scope)));

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setErrors({});
    create.mutate(
      { name: name.trim(), scopes },
      {
        onSuccess: (made) => {
          reset();
          onCreated(made);
        },
        onError: (error) => {
          const fields = apiFieldErrors(error);
          // A scope's own error ("scopes.0") belongs to the scopes group.
          const grouped = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k.startsWith("scopes") ? "scopes" : k, v]));
          setErrors(Object.keys(grouped).length > 0 ? grouped : { form: apiErrorMessage(error) });
        },
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !next && close()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create API key</DialogTitle>
          <DialogDescription>Name the service that will use it and choose what it may do.</DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" noValidate onSubmit={onSubmit}>
          <div className="grid gap-1">
            <Label htmlFor={nameId}>Name</Label>
            <Input
              id={nameId}
              autoComplete="off"
              required
              maxLength={100}
              placeholder="Storefront (production)"
              value={name}
              onChange={(e) => setName(e.target.value)}
              {...invalidProps(nameId, errors.name)}
            />
            <FieldError id={nameId} error={errors.name} />
          </div>
          <fieldset className="grid gap-2" aria-describedby={errors.scopes ? `${scopesId}-error` : undefined}>
            <legend className="text-sm font-medium">Scopes</legend>
            {API_KEY_SCOPES.map((scope) => (
              <label key={scope} className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  className="mt-0.5 h-4 w-4 rounded border-gray-300 focus-visible:ring-2 focus-visible:ring-blue-600"
                  checked={scopes.includes(scope)}
                  onChange={(e) => toggle(scope, e.target.checked)}
                />
                <span>
                  <code className="font-mono">{scope}</code>: {API_KEY_SCOPE_LABELS[scope]}
                </span>
              </label>
            ))}
            <FieldError id={scopesId} error={errors.scopes} />
          </fieldset>
          <FormDialogFooter error={errors.form} onCancel={close}>
            <Button type="submit" disabled={create.isPending || name.trim() === "" || scopes.length === 0}>
              {create.isPending ? "Creating…" : "Create key"}
            </Button>
          </FormDialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

async function copyKey(key: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(key);
    toast({ title: "API key copied", variant: "success" });
  } catch {
    toast({ title: "Could not copy the key: select it and copy it by hand", variant: "destructive" });
  }
}

/** The new key, shown this once: only its hash is stored, so it can never be shown again. */
export function KeyCreatedDialog({ created, onClose }: { created: CreatedApiKey | null; onClose: () => void }) {
  const keyId = useId();
  return (
    <Dialog open={created !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>API key created</DialogTitle>
          <DialogDescription>{created ? `Copy the key of "${created.apiKey.name}" now and keep it in the service's secret settings.` : ""}</DialogDescription>
        </DialogHeader>
        {created ? (
          <div className="grid gap-2">
            <Label htmlFor={keyId}>API key</Label>
            <div className="flex gap-2">
              <Input id={keyId} readOnly className="font-mono text-xs" value={created.key} onFocus={(e) => e.currentTarget.select()} data-testid="new-api-key" />
              <Button variant="outline" onClick={() => void copyKey(created.key)}>
                Copy key
              </Button>
            </div>
            <p role="note" className="rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900">
              You won&apos;t see this key again. If it is lost, revoke it and create a new one.
            </p>
          </div>
        ) : null}
        <DialogFooter>
          <Button onClick={onClose}>Done</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
