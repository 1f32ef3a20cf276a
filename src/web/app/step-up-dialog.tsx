import { useId, useState, type FormEvent } from "react";
import { stepUpEndpoint, stepUpPasskeyEndpoint, stepUpPasskeyOptionsEndpoint } from "@contract/auth";
import { Button } from "@web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@web/components/ui/dialog";
import { Input } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { apiErrorMessage, callApi, errorStatus } from "@web/lib/api-client";
import { addPasskeyProblem, getPasskeyAssertion } from "./passkeys-webauthn";

/** What a refused check answers, in words. */
function checkProblem(error: unknown): string {
  const status = errorStatus(error);
  if (status === 401) return "That code is not right, or was used already. Enter the code the app shows now.";
  if (status === 400) return "Enter the 6 digits your authenticator app shows, or a recovery code.";
  if (status === 429) return "Too many wrong codes. Please wait a few minutes and try again.";
  return apiErrorMessage(error);
}

/**
 * 'Confirm it's you' (docs/product.md "Step-up"): the one dialog every dangerous action asks
 * through when the server answers `step_up_required`. It opens over the action's own dialog, takes
 * a code of the authenticator app (or a recovery code) or a passkey, and on success the action is sent again
 * (api-client.ts); 'Cancel' leaves the refusal to the action's own error message. step-up-host.tsx
 * loads it on the first ask, opens it and mounts it anew (empty fields) for each ask.
 */
export default function StepUpDialog({ open, onFinish: finish }: { open: boolean; onFinish: (passed: boolean) => void }) {
  const codeId = useId();
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState("");
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  /** The check by passkey: the browser's prompt for one of this user's passkeys, then the server's check of its answer. */
  async function confirmWithPasskey() {
    setPending(true);
    setProblem(null);
    try {
      const options = await callApi(stepUpPasskeyOptionsEndpoint, {});
      await callApi(stepUpPasskeyEndpoint, { body: { response: await getPasskeyAssertion(options) } });
      finish(true);
    } catch (error) {
      setProblem(errorStatus(error) === 401 ? "That passkey was not accepted. Use one you added to this panel, or a code from the app." : addPasskeyProblem(error));
    } finally {
      setPending(false);
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setProblem(null);
    try {
      await callApi(stepUpEndpoint, { body: useRecovery ? { recoveryCode: value.trim() } : { code: value.replace(/\s+/g, "") } });
      finish(true);
    } catch (error) {
      setProblem(checkProblem(error));
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !next && finish(false)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Confirm it&apos;s you</DialogTitle>
          <DialogDescription>This action needs a second-factor check in the last 10 minutes. It goes ahead as soon as the code is accepted.</DialogDescription>
        </DialogHeader>
        <form className="grid gap-2" onSubmit={(e) => void submit(e)} noValidate>
          <Label htmlFor={codeId}>{useRecovery ? "Recovery code" : "Code from the app"}</Label>
          <Input id={codeId} inputMode={useRecovery ? "text" : "numeric"} autoComplete="one-time-code" required value={value} onChange={(e) => setValue(e.target.value)} />
          {problem ? (
            <p role="alert" className="text-sm text-red-700">
              {problem}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-x-4">
            <Button type="button" variant="link" size="sm" className="px-0" onClick={() => setUseRecovery(!useRecovery)}>
              {useRecovery ? "Use the authenticator app" : "Use a recovery code"}
            </Button>
            <Button type="button" variant="link" size="sm" className="px-0" disabled={pending} onClick={() => void confirmWithPasskey()}>
              Use a passkey
            </Button>
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => finish(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending || value.trim() === ""}>
              {pending ? "Checking…" : "Confirm"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
