import { useId, useRef, useState } from "react";
import { betaVerifyEndpoint } from "@contract/auth";
import { callApi } from "@web/lib/api-client";
import { storeBetaMarker } from "@web/lib/beta-marker";
import { invalidProps } from "@web/components/ui/field-error";
import { PasswordInput } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { GateForm, useGateSubmit } from "./gate-form";

/** The beta password form (docs/product.md §1.1), loaded only when it shows (beta-gate.tsx). */
export default function BetaPasswordForm({ onUnlock }: { onUnlock: () => void }) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [password, setPassword] = useState("");
  const { error, submitting, onSubmit } = useGateSubmit(
    async () => {
      await callApi(betaVerifyEndpoint, { body: { password } });
      storeBetaMarker(Date.now());
      onUnlock();
    },
    (status) => (status === 401 ? "Invalid password" : status === 429 ? "Too many attempts. Please wait a few minutes and try again." : "Could not check the password right now. Please try again."),
    () => {
      // docs/product.md: a wrong password clears the field.
      setPassword("");
      inputRef.current?.focus();
    },
  );

  return (
    <GateForm
      title="Private Beta Access"
      titleSize="text-lg"
      description="This is a private beta. Contact support if you need access."
      onSubmit={onSubmit}
      error={error}
      errorId={`${inputId}-error`}
      submitting={submitting}
      submitLabel="Access Beta"
      busyLabel="Checking…"
    >
      <div className="grid gap-2">
        <Label htmlFor={inputId}>Beta Access Password</Label>
        <PasswordInput ref={inputRef} id={inputId} autoComplete="current-password" autoFocus value={password} onValueChange={setPassword} {...invalidProps(inputId, error ?? undefined)} />
      </div>
    </GateForm>
  );
}
