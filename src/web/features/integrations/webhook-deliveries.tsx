import { resendWebhookDeliveryEndpoint, WEBHOOK_DELIVERY_STATUSES, type WebhookDelivery, type WebhookDeliveryStatus, type WebhookEndpoint } from "@contract/integrations-webhooks";
import { type Column, DataTable, FilterBar, ListState, Pager, SelectFilter, useKeysetPages, useUrlParams } from "@web/components/list";
import { Badge, type BadgeVariant } from "@web/components/ui/badge";
import { toast } from "@web/components/ui/toast";
import { WriteButton } from "@web/components/ui/write-button";
import { apiErrorMessage } from "@web/lib/api-client";
import { formatDateTime } from "@web/lib/format";
import { useResendWebhookDelivery, useWebhookDeliveries } from "./webhooks-api";

const STATUS_LABELS: Record<WebhookDeliveryStatus, string> = { pending: "Pending", delivered: "Delivered", failed: "Failed" };
const STATUS_BADGE: Record<WebhookDeliveryStatus, BadgeVariant> = { pending: "warning", delivered: "success", failed: "destructive" };
const STATUS_OPTIONS = [{ value: "all" as const, label: "All statuses" }, ...WEBHOOK_DELIVERY_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))];

/** The status filter in the URL (`deliveries.status`), or "all". */
function chosenStatus(value: string | null): WebhookDeliveryStatus | "all" {
  return (WEBHOOK_DELIVERY_STATUSES as readonly string[]).includes(value ?? "") ? (value as WebhookDeliveryStatus) : "all";
}

/** What the last attempt got: the HTTP status and how long it took, or why there was none. */
function LastAnswer({ d }: { d: WebhookDelivery }) {
  if (d.attempts === 0) return <span className="text-gray-500">Not tried yet</span>;
  return (
    <div className="grid gap-0.5">
      <span>
        {d.lastStatusCode === null ? "No answer" : `HTTP ${d.lastStatusCode}`}
        {d.lastDurationMs !== null ? ` in ${d.lastDurationMs.toLocaleString("en-US")} ms` : ""}
      </span>
      {d.lastError && <span className="text-xs text-red-700">{d.lastError}</span>}
      {d.lastResponseBody && (
        <code className="max-w-72 truncate font-mono text-xs text-gray-500" title={d.lastResponseBody}>
          {d.lastResponseBody}
        </code>
      )}
    </div>
  );
}

/**
 * One endpoint's delivery log, newest first: event type, status, attempts, the last answer and its
 * duration, the next attempt; filtered by status (`deliveries.status`) and paged by keyset
 * (`deliveries.cursor`). Resend sends the event again as a new delivery.
 */
export function WebhookDeliveries({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [params] = useUrlParams();
  const status = chosenStatus(params.get("deliveries.status"));
  const pages = useKeysetPages("deliveries");
  const deliveries = useWebhookDeliveries(endpoint.id, status, pages.cursor);
  const resend = useResendWebhookDelivery();

  const onResend = (d: WebhookDelivery) =>
    resend.mutate(
      { id: endpoint.id, deliveryId: d.id },
      {
        onSuccess: () => {
          pages.reset();
          toast({ title: `${d.eventType} sent again to ${endpoint.url}`, description: "It is a new delivery at the top of the log.", variant: "success" });
        },
        onError: (error) => toast({ title: `Failed to resend: ${apiErrorMessage(error)}`, variant: "destructive" }),
      },
    );

  const columns: Array<Column<WebhookDelivery>> = [
    { id: "created", header: "Created", className: "whitespace-nowrap", cell: (d) => formatDateTime(d.createdAt) },
    {
      id: "event",
      header: "Event",
      cell: (d) => (
        <div className="grid gap-0.5">
          <code className="font-mono text-xs">{d.eventType}</code>
          <code className="font-mono text-xs break-all text-gray-500">{d.eventId}</code>
        </div>
      ),
    },
    { id: "status", header: "Status", cell: (d) => <Badge variant={STATUS_BADGE[d.status]}>{STATUS_LABELS[d.status]}</Badge> },
    { id: "attempts", header: "Attempts", className: "text-right tabular-nums", cell: (d) => d.attempts },
    { id: "last", header: "Last answer", cell: (d) => <LastAnswer d={d} /> },
    {
      id: "next",
      header: "Next attempt",
      className: "whitespace-nowrap",
      cell: (d) => (d.nextAttemptAt ? formatDateTime(d.nextAttemptAt) : d.deliveredAt ? `Delivered ${formatDateTime(d.deliveredAt)}` : "None"),
    },
    {
      id: "actions",
      header: "Actions",
      hideHeader: true,
      cell: (d) => (
        <div className="flex justify-end">
          <WriteButton
            endpoint={resendWebhookDeliveryEndpoint}
            size="sm"
            variant="outline"
            disabled={resend.isPending || !endpoint.enabled}
            onClick={() => onResend(d)}
            aria-label={`Resend the ${d.eventType} event ${d.eventId}`}
          >
            Resend
          </WriteButton>
        </div>
      ),
    },
  ];

  return (
    <section aria-labelledby="webhook-deliveries-title" className="grid gap-3 rounded-md border border-gray-200 p-4" data-testid="webhook-deliveries">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid gap-1">
          <h3 id="webhook-deliveries-title" className="text-base font-semibold">
            Deliveries to <span className="font-mono text-sm break-all">{endpoint.url}</span>
          </h3>
          <p className="text-sm text-gray-600">A failed attempt is tried again after 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 4 h and 12 h.</p>
        </div>
        <FilterBar>
          <SelectFilter id="deliveries-status" label="Status" param="deliveries.status" value={status} options={STATUS_OPTIONS} />
        </FilterBar>
      </div>
      <ListState
        inline
        query={deliveries}
        isEmpty={(data) => data.deliveries.length === 0}
        loadingLabel="Loading deliveries"
        errorTitle="Failed to load the deliveries"
        errorMessage={apiErrorMessage}
        emptyText={status === "all" ? "Nothing sent to this endpoint yet: send a test, or wait for a decision it takes." : `No ${STATUS_LABELS[status].toLowerCase()} delivery.`}
        footer={() => <Pager label="Delivery pages" {...pages.controls(deliveries)} />}
      >
        {(data) => (
          <DataTable
            label={`Deliveries to ${endpoint.url}`}
            columns={columns}
            rows={data.deliveries}
            rowKey={(d) => d.id}
            rowProps={(d) => ({ "data-testid": `delivery-${d.eventType}`, "data-status": d.status })}
            busy={deliveries.isFetching}
          />
        )}
      </ListState>
    </section>
  );
}
