import { useId, useState, type FormEvent } from "react";
import { type Passkey, passkeyRemoveEndpoint, passkeyRenameEndpoint, PASSKEY_NAME_MAX } from "@contract/auth";
import { ConfirmDialog } from "@web/components/ui/alert-dialog";
import { Button } from "@web/components/ui/button";
import { Input } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { toast } from "@web/components/ui/toast";
import { apiErrorMessage } from "@web/lib/api-client";
import { formatDate, formatDateTime } from "@web/lib/format";
import { byId, useApiMutation } from "@web/lib/use-api-mutation";

/** The user's passkeys, each with when it was added and last used, 'Rename' and 'Remove' (confirmed, naming it). */
export function PasskeyList({ passkeys }: { passkeys: Passkey[] }) {
  return (
    <ul aria-label="Your passkeys" className="grid gap-2">
      {passkeys.map((passkey) => (
        <PasskeyRow key={passkey.id} passkey={passkey} />
      ))}
    </ul>
  );
}

function PasskeyRow({ passkey }: { passkey: Passkey }) {
  const [renaming, setRenaming] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const remove = useApiMutation(passkeyRemoveEndpoint, () => byId(passkey.id));

  return (
    <li className="grid gap-2 rounded border border-gray-200 p-3" aria-label={passkey.name}>
      {renaming ? (
        <RenameForm passkey={passkey} onDone={() => setRenaming(false)} />
      ) : (
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div>
            <p className="font-medium">{passkey.name}</p>
            <p className="text-xs text-gray-600">
              Added {formatDate(passkey.createdAt)} · {passkey.lastUsedAt ? `Last used ${formatDateTime(passkey.lastUsedAt)}` : "Never used"}
            </p>
          </div>
          <div className="flex gap-2">
            <Button size="sm" variant="outline" onClick={() => setRenaming(true)}>
              Rename
            </Button>
            <Button size="sm" variant="outline" disabled={remove.isPending} onClick={() => setConfirming(true)}>
              {remove.isPending ? "Removing…" : "Remove"}
            </Button>
          </div>
        </div>
      )}
      {remove.error ? (
        <p role="alert" className="text-sm text-red-700">
          {apiErrorMessage(remove.error)}
        </p>
      ) : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Remove the passkey “${passkey.name}”?`}
        description={`“${passkey.name}” will no longer sign you in, or answer the second step after your password. The device or key may still show it: remove it there too.`}
        confirmLabel="Remove passkey"
        confirmVariant="destructive"
        onConfirm={() => remove.mutate(undefined, { onSuccess: () => toast({ title: `Passkey “${passkey.name}” removed`, variant: "success" }) })}
      />
    </li>
  );
}

function RenameForm({ passkey, onDone }: { passkey: Passkey; onDone: () => void }) {
  const nameId = useId();
  const [name, setName] = useState(passkey.name);
  const rename = useApiMutation(passkeyRenameEndpoint, (newName: string) => ({ ...byId(passkey.id), body: { name: newName } }));
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    rename.mutate(name.trim(), { onSuccess: onDone });
  }
  return (
    <form className="grid gap-2" onSubmit={submit} noValidate>
      <Label htmlFor={nameId}>New name for “{passkey.name}”</Label>
      <Input id={nameId} autoFocus maxLength={PASSKEY_NAME_MAX} required value={name} onChange={(e) => setName(e.target.value)} />
      {rename.error ? (
        <p role="alert" className="text-sm text-red-700">
          {apiErrorMessage(rename.error)}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button type="button" size="sm" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" size="sm" disabled={rename.isPending || name.trim() === ""}>
          {rename.isPending ? "Saving…" : "Save"}
        </Button>
      </div>
    </form>
  );
}
