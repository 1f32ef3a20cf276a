import { afterEach, describe, expect, it, vi } from "vitest";
import { apiRequest } from "./api-client";
import { clerkTokenSource } from "./clerk-token-source";
import { getAuthToken, setSessionToken, setTokenSource } from "./session";

function recordFetch() {
  const fn = vi.fn<typeof fetch>(async () => new Response("{}", { status: 200 }));
  vi.stubGlobal("fetch", fn);
  return () => fn.mock.calls.map(([, init]) => (init?.headers as Record<string, string>).Authorization ?? null);
}

let restore: (() => void) | null = null;
afterEach(() => {
  restore?.();
  restore = null;
  vi.unstubAllGlobals();
});

describe("the API client's token source", () => {
  it("by default is the built-in session token from localStorage, read on every call", async () => {
    const authorizations = recordFetch();
    expect(await getAuthToken()).toBeNull();
    await apiRequest("GET", "/api/x");
    setSessionToken("stored-1");
    await apiRequest("GET", "/api/x");
    expect(authorizations()).toEqual([null, "Bearer stored-1"]);
  });

  it("is asynchronous: the client waits for it, asks it again on every call, and uses what it answers then", async () => {
    const authorizations = recordFetch();
    const tokens = ["fresh-1", "fresh-2"];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const source = vi.fn(async () => {
      await gate;
      return tokens.shift() ?? null;
    });
    restore = setTokenSource(source);
    const first = apiRequest("GET", "/api/x");
    await Promise.resolve();
    // Nothing is sent before the source answers.
    expect(authorizations()).toEqual([]);
    release();
    await first;
    await apiRequest("GET", "/api/y");
    await apiRequest("GET", "/api/z");
    expect(source).toHaveBeenCalledTimes(3);
    expect(authorizations()).toEqual(["Bearer fresh-1", "Bearer fresh-2", null]);
  });

  it("puts the stored source back when the installed one is removed, and ignores a stale removal", async () => {
    setSessionToken("stored");
    const removeFirst = setTokenSource(async () => "first");
    const removeSecond = setTokenSource(async () => "second");
    removeFirst();
    expect(await getAuthToken()).toBe("second");
    removeSecond();
    expect(await getAuthToken()).toBe("stored");
  });
});

describe("clerkTokenSource", () => {
  it("asks the active session's getToken() on every call (Clerk caches it and refreshes it before it expires)", async () => {
    const getToken = vi.fn<() => Promise<string | null>>().mockResolvedValueOnce("jwt-1").mockResolvedValueOnce("jwt-2");
    const clerk: { session: { getToken: typeof getToken } | null } = { session: { getToken } };
    const source = clerkTokenSource(clerk);
    expect(await source()).toBe("jwt-1");
    expect(await source()).toBe("jwt-2");
    expect(getToken).toHaveBeenCalledTimes(2);
  });

  it("answers null when signed out, or when Clerk has no token", async () => {
    const clerk: { session: { getToken: () => Promise<string | null> } | null } = { session: null };
    const source = clerkTokenSource(clerk);
    expect(await source()).toBeNull();
    clerk.session = { getToken: async () => null };
    expect(await source()).toBeNull();
  });

  it("follows the session Clerk has now, not the one it had when installed", async () => {
    const clerk: { session: { getToken: () => Promise<string | null> } | null } = { session: null };
    restore = setTokenSource(clerkTokenSource(clerk));
    const authorizations = recordFetch();
    await apiRequest("GET", "/api/x");
    clerk.session = { getToken: async () => "after-sign-in" };
    await apiRequest("GET", "/api/x");
    expect(authorizations()).toEqual([null, "Bearer after-sign-in"]);
  });
});
