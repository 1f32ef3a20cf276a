import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineEndpoint } from "@contract/endpoint";
import { ApiRequestError, apiErrorMessage, apiFieldErrors, apiRequest, callApi, checkAnswersAgainstContract, mutationOf } from "./api-client";
import { setSessionToken } from "./session";

function mockFetch(response: Response) {
  const fn = vi.fn<typeof fetch>().mockResolvedValue(response);
  vi.stubGlobal("fetch", fn);
  return fn;
}

afterEach(() => {
  vi.unstubAllGlobals();
  // The web tests' setting (src/web/test/setup.ts); a test that turns it off turns it back on.
  checkAnswersAgainstContract(true);
});

describe("api client", () => {
  it("sends JSON and the bearer token when signed in", async () => {
    setSessionToken("tok-123");
    const fetchMock = mockFetch(new Response(JSON.stringify({ ok: true }), { status: 200 }));
    await expect(apiRequest("POST", "/api/x", { a: 1 })).resolves.toEqual({ ok: true });
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
    await apiRequest("GET", "/api/x");
    const headers = fetchMock.mock.calls[0]?.[1]?.headers as Record<string, string>;
    expect(headers.Authorization).toBeUndefined();
  });

  it("raises 'API Error: {statusText} - {body}' on a non-success answer", async () => {
    const body = '{"error":{"code":"not_found","message":"Vendor not found"}}';
    mockFetch(new Response(body, { status: 404, statusText: "Not Found" }));
    const error = await apiRequest("GET", "/api/x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect((error as Error).message).toBe(`API Error: Not Found - ${body}`);
    expect((error as ApiRequestError).status).toBe(404);
  });

  it("accepts an empty 204 answer", async () => {
    mockFetch(new Response(null, { status: 204 }));
    await expect(apiRequest("DELETE", "/api/x")).resolves.toBeUndefined();
  });

  it("parses the answer with a schema when given", async () => {
    mockFetch(new Response(JSON.stringify({ n: "not a number" }), { status: 200 }));
    await expect(apiRequest("GET", "/api/x", undefined, { schema: z.object({ n: z.number() }) })).rejects.toThrow();
  });
});

const itemSchema = z.object({ id: z.string(), n: z.number() });

const getItem = defineEndpoint({
  method: "get",
  path: "/api/things/{owner}/items/{id}",
  area: "vendors",
  access: "staff",
  summary: "test endpoint",
  params: z.object({ owner: z.string(), id: z.string() }),
  query: z.object({ page: z.coerce.number(), search: z.string().optional(), archived: z.enum(["true", "false"]).optional() }),
  success: { status: 200, description: "the item", schema: itemSchema },
});

const patchItem = defineEndpoint({
  method: "patch",
  path: "/api/things/{id}",
  area: "vendors",
  access: "staff",
  summary: "test endpoint",
  params: z.object({ id: z.string() }),
  body: z.object({ n: z.number() }),
  success: { status: 200, description: "the item", schema: itemSchema },
  invalidates: ["vendors", "dashboard"],
});

const removeItem = defineEndpoint({
  method: "delete",
  path: "/api/things/{id}",
  area: "vendors",
  access: "staff",
  summary: "test endpoint",
  params: z.object({ id: z.string() }),
  success: { status: 204, description: "gone" },
});

describe("callApi", () => {
  it("fills the path parameters URL-encoded", async () => {
    const fetchMock = mockFetch(new Response(JSON.stringify({ id: "a/b", n: 1 }), { status: 200 }));
    await callApi(getItem, { params: { owner: "x y", id: "a/b?c#d" }, query: { page: 1 } });
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/things/x%20y/items/a%2Fb%3Fc%23d?page=1");
  });

  it("builds the query string from the given values, leaving out undefined ones", async () => {
    const fetchMock = mockFetch(new Response(JSON.stringify({ id: "1", n: 1 }), { status: 200 }));
    await callApi(getItem, { params: { owner: "o", id: "1" }, query: { page: 2, search: undefined, archived: false } });
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/things/o/items/1?page=2&archived=false");
  });

  it("encodes query values", async () => {
    const fetchMock = mockFetch(new Response(JSON.stringify({ id: "1", n: 1 }), { status: 200 }));
    await callApi(getItem, { params: { owner: "o", id: "1" }, query: { page: 1, search: "a&b c" } });
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/things/o/items/1?page=1&search=a%26b+c");
  });

  it("takes the method from the definition and sends the body as JSON", async () => {
    const fetchMock = mockFetch(new Response(JSON.stringify({ id: "1", n: 5 }), { status: 200 }));
    await expect(callApi(patchItem, { params: { id: "1" }, body: { n: 5 } })).resolves.toEqual({ id: "1", n: 5 });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe("/api/things/1");
    expect(init?.method).toBe("PATCH");
    expect(init?.body).toBe('{"n":5}');
  });

  it("sends no body when the endpoint has none and accepts a 204", async () => {
    const fetchMock = mockFetch(new Response(null, { status: 204 }));
    await expect(callApi(removeItem, { params: { id: "1" } })).resolves.toBeUndefined();
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.method).toBe("DELETE");
    expect(init?.body).toBeUndefined();
  });

  it("passes the abort signal on", async () => {
    const fetchMock = mockFetch(new Response(null, { status: 204 }));
    const controller = new AbortController();
    await callApi(removeItem, { params: { id: "1" } }, { signal: controller.signal });
    expect(fetchMock.mock.calls[0]?.[1]?.signal).toBe(controller.signal);
  });

  it("rejects an answer of the wrong shape while answers are checked", async () => {
    checkAnswersAgainstContract(true);
    mockFetch(new Response(JSON.stringify({ id: 1, n: "one" }), { status: 200 }));
    await expect(callApi(getItem, { params: { owner: "o", id: "1" }, query: { page: 1 } })).rejects.toThrow();
  });

  it("trusts the answer when checking is off (as in the production bundle)", async () => {
    checkAnswersAgainstContract(false);
    mockFetch(new Response(JSON.stringify({ id: 1, n: "one" }), { status: 200 }));
    await expect(callApi(getItem, { params: { owner: "o", id: "1" }, query: { page: 1 } })).resolves.toEqual({ id: 1, n: "one" });
  });

  it("raises an ApiRequestError for a failure, with the status", async () => {
    mockFetch(new Response('{"error":{"code":"not_found","message":"x"}}', { status: 404, statusText: "Not Found" }));
    const error = await callApi(removeItem, { params: { id: "1" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect((error as ApiRequestError).status).toBe(404);
  });

  it("mutationOf carries the definition's invalidated areas (none when it names none)", () => {
    expect(mutationOf(patchItem)).toEqual({ meta: { invalidates: ["vendors", "dashboard"] } });
    expect(mutationOf(removeItem)).toEqual({ meta: { invalidates: [] } });
  });
});

describe("reading a failure", () => {
  const failure = (status: number, body: string) => new ApiRequestError(status, "Bad Request", body);

  it("gives the server's own message, else the error's text", () => {
    expect(apiErrorMessage(failure(409, JSON.stringify({ error: { code: "conflict", message: "You cannot remove your own access" } })))).toBe("You cannot remove your own access");
    expect(apiErrorMessage(failure(502, "<html>bad gateway</html>"))).toBe("API Error: Bad Request - <html>bad gateway</html>");
    expect(apiErrorMessage(new Error("offline"))).toBe("offline");
    expect(apiErrorMessage("??")).toBe("Unknown error");
  });

  it("gives each invalid input of a 400, and nothing for other failures", () => {
    const body = JSON.stringify({ error: { code: "invalid_input", message: "email: invalid", fields: { email: "invalid", role: "must be admin or viewer" } } });
    expect(apiFieldErrors(failure(400, body))).toEqual({ email: "invalid", role: "must be admin or viewer" });
    expect(apiFieldErrors(failure(409, body))).toEqual({});
    expect(apiFieldErrors(failure(400, "not json"))).toEqual({});
  });
});
