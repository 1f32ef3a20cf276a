import { useState } from "react";
import {
  createWebhookEndpointEndpoint,
  deleteWebhookEndpointEndpoint,
  rotateWebhookSecretEndpoint,
  testWebhookEndpointEndpoint,
  updateWebhookEndpointEndpoint,
  type WebhookEndpoint,
} from "@contract/integrations-webhooks";
import { type Column, ListTable, useUrlParams } from "@web/components/list";
import { ConfirmDialog } from "@web/components/ui/alert-dialog";
import { Badge } from "@web/components/ui/badge";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { toast } from "@web/components/ui/toast";
import { WriteButton } from "@web/components/ui/write-button";
import { apiErrorMessage } from "@web/lib/api-client";
import { countOf, formatDateTime } from "@web/lib/format";
import { useLoadDelay } from "@web/lib/use-load-delay";
import { AddWebhookDialog, SecretShownDialog, type ShownSecret } from "./webhook-dialogs";
import { WebhookDeliveries } from "./webhook-deliveries";
import { useDeleteWebhookEndpoint, useRotateWebhookSecret, useTestWebhookEndpoint, useUpdateWebhookEndpoint, useWebhookEndpoints } from "./webhooks-api";

const DISABLED_WHY: Record<NonNullable<WebhookEndpoint["disabledReason"]>, string> = {
  admin: "Disabled by an admin",
  gone: "Disabled: the receiver answered 410 Gone",
  failing: "Disabled: every delivery failed for 3 days",
};

type Confirmable = "disable" | "enable" | "rotate" | "delete";

/** What each confirmation says will happen, naming the endpoint. */
function confirmation(action: Confirmable, e: WebhookEndpoint): { title: string; description: string; label: string; destructive: boolean } {
  switch (action) {
    case "disable":
      return {
        title: `Disable ${e.url}?`,
        description: "Nothing is sent to it until it is enabled again; the decisions taken meanwhile wait and go out then.",
        label: "Disable endpoint",
        destructive: true,
      };
    case "enable":
      return { title: `Enable ${e.url}?`, description: "Deliveries start again at once, beginning with those that waited while it was disabled.", label: "Enable endpoint", destructive: false };
    case "rotate":
      return {
        title: `Rotate the signing secret of ${e.url}?`,
        description: "A new secret is made and shown once. For 24 hours every delivery carries two signatures, the old secret's and the new one's; then the old secret stops signing.",
        label: "Rotate secret",
        destructive: false,
      };
    case "delete":
      return { title: `Delete ${e.url}?`, description: "It gets no more deliveries, and its delivery log is deleted. This cannot be undone.", label: "Delete endpoint", destructive: true };
  }
}

/**
 * The Webhooks section (docs/integration.md "Webhooks"): the endpoints the panel tells its decisions
 * to, each with the events it takes, whether it is enabled (and why not), since when it fails and its
 * last success; add one (its secret shown once), send a test, rotate, enable or disable, delete, and
 * open its delivery log (`webhook` in the URL).
 */
