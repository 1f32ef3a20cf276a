import { INCOMING_OUTCOME_LABELS, INCOMING_SOURCE_LABELS, type IncomingEvent, type IncomingOutcome, type IncomingSource, retryIncomingEventEndpoint } from "@contract/integrations-inbound";
import { type Column, DataTable, FilterBar, ListState, Pager, SelectFilter, useKeysetPages, useUrlParams } from "@web/components/list";
import { Badge, type BadgeVariant } from "@web/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { toast } from "@web/components/ui/toast";
import { WriteButton } from "@web/components/ui/write-button";
import { apiErrorMessage } from "@web/lib/api-client";
import { formatDateTime } from "@web/lib/format";
import { useLoadDelay } from "@web/lib/use-load-delay";
import { useIncomingEvents, useRetryIncomingEvent } from "./integrations-api";

const OUTCOME_BADGE: Record<IncomingOutcome, BadgeVariant> = { processed: "success", ignored: "secondary", stale: "info", pending: "warning", failed: "destructive" };

/** A filter's value from the URL, or "all" when absent or not one of `labels`. */
function chosen<K extends string>(value: string | null, labels: Readonly<Record<K, string>>): K | "all" {
  return value !== null && Object.hasOwn(labels, value) ? (value as K) : "all";
}

const options = <K extends string>(all: string, labels: Readonly<Record<K, string>>) => [
  { value: "all" as K | "all", label: all },
  ...(Object.keys(labels) as K[]).map((k) => ({ value: k, label: labels[k] })),
];

/**
 * 'Incoming events' (docs/integration.md): everything that came in — the storefront's events, Stripe's
 * and Clerk's webhooks — newest first, with what came of each, filtered by source and outcome
 * (`incoming.source`, `incoming.outcome` in the URL) and paged by keyset (`incoming.cursor`). A
 * Stripe or Clerk event whose processing failed every attempt can be retried.
 */
export function IncomingEventsSection() {
  const ready = useLoadDelay();
  const [params] = useUrlParams();
  const pages = useKeysetPages("incoming");
  const filters = { source: chosen<IncomingSource>(params.get("incoming.source"), INCOMING_SOURCE_LABELS), outcome: chosen<IncomingOutcome>(params.get("incoming.outcome"), INCOMING_OUTCOME_LABELS) };
  const events = useIncomingEvents(filters, pages.cursor, ready);
  const retry = useRetryIncomingEvent();

  const onRetry = (event: IncomingEvent) =>
    retry.mutate(event.id, {
      onSuccess: () => toast({ title: `${INCOMING_SOURCE_LABELS[event.source]} event ${event.eventId} queued again`, description: "It is processed in the background.", variant: "success" }),
      onError: (error) => toast({ title: `Failed to retry the event: ${apiErrorMessage(error)}`, variant: "destructive" }),
    });

  const columns: Array<Column<IncomingEvent>> = [
    { id: "received", header: "Received", className: "whitespace-nowrap", cell: (e) => formatDateTime(e.receivedAt) },
    { id: "source", header: "Source", cell: (e) => INCOMING_SOURCE_LABELS[e.source] },
    { id: "type", header: "Type", cell: (e) => <code className="font-mono text-xs">{e.type}</code> },
    { id: "id", header: "Event id", cell: (e) => <code className="font-mono text-xs break-all">{e.eventId}</code> },
    {
      id: "outcome",
      header: "Outcome",
      cell: (e) => (
        <div className="grid justify-items-start gap-1">
          <Badge variant={OUTCOME_BADGE[e.outcome]}>{INCOMING_OUTCOME_LABELS[e.outcome]}</Badge>
          {e.message && <span className="text-xs text-gray-600">{e.message}</span>}
          {e.source !== "storefront" && e.attempts > 1 && <span className="text-xs text-gray-500">{e.attempts} attempts</span>}
        </div>
      ),
    },
    {
      id: "actions",
      header: "Actions",
      hideHeader: true,
      cell: (e) =>
        e.retryable ? (
          <div className="flex justify-end">
            <WriteButton
              endpoint={retryIncomingEventEndpoint}
              size="sm"
              variant="outline"
              disabled={retry.isPending}
              onClick={() => onRetry(e)}
              aria-label={`Retry the ${INCOMING_SOURCE_LABELS[e.source]} event ${e.eventId}`}
            >
              Retry
            </WriteButton>
          </div>
        ) : null,
    },
  ];

  return (
    <Card>
      <CardHeader className="grid gap-3">
        <div className="grid gap-1.5">
          <CardTitle>Incoming events</CardTitle>
          <CardDescription>Everything the storefront, Stripe and Clerk sent, newest first, and what came of it. Stripe and Clerk events are processed in the background.</CardDescription>
        </div>
        <FilterBar>
          <SelectFilter id="incoming-source" label="Source" param="incoming.source" value={filters.source} options={options("All sources", INCOMING_SOURCE_LABELS)} />
          <SelectFilter id="incoming-outcome" label="Outcome" param="incoming.outcome" value={filters.outcome} options={options("All outcomes", INCOMING_OUTCOME_LABELS)} />
        </FilterBar>
      </CardHeader>
      <CardContent>
        <ListState
          inline
          query={events}
          isEmpty={(data) => data.items.length === 0}
          loadingLabel="Loading incoming events"
          errorTitle="Failed to load incoming events"
          errorMessage={apiErrorMessage}
          emptyText={filters.source === "all" && filters.outcome === "all" ? "Nothing has come in yet." : "No incoming event matches these filters."}
          footer={() => <Pager label="Incoming event pages" {...pages.controls(events)} />}
        >
          {(data) => (
            <DataTable
              label="Incoming events"
              columns={columns}
              rows={data.items}
              rowKey={(e) => `${e.source}:${e.id}`}
              rowProps={(e) => ({ "data-testid": `incoming-${e.eventId}` })}
              busy={events.isFetching}
            />
          )}
        </ListState>
      </CardContent>
    </Card>
  );
}
