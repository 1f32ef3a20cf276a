import { useId, useState, type FormEvent } from "react";
import { errorStatus } from "@web/lib/api-client";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@web/components/ui/card";
import { Input } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { useSignIn } from "./auth";
import { LostBox } from "./store-link";

/** The built-in sign-in form (docs/product.md §1.2), loaded only when it shows (auth-gate.tsx). */
export default function SignInScreen() {
  const emailId = useId();
  const passwordId = useId();
  const signIn = useSignIn();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitting(true);
    setError(null);
    try {
      await signIn({ email: email.trim(), password });
    } catch (err) {
      const status = errorStatus(err);
      if (status === 401 || status === 400) setError("Invalid e-mail or password.");
      else if (status === 429) setError("Too many sign-in attempts. Please wait a few minutes and try again.");
      else setError("Sign-in failed. Please try again.");
      setPassword("");
      setSubmitting(false);
    }
  }

  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 bg-gray-50 p-4">
      <Card className="w-full max-w-md">
        <CardHeader>
          <h1 className="text-xl font-semibold leading-none tracking-tight">HKI Global Admin</h1>
          <CardDescription>Administrator access required</CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={onSubmit} className="grid gap-4" noValidate>
            <div className="grid gap-2">
              <Label htmlFor={emailId}>E-mail</Label>
              <Input id={emailId} type="email" autoComplete="username" autoFocus required value={email} onChange={(e) => setEmail(e.target.value)} />
            </div>
            <div className="grid gap-2">
              <Label htmlFor={passwordId}>Password</Label>
              <Input id={passwordId} type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
            </div>
            {error ? (
              <p role="alert" className="text-sm text-red-700">
                {error}
              </p>
            ) : null}
            <Button type="submit" disabled={submitting}>
              {submitting ? "Signing in…" : "Sign in"}
            </Button>
          </form>
        </CardContent>
      </Card>
      <LostBox />
    </main>
  );
}
