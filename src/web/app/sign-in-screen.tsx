import { useId, useState } from "react";
import { Input, PasswordInput } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { useSecondStep, useSignIn } from "./auth";
import { GateForm, useGateSubmit } from "./gate-form";
import { LostBox } from "./store-link";
import { PasskeySecondStepScreen, PasskeySignIn } from "./passkeys-sign-in";

/** The built-in sign-in form (docs/product.md §1.2), loaded only when it shows (auth-gate.tsx). */
export default function SignInScreen() {
  const emailId = useId();
  const passwordId = useId();
  const signIn = useSignIn();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  /** Set when the password was right and the account has two-step sign-in: the code comes next. */
  const [challenge, setChallenge] = useState<string | null>(null);
  /** What the second step may be answered with (a passkey, the authenticator app), and which one shows. */
  const [factors, setFactors] = useState<Array<"passkey" | "totp">>([]);
  const [passkeyStep, setPasskeyStep] = useState(false);
  const { error, submitting, onSubmit } = useGateSubmit(
    async () => {
      const outcome = await signIn({ email: email.trim(), password });
      if ("secondStep" in outcome) {
        setPassword("");
        setChallenge(outcome.secondStep.challenge);
        setFactors(outcome.secondStep.factors);
        setPasskeyStep(outcome.secondStep.factors[0] === "passkey");
      }
    },
    (status) =>
      status === 401 || status === 400 ? "Invalid e-mail or password." : status === 429 ? "Too many sign-in attempts. Please wait a few minutes and try again." : "Sign-in failed. Please try again.",
    () => setPassword(""),
  );

  if (challenge !== null && passkeyStep)
    return <PasskeySecondStepScreen challenge={challenge} onRestart={() => setChallenge(null)} {...(factors.includes("totp") ? { onUseCode: () => setPasskeyStep(false) } : {})} />;
  if (challenge !== null) return <SecondStepScreen challenge={challenge} onRestart={() => setChallenge(null)} {...(factors.includes("passkey") ? { onUsePasskey: () => setPasskeyStep(true) } : {})} />;

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
      below={
        <>
          <PasskeySignIn />
          <LostBox />
        </>
      }
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

/**
 * The second step (docs/product.md "Two-step sign-in"): the 6-digit code of the authenticator app,
 * or one of the recovery codes. A challenge lasts 5 minutes; past it (401) the password comes again.
 */
function SecondStepScreen({ challenge, onRestart, onUsePasskey }: { challenge: string; onRestart: () => void; onUsePasskey?: () => void }) {
  const codeId = useId();
  const errorId = useId();
  const secondStep = useSecondStep();
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState("");
  const { error, submitting, onSubmit } = useGateSubmit(
    async () => {
      await secondStep(useRecovery ? { challenge, recoveryCode: code.trim() } : { challenge, code: code.replace(/\s+/g, "") });
    },
    (status) =>
      status === 401
        ? "That code is not right, was used already, or this sign-in has expired. Try the current code, or start again."
        : status === 400
          ? useRecovery
            ? "Enter one of your recovery codes."
            : "Enter the 6 digits your authenticator app shows."
          : status === 429
            ? "Too many sign-in attempts. Please wait a few minutes and try again."
            : "Sign-in failed. Please try again.",
    () => setCode(""),
  );

  return (
    <GateForm
      title="Two-step sign-in"
      titleSize="text-xl"
      description={useRecovery ? "Enter one of the recovery codes you saved when you set up two-step sign-in. Each works once." : "Enter the 6-digit code your authenticator app shows for HKI Global."}
      onSubmit={onSubmit}
      error={error}
      errorId={errorId}
      submitting={submitting}
      submitLabel="Verify"
      busyLabel="Verifying…"
      below={
        <div className="flex flex-wrap justify-center gap-4 text-sm">
          <button
            type="button"
            className="text-blue-700 underline"
            onClick={() => {
              setUseRecovery(!useRecovery);
              setCode("");
            }}
          >
            {useRecovery ? "Use the authenticator app" : "Use a recovery code"}
          </button>
          {onUsePasskey ? (
            <button type="button" className="text-blue-700 underline" onClick={onUsePasskey}>
              Use a passkey
            </button>
          ) : null}
          <button type="button" className="text-blue-700 underline" onClick={onRestart}>
            Start again
          </button>
        </div>
      }
    >
      <div className="grid gap-2">
        <Label htmlFor={codeId}>{useRecovery ? "Recovery code" : "Code"}</Label>
        <Input
          key={useRecovery ? "recovery" : "code"}
          id={codeId}
          autoFocus
          required
          autoComplete="one-time-code"
          inputMode={useRecovery ? "text" : "numeric"}
          spellCheck={false}
          aria-describedby={error ? errorId : undefined}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </div>
    </GateForm>
  );
}
