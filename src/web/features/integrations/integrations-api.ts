import { useMutation, useQuery } from "@tanstack/react-query";
import { type CreateApiKeyRequest, createApiKeyEndpoint, listApiKeysEndpoint, revokeApiKeyEndpoint } from "@contract/integrations";
import { callApi, mutationOf } from "@web/lib/api-client";

/** Query keys of the integrations area (each starts with the area, so its mutations refresh them). */
export const integrationsKeys = {
  all: ["integrations"] as const,
  apiKeys: () => [...integrationsKeys.all, "api-keys"] as const,
};

export function useApiKeys(enabled = true) {
  return useQuery({ queryKey: integrationsKeys.apiKeys(), enabled, queryFn: ({ signal }) => callApi(listApiKeysEndpoint, {}, { signal }) });
}

export function useCreateApiKey() {
  return useMutation({ ...mutationOf(createApiKeyEndpoint), mutationFn: (body: CreateApiKeyRequest) => callApi(createApiKeyEndpoint, { body }) });
}

export function useRevokeApiKey() {
  return useMutation({ ...mutationOf(revokeApiKeyEndpoint), mutationFn: (id: string) => callApi(revokeApiKeyEndpoint, { params: { id } }) });
}
