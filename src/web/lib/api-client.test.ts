import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { apiDelete, apiGet, apiPost, ApiRequestError } from "./api-client";
import { setSessionToken } from "./session";

function mockFetch(response: Response) {
  const fn = vi.fn<typeof fetch>().mockResolvedValue(response);
  vi.stubGlobal("fetch", fn);
  return fn;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("api client", () => {
  it("sends JSON and the bearer token when signed in", async () => {
    setSessionToken("tok-123");
    const fetchMock = mockFetch(new Response(JSON.stringify({ ok: true }), { status: 200 }));
    await expect(apiPost("/api/x", { a: 1 })).resolves.toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe("/api/x");
    expect(init?.method).toBe("POST");
    expect(init?.body).toBe('{"a":1}');
    const headers = init?.headers as Record<string, string>;
    expect(headers["Content-Type"]).toBe("application/json");
    expect(headers.Authorization).toBe("Bearer tok-123");
  });

  it("sends no Authorization header without a token", async () => {
    const fetchMock = mockFetch(new Response("{}", { status: 200 }));
    await apiGet("/api/x");
    const headers = fetchMock.mock.calls[0]?.[1]?.headers as Record<string, string>;
    expect(headers.Authorization).toBeUndefined();
  });

  it("raises 'API Error: {statusText} - {body}' on a non-success answer", async () => {
    const body = '{"error":{"code":"not_found","message":"Vendor not found"}}';
    mockFetch(new Response(body, { status: 404, statusText: "Not Found" }));
    const error = await apiGet("/api/x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect((error as Error).message).toBe(`API Error: Not Found - ${body}`);
    expect((error as ApiRequestError).status).toBe(404);
  });

  it("accepts an empty 204 answer", async () => {
    mockFetch(new Response(null, { status: 204 }));
    await expect(apiDelete("/api/x")).resolves.toBeUndefined();
  });

  it("parses the answer with a schema when given", async () => {
    mockFetch(new Response(JSON.stringify({ n: "not a number" }), { status: 200 }));
    await expect(apiGet("/api/x", { schema: z.object({ n: z.number() }) })).rejects.toThrow();
  });
});
