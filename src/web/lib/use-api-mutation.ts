import { useMutation } from "@tanstack/react-query";
import type { EndpointDefinition, EndpointInput, EndpointResult } from "@contract/endpoint";
import { callApi, mutationOf } from "./api-client";

/** The input of an endpoint acting on one row named by its `{id}` path parameter. */
export const byId = (id: string) => ({ params: { id } });

/**
 * The mutation hook of one endpoint (ARCHITECTURE.md, "How to add an endpoint", step 4): `inputOf`
 * turns what the screen passes into the call's input, `pick` keeps the part of the answer the
 * screen reads; afterwards the areas the definition names are refreshed (mutationOf).
 */
export function useApiMutation<D extends EndpointDefinition, V, R = EndpointResult<D>>(definition: D, inputOf: (variables: V) => EndpointInput<D>, pick?: (answer: EndpointResult<D>) => R) {
  return useMutation({
    ...mutationOf(definition),
    mutationFn: async (variables: V): Promise<R> => {
      const answer = await callApi(definition, inputOf(variables));
      return pick ? pick(answer) : (answer as unknown as R);
    },
  });
}
