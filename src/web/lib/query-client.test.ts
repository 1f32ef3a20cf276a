import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiRequestError } from "./api-client";
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
});
