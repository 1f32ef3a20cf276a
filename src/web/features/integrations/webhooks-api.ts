import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import {
  type CreateWebhookEndpointRequest,
  createWebhookEndpointEndpoint,
  deleteWebhookEndpointEndpoint,
  listWebhookDeliveriesEndpoint,
  listWebhookEndpointsEndpoint,
  resendWebhookDeliveryEndpoint,
  rotateWebhookSecretEndpoint,
  testWebhookEndpointEndpoint,
  type UpdateWebhookEndpointRequest,
  updateWebhookEndpointEndpoint,
  type WebhookDeliveriesResponse,
  type WebhookDeliveryStatus,
} from "@contract/integrations-webhooks";
import { callApi, mutationOf } from "@web/lib/api-client";
import { queryKeys } from "@web/lib/query-keys";

/** The Webhooks section's calls (docs/integration.md "Webhooks"). */

export const DELIVERIES_PAGE_SIZE = 20;
/** How often a log with deliveries still waiting is read again, so an attempt's outcome shows without a reload. */
const PENDING_REFRESH_MS = 3_000;

export function useWebhookEndpoints(enabled = true) {
  return useQuery({ queryKey: queryKeys.integrations.webhooks(), enabled, queryFn: ({ signal }) => callApi(listWebhookEndpointsEndpoint, {}, { signal }) });
}

export function useCreateWebhookEndpoint() {
  return useMutation({ ...mutationOf(createWebhookEndpointEndpoint), mutationFn: (body: CreateWebhookEndpointRequest) => callApi(createWebhookEndpointEndpoint, { body }) });
}

export function useUpdateWebhookEndpoint() {
  return useMutation({
    ...mutationOf(updateWebhookEndpointEndpoint),
    mutationFn: ({ id, body }: { id: string; body: UpdateWebhookEndpointRequest }) => callApi(updateWebhookEndpointEndpoint, { params: { id }, body }),
  });
}

export function useDeleteWebhookEndpoint() {
  return useMutation({ ...mutationOf(deleteWebhookEndpointEndpoint), mutationFn: (id: string) => callApi(deleteWebhookEndpointEndpoint, { params: { id } }) });
}

export function useRotateWebhookSecret() {
  return useMutation({ ...mutationOf(rotateWebhookSecretEndpoint), mutationFn: (id: string) => callApi(rotateWebhookSecretEndpoint, { params: { id } }) });
}

export function useTestWebhookEndpoint() {
  return useMutation({ ...mutationOf(testWebhookEndpointEndpoint), mutationFn: (id: string) => callApi(testWebhookEndpointEndpoint, { params: { id } }) });
}

/** One page of an endpoint's deliveries, newest first; read again every few seconds while any on it is still pending. */
export function useWebhookDeliveries(endpointId: string, status: WebhookDeliveryStatus | "all", cursor: string | null) {
  return useQuery({
    queryKey: queryKeys.integrations.webhookDeliveries(endpointId, status, cursor),
    queryFn: ({ signal }) =>
      callApi(
        listWebhookDeliveriesEndpoint,
        { params: { id: endpointId }, query: { status: status === "all" ? undefined : status, limit: DELIVERIES_PAGE_SIZE, cursor: cursor ?? undefined } },
        { signal },
      ),
    placeholderData: keepPreviousData,
    refetchInterval: (query: { state: { data?: WebhookDeliveriesResponse | undefined } }) => (query.state.data?.deliveries.some((d) => d.status === "pending") ? PENDING_REFRESH_MS : false),
  });
}

export function useResendWebhookDelivery() {
  return useMutation({
    ...mutationOf(resendWebhookDeliveryEndpoint),
    mutationFn: ({ id, deliveryId }: { id: string; deliveryId: string }) => callApi(resendWebhookDeliveryEndpoint, { params: { id, deliveryId } }),
  });
}
