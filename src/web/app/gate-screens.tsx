import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@web/components/ui/card";
import { Spinner } from "@web/components/ui/spinner";

/** What the gates (beta, auth switch, built-in and Clerk sign-in) show while they wait. */
export function FullScreenSpinner({ label }: { label?: string }) {
  return (
    <div className="flex min-h-screen items-center justify-center">
      <Spinner label={label} />
    </div>
  );
}

/** The sign-in could not go on (docs/product.md §1.2): 'Sign-in failed', with one way out. */
export function SignInProblem({ onRetry, retryLabel }: { onRetry: () => void; retryLabel: string }) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-gray-50 p-4">
      <Card className="w-full max-w-md text-center">
        <CardHeader>
          <h1 className="text-xl font-semibold leading-none tracking-tight">HKI Global Admin</h1>
          <CardDescription role="alert">Sign-in failed. Please try again.</CardDescription>
        </CardHeader>
        <CardContent>
          <Button onClick={onRetry}>{retryLabel}</Button>
        </CardContent>
      </Card>
    </main>
  );
}
