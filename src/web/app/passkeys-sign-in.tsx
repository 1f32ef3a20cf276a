import { useState, type FormEvent } from "react";
import { passkeySignInEndpoint, passkeySignInOptionsEndpoint, secondStepPasskeyEndpoint, secondStepPasskeyOptionsEndpoint } from "@contract/auth";
import { Button } from "@web/components/ui/button";
import { callApi } from "@web/lib/api-client";
import { setSessionToken } from "@web/lib/session";
import { GateForm } from "./gate-form";
import { getPasskeyAssertion, passkeySignInProblem } from "./passkeys-webauthn";

/**
 * 'Sign in with a passkey' below the sign-in form (docs/product.md "Two-step sign-in"): no e-mail,
 * the browser offers the passkeys it holds for the panel; a passkey is both factors. The token it
 * answers is kept as a password sign-in's, and the gate opens the app.
 */
export function PasskeySignIn() {
  const { error, busy, run } = usePasskeyAttempt(async () => {
    const options = await callApi(passkeySignInOptionsEndpoint, {});
    const response = await getPasskeyAssertion(options);
    const answer = await callApi(passkeySignInEndpoint, { body: { response } });
    setSessionToken(answer.token);
  });
  return (
    <div className="grid w-full max-w-md gap-2">
      <Button variant="outline" disabled={busy} onClick={() => void run()}>
        {busy ? "Waiting for your passkey…" : "Sign in with a passkey"}
      </Button>
      {error ? (
        <p role="alert" className="text-center text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The second step by passkey, after a right password: one of the passkeys of the account.
 * `onUseCode` is there when the account has an authenticator app too.
 */
export function PasskeySecondStepScreen({ challenge, onRestart, onUseCode }: { challenge: string; onRestart: () => void; onUseCode?: () => void }) {
  const { error, busy, run } = usePasskeyAttempt(async () => {
    const options = await callApi(secondStepPasskeyOptionsEndpoint, { body: { challenge } });
    const response = await getPasskeyAssertion(options);
    const answer = await callApi(secondStepPasskeyEndpoint, { body: { challenge, response } });
    setSessionToken(answer.token);
  });
  return (
    <GateForm
      title="Two-step sign-in"
      titleSize="text-xl"
      description="Use a passkey you added to your account: this device's fingerprint, face or PIN, your phone, or a security key."
      onSubmit={async (event: FormEvent<HTMLFormElement>) => {
        event.preventDefault();
        await run();
      }}
      error={error}
      submitting={busy}
      submitLabel="Use your passkey"
      busyLabel="Waiting for your passkey…"
      below={
        <div className="flex flex-wrap justify-center gap-4 text-sm">
          {onUseCode ? (
            <button type="button" className="text-blue-700 underline" onClick={onUseCode}>
              Use the authenticator app
            </button>
          ) : null}
          <button type="button" className="text-blue-700 underline" onClick={onRestart}>
            Start again
          </button>
        </div>
      }
    >
      {null}
    </GateForm>
  );
}

/** One passkey attempt at a time, with its failure in words; on success the gate replaces the screen, so it stays busy. */
function usePasskeyAttempt(attempt: () => Promise<void>) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function run() {
    setBusy(true);
    setError(null);
    try {
      await attempt();
    } catch (failure) {
      setError(passkeySignInProblem(failure));
      setBusy(false);
    }
  }
  return { error, busy, run };
}
