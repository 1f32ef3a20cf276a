import { useState, type FormEvent, type ReactNode } from "react";
import { errorStatus } from "@web/lib/api-client";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@web/components/ui/card";

/**
 * A gate form's sending: `attempt` runs on submit; when it fails, the form shows `messageFor` the
 * answer's status and `onFailure` runs (both gate forms clear the password). On success the gate
 * replaces the form, so it stays busy.
 */
export function useGateSubmit(attempt: () => Promise<void>, messageFor: (status: number | undefined) => string, onFailure: () => void) {
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitting(true);
    setError(null);
    try {
      await attempt();
    } catch (err) {
      setError(messageFor(errorStatus(err)));
      onFailure();
      setSubmitting(false);
    }
  }
  return { error, submitting, onSubmit };
}

/** A gate's screen (beta password, built-in sign-in): a card with a title, a form and its failure, and `below` it. */
export function GateForm(props: {
  title: string;
  titleSize: "text-lg" | "text-xl";
  description: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => Promise<void>;
  error: string | null;
  /** The failure's id, for the field that points at it. */
  errorId?: string;
  submitting: boolean;
  submitLabel: string;
  busyLabel: string;
  children: ReactNode;
  below?: ReactNode;
}) {
  return (
    <main className={props.below ? "flex min-h-screen flex-col items-center justify-center gap-4 bg-gray-50 p-4" : "flex min-h-screen items-center justify-center bg-gray-50 p-4"}>
      <Card className="w-full max-w-md">
        <CardHeader>
          <h1 className={`${props.titleSize} font-semibold leading-none tracking-tight`}>{props.title}</h1>
          <CardDescription>{props.description}</CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={props.onSubmit} className="grid gap-4" noValidate>
            {props.children}
            {props.error ? (
              <p id={props.errorId} role="alert" className="text-sm text-red-700">
                {props.error}
              </p>
            ) : null}
            <Button type="submit" disabled={props.submitting}>
              {props.submitting ? props.busyLabel : props.submitLabel}
            </Button>
          </form>
        </CardContent>
      </Card>
      {props.below}
    </main>
  );
}
