import { useId, useRef, useState, type FormEvent } from "react";
import { betaVerifyEndpoint } from "@contract/auth";
import { callApi, errorStatus } from "@web/lib/api-client";
import { storeBetaMarker } from "@web/lib/beta-marker";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@web/components/ui/card";
import { Input } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";

/** The beta password form (docs/product.md §1.1), loaded only when it shows (beta-gate.tsx). */
export default function BetaPasswordForm({ onUnlock }: { onUnlock: () => void }) {
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
