import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { MAX_MESSAGE_LENGTH, MAX_TITLE_LENGTH, sendAnnouncementEndpoint } from "@contract/communications";
import { ConfirmDialog } from "@web/components/ui/alert-dialog";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { FieldError, FormError, invalidProps } from "@web/components/ui/field-error";
import { Input } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { Textarea } from "@web/components/ui/textarea";
import { toast } from "@web/components/ui/toast";
import { apiErrorMessage, apiFieldErrors, errorStatus } from "@web/lib/api-client";
import { countOf } from "@web/lib/format";
import { useDebouncedValue } from "@web/lib/use-debounced-value";
import { AudienceFields } from "./audience-fields";
import { ChannelFields } from "./channel-fields";
import { PREVIEW_DELAY_MS, useAnnouncement, usePreview, useSendAnnouncement } from "./communications-api";
import { FORMATTING_HINT } from "./communications-text";
import { type ComposerForm, EMPTY_FORM, missingPart, requestOf } from "./composer-form";
import { PreviewPanel } from "./preview-panel";
import { SendProgress } from "./send-progress";
import { WriteButton } from "@web/components/ui/write-button";

/**
 * The composer (docs/product.md §17.4): title, message, audience with its reach, channels and the
 * dashboard's end date, a live preview, 'Send' with a confirmation naming the count, then the
 * progress of what was sent. `?compose=1` (the dashboard's 'Send Announcement') puts the cursor in the title.
 */
export function ComposerCard() {
  const [form, setForm] = useState<ComposerForm>(EMPTY_FORM);
  const [confirming, setConfirming] = useState(false);
  const [sentId, setSentId] = useState<string | null>(null);
  const [params] = useSearchParams();
  const titleRef = useRef<HTMLInputElement>(null);
  const request = requestOf(form);
  const settled = useDebouncedValue(request, PREVIEW_DELAY_MS);
  const preview = usePreview(settled);
  const send = useSendAnnouncement();
  const sent = useAnnouncement(sentId);
  const change = (changes: Partial<ComposerForm>) => setForm((f) => ({ ...f, ...changes }));

  useEffect(() => {
    if (params.get("compose") !== null) titleRef.current?.focus();
  }, [params]);

  const previewFields = preview.error ? apiFieldErrors(preview.error) : {};
  const sendFields = send.error ? apiFieldErrors(send.error) : {};
  const errors = { ...previewFields, ...sendFields };
  if (send.error && errorStatus(send.error) === 422) errors.audience = apiErrorMessage(send.error);
  const reach = request && preview.data && !preview.isPlaceholderData ? preview.data.recipients : null;
  const missing = missingPart(form);

  const confirmSend = () => {
    setConfirming(false);
    if (!request) return;
    send.mutate(request, {
      onSuccess: (announcement) => {
        setSentId(announcement.id);
        setForm(EMPTY_FORM);
        toast({ title: `Announcement “${announcement.title}” sent`, variant: "success" });
      },
      onError: (error) => toast({ title: `Failed to send: ${apiErrorMessage(error)}`, variant: "destructive" }),
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>New Announcement</CardTitle>
        <CardDescription>By e-mail, on the artists' dashboard, or both.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 lg:grid-cols-2">
        <div className="grid content-start gap-4">
          <div className="grid gap-1">
            <Label htmlFor="announcement-title">Title</Label>
            <Input
              id="announcement-title"
              ref={titleRef}
              maxLength={MAX_TITLE_LENGTH}
              value={form.title}
              onChange={(e) => change({ title: e.target.value })}
              {...invalidProps("announcement-title", errors.title)}
            />
            <FieldError id="announcement-title" error={errors.title} />
          </div>
          <div className="grid gap-1">
            <Label htmlFor="announcement-message">Message</Label>
            <Textarea
              id="announcement-message"
              rows={8}
              maxLength={MAX_MESSAGE_LENGTH}
              value={form.message}
              onChange={(e) => change({ message: e.target.value })}
              aria-invalid={errors.message ? true : undefined}
              aria-describedby={errors.message ? "announcement-message-hint announcement-message-error" : "announcement-message-hint"}
            />
            <p id="announcement-message-hint" className="text-xs text-gray-500">
              {FORMATTING_HINT}
            </p>
            <FieldError id="announcement-message" error={errors.message} />
          </div>
          <AudienceFields form={form} change={change} reach={reach} errors={errors} />
          <ChannelFields form={form} change={change} errors={errors} />
          <FormError error={send.error && errorStatus(send.error) !== 400 && errorStatus(send.error) !== 422 ? apiErrorMessage(send.error) : undefined} />
          <div className="flex flex-wrap items-center gap-3">
            <WriteButton endpoint={sendAnnouncementEndpoint} onClick={() => setConfirming(true)} disabled={request === null || send.isPending || reach === null || reach === 0}>
              {send.isPending ? "Sending…" : "Send"}
            </WriteButton>
            {missing && <span className="text-sm text-gray-600">{missing}</span>}
          </div>
          {sent.data && <SendProgress announcement={sent.data} showLink />}
        </div>
        <div className="grid content-start gap-2">
          <h3 className="text-sm font-medium">Preview</h3>
          <PreviewPanel preview={request ? preview.data : undefined} loading={preview.isFetching} waitingFor={missing} />
        </div>
      </CardContent>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Send Announcement"
        description={`Send “${form.title.trim()}” to ${countOf(reach ?? 0, "artist")}${form.email && form.dashboard ? " by e-mail and on their dashboard" : form.email ? " by e-mail" : " on their dashboard"}? This cannot be undone.`}
        confirmLabel={`Send to ${countOf(reach ?? 0, "artist")}`}
        onConfirm={confirmSend}
      />
    </Card>
  );
}
