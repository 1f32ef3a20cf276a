import { useId, useState } from "react";
import { Input, PasswordInput } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { useSignIn } from "./auth";
import { GateForm, useGateSubmit } from "./gate-form";
import { LostBox } from "./store-link";

/** The built-in sign-in form (docs/product.md §1.2), loaded only when it shows (auth-gate.tsx). */
export default function SignInScreen() {
  const emailId = useId();
  const passwordId = useId();
  const signIn = useSignIn();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const { error, submitting, onSubmit } = useGateSubmit(
    async () => {
      await signIn({ email: email.trim(), password });
    },
    (status) =>
      status === 401 || status === 400 ? "Invalid e-mail or password." : status === 429 ? "Too many sign-in attempts. Please wait a few minutes and try again." : "Sign-in failed. Please try again.",
    () => setPassword(""),
  );

  return (
    <GateForm
      title="HKI Global Admin"
      titleSize="text-xl"
      description="Administrator access required"
      onSubmit={onSubmit}
      error={error}
      submitting={submitting}
      submitLabel="Sign in"
      busyLabel="Signing in…"
      below={<LostBox />}
    >
      <div className="grid gap-2">
        <Label htmlFor={emailId}>E-mail</Label>
        <Input id={emailId} type="email" autoComplete="username" autoFocus required value={email} onChange={(e) => setEmail(e.target.value)} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={passwordId}>Password</Label>
        <PasswordInput id={passwordId} autoComplete="current-password" required value={password} onValueChange={setPassword} />
      </div>
    </GateForm>
  );
}
