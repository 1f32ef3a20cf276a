import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import { type CreateApiKeyRequest, createApiKeyEndpoint, listApiKeysEndpoint, revokeApiKeyEndpoint } from "@contract/integrations";
import { type IncomingOutcome, type IncomingSource, listIncomingEventsEndpoint, retryIncomingEventEndpoint } from "@contract/integrations-inbound";
import { callApi, mutationOf } from "@web/lib/api-client";
import { queryKeys } from "@web/lib/query-keys";

export function useApiKeys(enabled = true) {
  return useQuery({ queryKey: queryKeys.integrations.apiKeys(), enabled, queryFn: ({ signal }) => callApi(listApiKeysEndpoint, {}, { signal }) });
}

export function useCreateApiKey() {
  return useMutation({ ...mutationOf(createApiKeyEndpoint), mutationFn: (body: CreateApiKeyRequest) => callApi(createApiKeyEndpoint, { body }) });
}

export function useRevokeApiKey() {
  return useMutation({ ...mutationOf(revokeApiKeyEndpoint), mutationFn: (id: string) => callApi(revokeApiKeyEndpoint, { params: { id } }) });
}

export const INCOMING_PAGE_SIZE = 25;

/** One page of everything that came in (storefront, Stripe, Clerk), newest first, with the filters on screen ("all": none). */
export function useIncomingEvents(filters: { source: IncomingSource | "all"; outcome: IncomingOutcome | "all" }, cursor: string | null, enabled = true) {
  return useQuery({
    queryKey: queryKeys.integrations.incoming(filters, cursor),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      callApi(
        listIncomingEventsEndpoint,
        {
          query: {
            source: filters.source === "all" ? undefined : filters.source,
            outcome: filters.outcome === "all" ? undefined : filters.outcome,
            limit: INCOMING_PAGE_SIZE,
            cursor: cursor ?? undefined,
          },
        },
        { signal },
      ),
  });
}

export function useRetryIncomingEvent() {
  return useMutation({ ...mutationOf(retryIncomingEventEndpoint), mutationFn: (id: string) => callApi(retryIncomingEventEndpoint, { params: { id } }) });
}
