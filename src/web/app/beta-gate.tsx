import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { betaVerifyEndpoint } from "@contract/auth";
import { callApi, errorStatus } from "@web/lib/api-client";
import { hasValidBetaMarker, storeBetaMarker } from "@web/lib/beta-marker";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@web/components/ui/card";
import { Input } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { Spinner } from "@web/components/ui/spinner";

type GateState = "loading" | "locked" | "unlocked";

/**
 * Private-beta gate around the whole app (docs/product.md §1.1). It starts locked and loading, then a
 * marker younger than 24 h unlocks it. The password is checked only by the server
 * (POST /api/beta/verify), so it never ships in the bundle.
 */
export function BetaGate({ children }: { children: ReactNode }) {
  const [state, setState] = useState<GateState>("loading");

  useEffect(() => {
    // hasValidBetaMarker also removes an expired or corrupt marker.
    setState(hasValidBetaMarker() ? "unlocked" : "locked");
  }, []);

  if (state === "loading") {
    return (
      <div className="flex min-h-screen items-center justify-center">
        <Spinner />
      </div>
    );
  }
  if (state === "unlocked") return <>{children}</>;
  return <BetaPasswordForm onUnlock={() => setState("unlocked")} />;
}

function BetaPasswordForm({ onUnlock }: { onUnlock: () => void }) {
  const inputId = useId();
  const errorId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitting(true);
    setError(null);
    try {
      await callApi(betaVerifyEndpoint, { body: { password } });
      storeBetaMarker(Date.now());
      onUnlock();
      return;
    } catch (err) {
      const status = errorStatus(err);
      if (status === 401) setError("Invalid password");
      else if (status === 429) setError("Too many attempts. Please wait a few minutes and try again.");
      else setError("Could not check the password right now. Please try again.");
      // docs/product.md: a wrong password clears the field.
      setPassword("");
      inputRef.current?.focus();
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <main className="flex min-h-screen items-center justify-center bg-gray-50 p-4">
      <Card className="w-full max-w-md">
        <CardHeader>
          <h1 className="text-lg font-semibold leading-none tracking-tight">Private Beta Access</h1>
          <CardDescription>This is a private beta. Contact support if you need access.</CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={onSubmit} className="grid gap-4" noValidate>
            <div className="grid gap-2">
              <Label htmlFor={inputId}>Beta Access Password</Label>
              <Input
                ref={inputRef}
                id={inputId}
                type="password"
                autoComplete="current-password"
                autoFocus
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? errorId : undefined}
              />
            </div>
            {error ? (
              <p id={errorId} role="alert" className="text-sm text-red-700">
                {error}
              </p>
            ) : null}
            <Button type="submit" disabled={submitting}>
              {submitting ? "Checking…" : "Access Beta"}
            </Button>
          </form>
        </CardContent>
      </Card>
    </main>
  );
}
