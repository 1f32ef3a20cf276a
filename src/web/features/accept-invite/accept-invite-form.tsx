import { useId, useState, type FormEvent } from "react";
import { MIN_PASSWORD_LENGTH, acceptInvitationEndpoint } from "@contract/admin-users";
import { ApiRequestError, callApi } from "@web/lib/api-client";
import { storeBetaMarker } from "@web/lib/beta-marker";
import { setSessionToken } from "@web/lib/session";
import { Button } from "@web/components/ui/button";
import { Input, PasswordInput } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { FieldError, FormError, invalidProps } from "@web/components/ui/field-error";
import { failureOf } from "./use-invitation";

/**
 * The invitee's name and password. A link that turns out used, revoked or expired on submit makes
 * the page say so (`onUnusable`); field errors stay on their fields.
 */
export function AcceptInviteForm({ token, onAccepted, onUnusable }: { token: string; onAccepted: () => void; onUnusable: (message: string) => void }) {
  const nameId = useId();
  const passwordId = useId();
  const repeatId = useId();
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [submitting, setSubmitting] = useState(false);

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
      if (error instanceof ApiRequestError && (error.status === 404 || error.status === 410 || error.status === 409)) onUnusable(failure.message);
      else setErrors(Object.keys(failure.fields).length > 0 ? failure.fields : { form: failure.message });
      setSubmitting(false);
    }
  }

  return (
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
  );
}
