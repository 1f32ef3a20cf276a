import { useId, useState, type FormEvent } from "react";
import { useQuery } from "@tanstack/react-query";
import { twoStepConfirmEndpoint, twoStepDisableEndpoint, twoStepSetupEndpoint, twoStepStatusEndpoint, type TwoStepSetupResponse } from "@contract/auth";
import { Button } from "@web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@web/components/ui/dialog";
import { Input } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { Spinner } from "@web/components/ui/spinner";
import { toast } from "@web/components/ui/toast";
import { apiErrorMessage, callApi, errorStatus } from "@web/lib/api-client";
import { queryKeys } from "@web/lib/query-keys";
import { useApiMutation } from "@web/lib/use-api-mutation";

/** What a wrong code answers, in words. */
function codeProblem(error: unknown): string {
  const status = errorStatus(error);
  if (status === 401) return "That code is not right, or was used already. Enter the code the app shows now.";
  if (status === 400) return "Enter the 6 digits your authenticator app shows.";
  if (status === 429) return "Too many wrong codes. Please wait a few minutes and try again.";
  return apiErrorMessage(error);
}

/**
 * 'Two-step sign-in' of the user menu (docs/product.md "Two-step sign-in"): set up an authenticator
 * app (its QR code, or the secret typed by hand), turn it on with a code, keep the recovery codes
 * shown once, or turn it off with a code.
 */
export default function TwoStepDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const status = useQuery({ queryKey: queryKeys.auth.twoStep(), queryFn: ({ signal }) => callApi(twoStepStatusEndpoint, {}, { signal }), enabled: open });
  const [setup, setSetup] = useState<TwoStepSetupResponse | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const start = useApiMutation(twoStepSetupEndpoint, () => ({}));

  function close() {
    setSetup(null);
    setRecoveryCodes(null);
    start.reset();
    onClose();
  }

  let body;
  if (recoveryCodes) body = <RecoveryCodes codes={recoveryCodes} onDone={close} />;
  else if (setup) body = <ConfirmSetup setup={setup} onConfirmed={setRecoveryCodes} />;
  else if (!status.data) body = status.isError ? <p role="alert">{apiErrorMessage(status.error)}</p> : <Spinner label="Loading two-step sign-in" />;
  else if (status.data.enrolled) body = <TurnOff recoveryCodesLeft={status.data.recoveryCodesLeft} onDone={close} />;
  else
    body = (
      <div className="grid gap-3 text-sm">
        <p>Two-step sign-in is off. With it on, signing in asks for a code from an authenticator app on your phone after your password.</p>
        {start.isError ? (
          <p role="alert" className="text-red-700">
            {apiErrorMessage(start.error)}
          </p>
        ) : null}
        <DialogFooter>
          <Button disabled={start.isPending} onClick={() => start.mutate(undefined, { onSuccess: setSetup })}>
            {start.isPending ? "Setting up…" : "Set up"}
          </Button>
        </DialogFooter>
      </div>
    );

  return (
    <Dialog open={open} onOpenChange={(next) => !next && close()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Two-step sign-in</DialogTitle>
          <DialogDescription>A code from an authenticator app, asked for after your password.</DialogDescription>
        </DialogHeader>
        {body}
      </DialogContent>
    </Dialog>
  );
}

/** A 6-digit code field with its submit button and its failure. */
function CodeForm({
  label,
  submitLabel,
  busyLabel,
  pending,
  error,
  onSubmit,
}: {
  label: string;
  submitLabel: string;
  busyLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (code: string) => void;
}) {
  const codeId = useId();
  const [code, setCode] = useState("");
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSubmit(code.replace(/\s+/g, ""));
  }
  return (
    <form className="grid gap-2" onSubmit={submit} noValidate>
      <Label htmlFor={codeId}>{label}</Label>
      <Input id={codeId} inputMode="numeric" autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value)} />
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {codeProblem(error)}
        </p>
      ) : null}
      <DialogFooter>
        <Button type="submit" disabled={pending}>
          {pending ? busyLabel : submitLabel}
        </Button>
      </DialogFooter>
    </form>
  );
}

function ConfirmSetup({ setup, onConfirmed }: { setup: TwoStepSetupResponse; onConfirmed: (codes: string[]) => void }) {
  const confirm = useApiMutation(twoStepConfirmEndpoint, (code: string) => ({ body: { code } }));
  return (
    <div className="grid gap-3 text-sm">
      <p>Scan this QR code with your authenticator app (Google Authenticator, Microsoft Authenticator, 1Password, …).</p>
      <img className="mx-auto h-48 w-48" alt="QR code for your authenticator app" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`} />
      <p>
        Or type this key into the app:{" "}
        <code className="break-all rounded bg-gray-100 px-1 font-mono" data-testid="two-step-secret">
          {setup.secret}
        </code>
      </p>
      <CodeForm
        label="Code from the app"
        submitLabel="Turn on"
        busyLabel="Turning on…"
        pending={confirm.isPending}
        error={confirm.error}
        onSubmit={(code) => confirm.mutate(code, { onSuccess: (answer) => onConfirmed(answer.recoveryCodes) })}
      />
    </div>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = codes.join("\n") + "\n";
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      toast({ title: "Recovery codes copied", variant: "success" });
    } catch {
      toast({ title: "Could not copy the codes: select them and copy them by hand", variant: "destructive" });
    }
  }
  return (
    <div className="grid gap-3 text-sm">
      <p>Two-step sign-in is on. Keep these recovery codes somewhere safe: each signs you in once if you lose your phone.</p>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-1 rounded border border-gray-200 p-3 font-mono">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <p role="note" className="rounded-md border border-amber-300 bg-amber-50 p-2 text-amber-900">
        You won&apos;t see these codes again.
      </p>
      <DialogFooter>
        <Button variant="outline" onClick={() => void copy()}>
          Copy
        </Button>
        <Button variant="outline" asChild>
          <a href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`} download="hki-global-recovery-codes.txt">
            Download
          </a>
        </Button>
        <Button onClick={onDone}>Done</Button>
      </DialogFooter>
    </div>
  );
}

function TurnOff({ recoveryCodesLeft, onDone }: { recoveryCodesLeft: number; onDone: () => void }) {
  const turnOff = useApiMutation(twoStepDisableEndpoint, (code: string) => ({ body: { code } }));
  return (
    <div className="grid gap-3 text-sm">
      <p>Two-step sign-in is on. {recoveryCodesLeft} of 10 recovery codes left.</p>
      <p>To turn it off, enter a code from your authenticator app.</p>
      <CodeForm
        label="Code from the app"
        submitLabel="Turn off"
        busyLabel="Turning off…"
        pending={turnOff.isPending}
        error={turnOff.error}
        onSubmit={(code) =>
          turnOff.mutate(code, {
            onSuccess: () => {
              toast({ title: "Two-step sign-in is off", variant: "success" });
              onDone();
            },
          })
        }
      />
    </div>
  );
}
