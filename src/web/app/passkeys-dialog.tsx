import { useId, useState, type FormEvent } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { passkeyListEndpoint, passkeyRegisterEndpoint, passkeyRegistrationOptionsEndpoint, PASSKEY_NAME_MAX } from "@contract/auth";
import { Button } from "@web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@web/components/ui/dialog";
import { Input } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { Spinner } from "@web/components/ui/spinner";
import { toast } from "@web/components/ui/toast";
import { apiErrorMessage, apiFieldErrors, callApi, mutationOf } from "@web/lib/api-client";
import { queryKeys } from "@web/lib/query-keys";
import { PasskeyList } from "./passkeys-list";
import { addPasskeyProblem, createPasskey } from "./passkeys-webauthn";

/**
 * 'Passkeys' of the user menu (docs/product.md "Two-step sign-in"): the user's passkeys with when
 * each was last used, adding one under a name (the browser's own prompt: this device, a phone or a
 * security key), renaming and removing them. A passkey signs in on its own, and answers the second
 * step after a password.
 */
export default function PasskeysDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const passkeys = useQuery({ queryKey: queryKeys.auth.passkeys(), queryFn: ({ signal }) => callApi(passkeyListEndpoint, {}, { signal }), enabled: open });

  let list;
  if (!passkeys.data) list = passkeys.isError ? <p role="alert">{apiErrorMessage(passkeys.error)}</p> : <Spinner label="Loading passkeys" />;
  else if (passkeys.data.passkeys.length === 0) list = <p className="text-sm text-gray-600">You have no passkeys yet.</p>;
  else list = <PasskeyList passkeys={passkeys.data.passkeys} />;

  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Passkeys</DialogTitle>
          <DialogDescription>Sign in with your device&apos;s fingerprint, face or PIN, your phone, or a security key, without a password or code.</DialogDescription>
        </DialogHeader>
        <div className="grid gap-4 text-sm">
          {list}
          <AddPasskey />
        </div>
      </DialogContent>
    </Dialog>
  );
}

/** The name field and 'Add a passkey': the server's options, the browser's prompt, then the passkey stored under the name. */
function AddPasskey() {
  const nameId = useId();
  const errorId = useId();
  const [name, setName] = useState("");
  const add = useMutation({
    ...mutationOf(passkeyRegisterEndpoint),
    mutationFn: async (passkeyName: string) => {
      const options = await callApi(passkeyRegistrationOptionsEndpoint, {});
      const response = await createPasskey(options);
      return callApi(passkeyRegisterEndpoint, { body: { name: passkeyName, response } });
    },
  });
  const nameProblem = add.error ? apiFieldErrors(add.error).name : undefined;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    add.mutate(name.trim(), {
      onSuccess: (passkey) => {
        setName("");
        toast({ title: `Passkey “${passkey.name}” added`, variant: "success" });
      },
    });
  }

  return (
    <form className="grid gap-2 border-t border-gray-200 pt-4" onSubmit={submit} noValidate>
      <Label htmlFor={nameId}>Name of the new passkey</Label>
      <Input
        id={nameId}
        placeholder="e.g. Work laptop, YubiKey"
        maxLength={PASSKEY_NAME_MAX}
        required
        value={name}
        aria-describedby={add.error ? errorId : undefined}
        onChange={(e) => setName(e.target.value)}
      />
      {add.error ? (
        <p id={errorId} role="alert" className="text-sm text-red-700">
          {nameProblem ? `Name: ${nameProblem}` : addPasskeyProblem(add.error)}
        </p>
      ) : null}
      <div className="flex justify-end">
        <Button type="submit" disabled={add.isPending || name.trim() === ""}>
          {add.isPending ? "Waiting for your passkey…" : "Add a passkey"}
        </Button>
      </div>
    </form>
  );
}