export function WebhooksSection() {
  const ready = useLoadDelay();
  const endpoints = useWebhookEndpoints(ready);
  const update = useUpdateWebhookEndpoint();
  const remove = useDeleteWebhookEndpoint();
  const rotate = useRotateWebhookSecret();
  const test = useTestWebhookEndpoint();
  const [params, setParams] = useUrlParams();
  const [adding, setAdding] = useState(false);
  const [shown, setShown] = useState<ShownSecret | null>(null);
  const [pending, setPending] = useState<{ action: Confirmable; endpoint: WebhookEndpoint } | null>(null);
  const openId = params.get("webhook");
  const open = endpoints.data?.items.find((e) => e.id === openId) ?? null;
  const busy = update.isPending || remove.isPending || rotate.isPending;

  const showLog = (e: WebhookEndpoint | null) => setParams({ webhook: e?.id ?? null, "deliveries.status": null }, { resetPages: ["deliveries.cursor"] });
  const failed = (what: string) => (error: unknown) => toast({ title: `Failed to ${what}: ${apiErrorMessage(error)}`, variant: "destructive" });

  const onConfirm = () => {
    const chosen = pending;
    setPending(null);
    if (!chosen) return;
    const { action, endpoint: e } = chosen;
    if (action === "disable" || action === "enable") {
      update.mutate(
        { id: e.id, body: { enabled: action === "enable" } },
        { onSuccess: () => toast({ title: `${e.url} ${action === "enable" ? "enabled" : "disabled"}`, variant: "success" }), onError: failed(`${action} the endpoint`) },
      );
    } else if (action === "rotate") {
      rotate.mutate(e.id, { onSuccess: (made) => setShown({ url: made.endpoint.url, secret: made.secret, rotated: true }), onError: failed("rotate the secret") });
    } else {
      remove.mutate(e.id, {
        onSuccess: () => {
          if (openId === e.id) showLog(null);
          toast({ title: `${e.url} deleted`, description: "It gets no more deliveries.", variant: "success" });
        },
        onError: failed("delete the endpoint"),
      });
    }
  };

  const onTest = (e: WebhookEndpoint) =>
    test.mutate(e.id, {
      onSuccess: () => {
        showLog(e);
        toast({ title: `Test event sent to ${e.url}`, description: "Its delivery is at the top of the log below.", variant: "success" });
      },
      onError: failed("send the test"),
    });

  const columns: Array<Column<WebhookEndpoint>> = [
    {
      id: "url",
      header: "Endpoint",
      cell: (e) => (
        <div className="grid gap-0.5">
          <code className="font-mono text-xs break-all">{e.url}</code>
          {e.description && <span className="text-xs text-gray-600">{e.description}</span>}
        </div>
      ),
    },
    { id: "events", header: "Events", cell: (e) => <span title={e.events.join(", ")}>{countOf(e.events.length, "event type")}</span> },
    {
      id: "status",
      header: "Status",
      cell: (e) => (
        <div className="grid justify-items-start gap-1">
          {e.enabled ? <Badge variant="success">Enabled</Badge> : <Badge variant={e.disabledReason === "admin" ? "secondary" : "destructive"}>{DISABLED_WHY[e.disabledReason ?? "admin"]}</Badge>}
          {e.failingSince && <span className="text-xs text-red-700">Failing since {formatDateTime(e.failingSince)}</span>}
          {e.previousSecretExpiresAt && <span className="text-xs text-gray-600">Old secret signs until {formatDateTime(e.previousSecretExpiresAt)}</span>}
        </div>
      ),
    },
    { id: "success", header: "Last success", cell: (e) => (e.lastSuccessAt ? formatDateTime(e.lastSuccessAt) : "Never") },
    {
      id: "actions",
      header: "Actions",
      hideHeader: true,
      cell: (e) => (
        <div className="flex flex-wrap justify-end gap-2">
          <Button size="sm" variant="outline" aria-pressed={openId === e.id} onClick={() => showLog(openId === e.id ? null : e)} aria-label={`Deliveries to ${e.url}`}>
            Deliveries
          </Button>
          <WriteButton
            endpoint={testWebhookEndpointEndpoint}
            size="sm"
            variant="outline"
            disabled={test.isPending || !e.enabled}
            onClick={() => onTest(e)}
            aria-label={`Send a test event to ${e.url}`}
          >
            Send test
          </WriteButton>
          <WriteButton
            endpoint={rotateWebhookSecretEndpoint}
            size="sm"
            variant="outline"
            disabled={busy}
            onClick={() => setPending({ action: "rotate", endpoint: e })}
            aria-label={`Rotate the signing secret of ${e.url}`}
          >
            Rotate secret
          </WriteButton>
          <WriteButton
            endpoint={updateWebhookEndpointEndpoint}
            size="sm"
            variant="outline"
            disabled={busy}
            onClick={() => setPending({ action: e.enabled ? "disable" : "enable", endpoint: e })}
            aria-label={`${e.enabled ? "Disable" : "Enable"} ${e.url}`}
          >
            {e.enabled ? "Disable" : "Enable"}
          </WriteButton>
          <WriteButton
            endpoint={deleteWebhookEndpointEndpoint}
            size="sm"
            variant="destructive"
            disabled={busy}
            onClick={() => setPending({ action: "delete", endpoint: e })}
            aria-label={`Delete ${e.url}`}
          >
            Delete
          </WriteButton>
        </div>
      ),
    },
  ];

  const confirm = pending ? confirmation(pending.action, pending.endpoint) : null;
  return (
    <Card>
      <section aria-labelledby="webhooks-title">
        <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
          <div className="grid gap-1.5">
            <CardTitle id="webhooks-title">Webhooks</CardTitle>
            <CardDescription>
              The panel tells the storefront what it decided (an artist disabled, a product hidden, a payout paid…) by signed webhooks, each at least once, retried for about a day
              (docs/integration.md).
            </CardDescription>
          </div>
          <WriteButton endpoint={createWebhookEndpointEndpoint} onClick={() => setAdding(true)}>
            Add endpoint
          </WriteButton>
        </CardHeader>
        <CardContent className="grid gap-4">
          <ListTable
            query={endpoints}
            rowsOf={(data) => data.items}
            label="Webhook endpoints"
            loadingLabel="Loading webhook endpoints"
            errorTitle="Error loading webhook endpoints"
            errorMessage={apiErrorMessage}
            emptyText="No webhook endpoints yet: add the storefront's to tell it what the panel decides."
            framed
            columns={columns}
            rowKey={(e) => e.id}
            rowProps={(e) => ({ "data-testid": `webhook-row-${e.url}` })}
          />
          {open && <WebhookDeliveries endpoint={open} />}
        </CardContent>
      </section>
      <AddWebhookDialog
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={(made) => {
          setAdding(false);
          setShown(made);
        }}
      />
      <SecretShownDialog shown={shown} onClose={() => setShown(null)} />
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(next) => !next && setPending(null)}
        title={confirm?.title ?? ""}
        description={confirm?.description ?? ""}
        confirmLabel={confirm?.label ?? "Confirm"}
        confirmVariant={confirm?.destructive ? "destructive" : "default"}
        onConfirm={onConfirm}
      />
    </Card>
  );
}
