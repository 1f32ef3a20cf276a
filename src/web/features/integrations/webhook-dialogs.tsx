import { useId, useState, type FormEvent } from "react";
import { MAX_WEBHOOK_DESCRIPTION_LENGTH, MAX_WEBHOOK_URL_LENGTH, WEBHOOK_EVENT_LABELS, WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@contract/integrations-webhooks";
import { Button } from "@web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@web/components/ui/dialog";
import { FieldError, invalidProps } from "@web/components/ui/field-error";
import { FormDialogFooter } from "@web/components/ui/form-dialog-footer";
import { Input } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { toast } from "@web/components/ui/toast";
import { apiErrorMessage, apiFieldErrors } from "@web/lib/api-client";
import { useCreateWebhookEndpoint } from "./webhooks-api";

/** A secret to show once: what it is for and when (created, or rotated). */
export interface ShownSecret {
  url: string;
  secret: string;
  rotated: boolean;
}

/** 'Add endpoint': the receiver's URL, the event types it takes and a note; a field the server refuses shows its message. */
export function AddWebhookDialog({ open, onClose, onAdded }: { open: boolean; onClose: () => void; onAdded: (shown: ShownSecret) => void }) {
  const urlId = useId();
  const descriptionId = useId();
  const eventsId = useId();
  const create = useCreateWebhookEndpoint();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<WebhookEventType[]>([...WEBHOOK_EVENT_TYPES]);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const reset = () => {
    setUrl("");
    setDescription("");
    setEvents([...WEBHOOK_EVENT_TYPES]);
    setErrors({});
    create.reset();
  };
  const close = () => {
    reset();
    onClose();
  };
  // Kept in the list's order, whatever order they were ticked in.
  const toggle = (type: WebhookEventType, on: boolean) => setEvents((current) => WEBHOOK_EVENT_TYPES.filter((t) => (t === type ? on : current.includes(t))));

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setErrors({});
    create.mutate(
      { url: url.trim(), events, ...(description.trim() ? { description: description.trim() } : {}) },
      {
        onSuccess: (made) => {
          reset();
          onAdded({ url: made.endpoint.url, secret: made.secret, rotated: false });
        },
        onError: (error) => {
          const fields = apiFieldErrors(error);
          // An event type's own error ("events.0") belongs to the group.
          const grouped = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k.startsWith("events") ? "events" : k, v]));
          setErrors(Object.keys(grouped).length > 0 ? grouped : { form: apiErrorMessage(error) });
        },
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !next && close()}>
      <DialogContent className="max-h-[90vh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Add webhook endpoint</DialogTitle>
          <DialogDescription>The panel POSTs each decision you choose to this address, signed with a secret you see once.</DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" noValidate onSubmit={onSubmit}>
          <div className="grid gap-1">
            <Label htmlFor={urlId}>Endpoint URL</Label>
            <Input
              id={urlId}
              type="url"
              autoComplete="off"
              required
              maxLength={MAX_WEBHOOK_URL_LENGTH}
              placeholder="https://shop.example.com/webhooks/hki"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              {...invalidProps(urlId, errors.url)}
            />
            <FieldError id={urlId} error={errors.url} />
          </div>
          <fieldset className="grid gap-2" aria-describedby={errors.events ? `${eventsId}-error` : undefined}>
            <legend className="text-sm font-medium">Events</legend>
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <label key={type} className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  className="mt-0.5 h-4 w-4 rounded border-gray-300 focus-visible:ring-2 focus-visible:ring-blue-600"
                  checked={events.includes(type)}
                  onChange={(e) => toggle(type, e.target.checked)}
                />
                <span>
                  <code className="font-mono">{type}</code>: {WEBHOOK_EVENT_LABELS[type]}
                </span>
              </label>
            ))}
            <FieldError id={eventsId} error={errors.events} />
          </fieldset>
          <div className="grid gap-1">
            <Label htmlFor={descriptionId}>Description (optional)</Label>
            <Input
              id={descriptionId}
              autoComplete="off"
              maxLength={MAX_WEBHOOK_DESCRIPTION_LENGTH}
              placeholder="Storefront (production)"
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              {...invalidProps(descriptionId, errors.description)}
            />
            <FieldError id={descriptionId} error={errors.description} />
          </div>
          <FormDialogFooter error={errors.form} onCancel={close}>
            <Button type="submit" disabled={create.isPending || url.trim() === "" || events.length === 0}>
              {create.isPending ? "Adding…" : "Add endpoint"}
            </Button>
          </FormDialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

async function copySecret(secret: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(secret);
    toast({ title: "Signing secret copied", variant: "success" });
  } catch {
    toast({ title: "Could not copy the secret: select it and copy it by hand", variant: "destructive" });
  }
}

/** The signing secret, shown this once (it is stored sealed and never answered again). */
export function SecretShownDialog({ shown, onClose }: { shown: ShownSecret | null; onClose: () => void }) {
  const secretId = useId();
  return (
    <Dialog open={shown !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{shown?.rotated ? "New signing secret" : "Webhook endpoint added"}</DialogTitle>
          <DialogDescription>
            {shown
              ? shown.rotated
                ? `Give ${shown.url} this secret within 24 hours: until then every delivery is signed with both the old and the new one.`
                : `Give ${shown.url} this secret: it verifies each delivery with it (docs/integration.md, "Webhooks").`
              : ""}
          </DialogDescription>
        </DialogHeader>
        {shown ? (
          <div className="grid gap-2">
            <Label htmlFor={secretId}>Signing secret</Label>
            <div className="flex gap-2">
              <Input id={secretId} readOnly className="font-mono text-xs" value={shown.secret} onFocus={(e) => e.currentTarget.select()} data-testid="webhook-secret" />
              <Button variant="outline" onClick={() => void copySecret(shown.secret)}>
                Copy secret
              </Button>
            </div>
            <p role="note" className="rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900">
              You won&apos;t see this secret again. If it is lost, rotate it.
            </p>
          </div>
        ) : null}
        <DialogFooter>
          <Button onClick={onClose}>Done</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
