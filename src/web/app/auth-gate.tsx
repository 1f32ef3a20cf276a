import { useId, useState, type FormEvent, type ReactNode } from "react";
import { errorStatus } from "@web/lib/api-client";
import { storefrontLink, usePublicConfig } from "@web/lib/use-public-config";
import { Button, buttonVariants } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@web/components/ui/card";
import { Input } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { Spinner } from "@web/components/ui/spinner";
import { useAuth, useSignIn, useSignOut } from "./auth";
import { CurrentUserContext } from "./current-user";

/**
 * Auth wrapper (docs/product.md §1.2): spinner while the session loads, the sign-in form when signed out,
 * 'Access Denied' for a signed-in user without panel access (neither admin nor viewer), otherwise the
 * app. `panelAccess` comes from the server's one rule; the server enforces it again on every admin call.
 */
export function AuthGate({ children }: { children: ReactNode }) {
  const auth = useAuth();

  if (auth.status === "loading") {
    return (
      <div className="flex min-h-screen items-center justify-center">
        <Spinner label="Loading session" />
      </div>
    );
  }
  if (auth.status === "signed-out") return <SignInScreen />;
  // Admins and viewers open the panel; viewers see every screen with its actions disabled.
  if (!auth.user.panelAccess) return <AccessDenied />;
  return <CurrentUserContext.Provider value={auth.user}>{children}</CurrentUserContext.Provider>;
}

export function StoreLink({ className, children }: { className?: string; children: ReactNode }) {
  const config = usePublicConfig();
  if (!config.data) return <span className={className}>{children}</span>;
  return (
    <a href={storefrontLink(config.data.storefrontUrl)} className={className}>
      {children}
    </a>
  );
}

function SignInScreen() {
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
              <Input
                id={passwordId}
                type="password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
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

/** The box below every provider's sign-in form: 'Are you lost?' with a link to the storefront (docs/product.md §1.2). */
export function LostBox() {
  const id = useId();
  return (
    <Card className="w-full max-w-md" role="region" aria-labelledby={`${id}-lost`}>
      <CardContent className="flex items-center justify-between gap-4 pt-6">
        <p id={`${id}-lost`} className="font-medium">
          Are you lost?
        </p>
        <StoreLink className={buttonVariants({ variant: "link" })}>Go to the store</StoreLink>
      </CardContent>
    </Card>
  );
}

/** A signed-in user without panel access, under any provider; 'Sign out' uses the provider's sign-out (auth.tsx). */
export function AccessDenied() {
  const signOut = useSignOut();
  return (
    <main className="flex min-h-screen items-center justify-center bg-gray-50 p-4">
      <Card className="w-full max-w-md text-center">
        <CardHeader>
          <h1 className="text-xl font-semibold leading-none tracking-tight">Access Denied</h1>
          <CardDescription>You don&apos;t have permission to access the admin panel.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col items-center gap-2">
          <StoreLink className={buttonVariants()}>Go to Store</StoreLink>
          {/* Lets someone signed in with the wrong account switch to an admin one. */}
          <Button variant="ghost" size="sm" onClick={() => void signOut()}>
            Sign out
          </Button>
        </CardContent>
      </Card>
    </main>
  );
}
