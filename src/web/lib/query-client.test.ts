import { MutationObserver } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { updateSettingsEndpoint } from "@contract/settings";
import { ApiRequestError, mutationOf } from "./api-client";
import { createQueryClient } from "./query-client";
import { getSessionToken, setSessionToken } from "./session";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("query client", () => {
  it("drops the session token when a call answers 401", async () => {
    setSessionToken("tok");
    const client = createQueryClient();
    await client
      .fetchQuery({
        queryKey: ["x"],
        queryFn: () => Promise.reject(new ApiRequestError(401, "Unauthorized", "{}")),
      })
      .catch(() => undefined);
    expect(getSessionToken()).toBeNull();
  });

  it("keeps the token on other failures and does not retry 4xx", async () => {
    setSessionToken("tok");
    const client = createQueryClient();
    const queryFn = vi.fn(() => Promise.reject(new ApiRequestError(403, "Forbidden", "{}")));
    await client.fetchQuery({ queryKey: ["y"], queryFn, retry: client.getDefaultOptions().queries?.retry }).catch(() => undefined);
    expect(queryFn).toHaveBeenCalledTimes(1);
    expect(getSessionToken()).toBe("tok");
  });

  it("after a mutation succeeds, refreshes exactly the areas its definition names", async () => {
    const client = createQueryClient();
    for (const key of [
      ["settings", "values"],
      ["dashboard", "stats"],
      ["analytics", 30],
      ["error-logs", "list"],
      ["vendors", "list"],
    ])
      client.setQueryData(key, { n: 1 });
    const observer = new MutationObserver(client, { ...mutationOf(updateSettingsEndpoint), mutationFn: () => Promise.resolve({}) });
    await observer.mutate();
    const invalidated = (key: unknown[]) => client.getQueryState(key)?.isInvalidated;
    expect(invalidated(["settings", "values"])).toBe(true);
    expect(invalidated(["dashboard", "stats"])).toBe(true);
    expect(invalidated(["analytics", 30])).toBe(true);
    expect(invalidated(["error-logs", "list"])).toBe(false);
    expect(invalidated(["vendors", "list"])).toBe(false);
  });

  it("refreshes nothing when the mutation fails", async () => {
    const client = createQueryClient();
    client.setQueryData(["dashboard", "stats"], { n: 1 });
    const observer = new MutationObserver(client, { ...mutationOf(updateSettingsEndpoint), mutationFn: () => Promise.reject(new Error("no")) });
    await observer.mutate().catch(() => undefined);
    expect(client.getQueryState(["dashboard", "stats"])?.isInvalidated).toBe(false);
  });
});
