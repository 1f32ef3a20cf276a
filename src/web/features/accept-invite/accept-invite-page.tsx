import { useEffect, useId, useState, type FormEvent } from "react";
import { MIN_PASSWORD_LENGTH, type InvitationCheckResponse, acceptInvitationEndpoint, checkInvitationEndpoint } from "@contract/admin-users";
import { ApiRequestError, callApi } from "@web/lib/api-client";
import { storeBetaMarker } from "@web/lib/beta-marker";
import { setSessionToken } from "@web/lib/session";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@web/components/ui/card";
import { Input, PasswordInput } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { FieldError, FormError, invalidProps } from "@web/components/ui/field-error";
import { Spinner } from "@web/components/ui/spinner";

export const INVALID_LINK = "This invitation link is not valid. Check that you copied the whole link, or ask for a new invitation.";

/** The server's message and field errors of a failed call (its error shape), if any. */
function failureOf(error: unknown): { message: string; fields: Record<string, string> } {
  if (error instanceof ApiRequestError) {
    try {
      const body = JSON.parse(error.body) as { error?: { message?: string; fields?: Record<string, string> } };
      if (body.error?.message) return { message: body.error.message, fields: body.error.fields ?? {} };
    } catch {
      // not the error shape
    }
  }
  return { message: "Something went wrong. Please try again.", fields: {} };
}

type State = { kind: "checking" } | { kind: "unusable"; message: string } | { kind: "ready"; invitation: InvitationCheckResponse["invitation"] };

/**
 * The accept page (docs/product.md §14.3), outside the beta gate and the admin layout: an
 * invitation link is the invitee's way in, so a valid one stands in for the beta password. The
 * invitee chooses a name and password and is signed in with the invited role; an expired, used or
 * revoked link gets the server's reason and changes nothing.
 */
export default function AcceptInvitePage({
  token = new URLSearchParams(window.location.search).get("token") ?? "",
  onAccepted = () => window.location.replace("/"),
}: {
  token?: string;
  onAccepted?: () => void;
}) {
  const [state, setState] = useState<State>({ kind: "checking" });
  const nameId = useId();
  const passwordId = useId();
  const repeatId = useId();
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    if (!token) {
      setState({ kind: "unusable", message: INVALID_LINK });
      return;
    }
    let live = true;
    callApi(checkInvitationEndpoint, { body: { token } }).then(
      (answer) => live && setState({ kind: "ready", invitation: answer.invitation }),
      (error: unknown) => live && setState({ kind: "unusable", message: failureOf(error).message }),
    );
    return () => {
      live = false;
    };
  }, [token]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (password !== repeat) {
      setErrors({ repeat: "The passwords do not match." });
      return;
    }
    setSubmitting(true);
    setErrors({});
    try {
      const session = await callApi(acceptInvitationEndpoint, { body: { token, name: name.trim(), password } });
      // The link stood in for the beta password; the new session signs the invitee in.
      storeBetaMarker(Date.now());
      setSessionToken(session.token);
      onAccepted();
    } catch (error) {
      const failure = failureOf(error);
      if (error instanceof ApiRequestError && (error.status === 404 || error.status === 410 || error.status === 409)) setState({ kind: "unusable", message: failure.message });
      else setErrors(Object.keys(failure.fields).length > 0 ? failure.fields : { form: failure.message });
      setSubmitting(false);
    }
  }

  return (
    <main className="flex min-h-screen items-center justify-center bg-gray-50 p-4">
      <Card className="w-full max-w-md">
        <CardHeader>
          <h1 className="text-xl font-semibold leading-none tracking-tight">Join HKI Global Admin</h1>
          {state.kind === "ready" && (
            <CardDescription>
              {state.invitation.email} is invited as {state.invitation.role === "admin" ? "an admin (every screen and every action)" : "a viewer (every screen, read-only)"}. Choose your name and a
              password to accept.
            </CardDescription>
          )}
        </CardHeader>
        <CardContent>
          {state.kind === "checking" ? (
            <Spinner label="Checking the invitation" />
          ) : state.kind === "unusable" ? (
            <div className="grid gap-4">
              <p role="alert" className="text-sm text-red-700">
                {state.message}
              </p>
              <a href="/" className="text-sm text-blue-700 hover:underline">
                Go to the admin panel
              </a>
            </div>
          ) : (
            <form onSubmit={onSubmit} className="grid gap-4" noValidate>
              <div className="grid gap-2">
                <Label htmlFor={nameId}>Your name</Label>
                <Input id={nameId} autoComplete="name" required autoFocus value={name} onChange={(e) => setName(e.target.value)} {...invalidProps(nameId, errors.name)} />
                <FieldError id={nameId} error={errors.name} />
              </div>
              <div className="grid gap-2">
                <Label htmlFor={passwordId}>Password</Label>
                <PasswordInput
                  id={passwordId}
                  autoComplete="new-password"
                  required
                  value={password}
                  onValueChange={setPassword}
                  aria-invalid={errors.password ? true : undefined}
                  aria-describedby={`${passwordId}-hint`}
                />
                <p id={`${passwordId}-hint`} className={errors.password ? "text-sm text-red-700" : "text-xs text-gray-600"}>
                  {errors.password ? `Password ${errors.password}.` : `At least ${MIN_PASSWORD_LENGTH} characters, not your e-mail address.`}
                </p>
              </div>
              <div className="grid gap-2">
                <Label htmlFor={repeatId}>Repeat password</Label>
                <PasswordInput id={repeatId} autoComplete="new-password" required value={repeat} onValueChange={setRepeat} {...invalidProps(repeatId, errors.repeat)} />
                <FieldError id={repeatId} error={errors.repeat} />
              </div>
              <FormError error={errors.form} />
              <Button type="submit" disabled={submitting || name.trim() === "" || password === ""}>
                {submitting ? "Accepting…" : "Accept invitation"}
              </Button>
            </form>
          )}
        </CardContent>
      </Card>
    </main>
  );
}
