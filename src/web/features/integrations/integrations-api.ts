import { useMutation, useQuery } from "@tanstack/react-query";
import { type CreateApiKeyRequest, createApiKeyEndpoint, listApiKeysEndpoint, revokeApiKeyEndpoint } from "@contract/integrations";
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
