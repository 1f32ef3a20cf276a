import { describe, expect, it } from "vitest";
import { z } from "zod";
import { auditLogFiltersSchema } from "../../../contract/audit-log.ts";
import { errorListQuerySchema } from "../../../contract/error-logs.ts";
import { REDACTED, plainQueryKeys, redactContext, redactFilters, redactHeaders, redactRequestTarget, redactText, redactUserAgent, redactValue } from "./redact.ts";

const token = "Zq3vY0b8kQ1xWc4pRt7uLm2nHs5aJd9eFg6iKo0yTr1"; // 43 characters, like every token the server hands out

describe("redaction", () => {
  it("removes secret-named keys at any depth, but keeps counts and flags under such names", () => {
    const out = redactValue({ email: "a@b.c", password: "hunter2", nested: { apiKey: "k", list: [{ token: "t" }] }, headers: { authorization: "Bearer x" }, sessionsRevoked: 3 });
    expect(JSON.stringify(out)).not.toMatch(/hunter2|"k"|"t"|Bearer x/);
    expect(out).toMatchObject({ email: "a@b.c", password: REDACTED, sessionsRevoked: 3 });
  });

  it("scrubs bearer tokens, key=value secrets, JWTs, provider keys and token-shaped runs from text, but keeps ids", () => {
    const text = redactText(
      `failed with Bearer abc.def and password=hunter2 {"token":"zzz"} jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl key sk_live_abcdef123456 link ${token} vendor 01890000-0000-7000-8000-000000000000`,
    );
    expect(text).not.toMatch(/abc\.def|hunter2|zzz|eyJzdWIi|sk_live_abcdef|Zq3vY0/);
    expect(text).toContain("vendor 01890000-0000-7000-8000-000000000000");
  });

  it("derives the plain filters from the definitions: enums, literals, numbers and booleans, never free text, ids or cursors", () => {
    expect([...plainQueryKeys(errorListQuerySchema).keys()].sort()).toEqual(["archived", "level", "limit", "page", "sort"]);
    expect([...plainQueryKeys(auditLogFiltersSchema).keys()]).toEqual([]);
    expect([...plainQueryKeys(z.object({ search: z.string(), days: z.enum(["7", "30"]).default("7").transform(Number) })).keys()]).toEqual(["days"]);
  });

  it("finding 7: a path keeps its query keys, and only the values its endpoint declares plain (and valid)", () => {
    // page, limit and level are plain on the error list; the cursor and a stray key are not.
    expect(redactRequestTarget("GET", "/api/admin/errors?page=2&limit=20&level=error&cursor=abc&invite=xyz")).toBe(
      `/api/admin/errors?page=2&limit=20&level=error&cursor=${REDACTED}&invite=${REDACTED}`,
    );
    // A plain key whose value is not one of its values is replaced too: a password pasted into ?level=.
    expect(redactRequestTarget("GET", "/api/admin/errors?level=hunter2")).toBe(`/api/admin/errors?level=${REDACTED}`);
    // A free-text search is user data.
    expect(redactRequestTarget("GET", "/api/admin/vendors?search=jane%40example.com&status=active")).toBe(`/api/admin/vendors?search=${REDACTED}&status=active`);
    // HEAD is answered by GET's definition.
    expect(redactRequestTarget("HEAD", "/api/admin/analytics?days=30&t=secret")).toBe(`/api/admin/analytics?days=30&t=${REDACTED}`);
    // Keys the attack run found leaking: none is declared anywhere, so none keeps its value.
    for (const key of ["invite", "code", "key", "t", "pw", "sig", "jwt", "auth"]) {
      expect(redactRequestTarget("GET", `/api/admin/vendors?${key}=s3cr3t-value`)).toBe(`/api/admin/vendors?${key}=${REDACTED}`);
    }
  });

  it("finding 7: a path no definition matches keeps its keys and loses every value", () => {
    expect(redactRequestTarget("GET", "/accept-invite?token=abc&page=2")).toBe(`/accept-invite?token=${REDACTED}&page=${REDACTED}`);
    expect(redactRequestTarget("POST", "/api/no-such-route?x=1&flag")).toBe(`/api/no-such-route?x=${REDACTED}&flag`);
    expect(redactRequestTarget("GET", "/assets/app-abc123.js")).toBe("/assets/app-abc123.js");
  });

  it("finding 7: secret path segments are replaced: the export link's token, and any token-shaped segment anywhere", () => {
    expect(redactRequestTarget("GET", `/api/exports/${token}`)).toBe(`/api/exports/${REDACTED}`);
    // Short or malformed: still the {token} parameter of its definition.
    expect(redactRequestTarget("GET", "/api/exports/not-a-link", "/api/exports/{token}")).toBe(`/api/exports/${REDACTED}`);
    expect(redactRequestTarget("GET", `/accept-invite/${token}/x`)).toBe(`/accept-invite/${REDACTED}/x`);
    expect(redactRequestTarget("POST", `/api/auth/invitations/${token}`)).toBe(`/api/auth/invitations/${REDACTED}`);
    // Ids name rows, not secrets.
    expect(redactRequestTarget("GET", "/api/admin/vendors/01890000-0000-7000-8000-000000000000/sales?page=3")).toBe("/api/admin/vendors/01890000-0000-7000-8000-000000000000/sales?page=3");
    // A token sent as a query key.
    expect(redactRequestTarget("GET", `/api/health?${token}`)).toBe(`/api/health?${REDACTED}`);
  });

  it("finding 7: headers keep their names, and values only where they cannot carry a credential", () => {
    const out = redactHeaders({
      Authorization: `Bearer ${token}`,
      cookie: "session=abc",
      "x-beta-password": "letmein",
      "x-api-key": "k",
      "content-type": "application/json",
      "user-agent": `curl/8.0 Bearer ${token}`,
      referer: `https://admin.example/accept-invite?token=${token}`,
    });
    expect(out).toEqual({
      authorization: REDACTED,
      cookie: REDACTED,
      "x-beta-password": REDACTED,
      "x-api-key": REDACTED,
      "content-type": "application/json",
      "user-agent": `curl/8.0 Bearer ${REDACTED}`,
      referer: `https://admin.example/accept-invite?token=${REDACTED}`,
    });
  });

  it("finding 7: user agents are scrubbed (a Bearer header pasted into one, a raw token)", () => {
    expect(redactUserAgent(`Mozilla/5.0 (X11; Linux x86_64) Bearer ${token}`)).toBe(`Mozilla/5.0 (X11; Linux x86_64) Bearer ${REDACTED}`);
    expect(redactUserAgent(`probe ${token}`)).toBe(`probe ${REDACTED}`);
    expect(redactUserAgent("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0.0.0 Safari/537.36")).toBe(
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0.0.0 Safari/537.36",
    );
  });

  it("an error-log context: query by the request rule, headers by the header rule, the rest by name and text", () => {
    const out = redactContext("GET", "/api/admin/errors?level=error&code=123456", {
      query: { level: "error", code: "123456" },
      headers: { authorization: "Bearer abc", "content-type": "text/plain" },
      contentType: "text/plain",
      note: `token=${token}`,
    });
    expect(out).toEqual({ query: { level: "error", code: REDACTED }, headers: { authorization: REDACTED, "content-type": "text/plain" }, contentType: "text/plain", note: `token=${REDACTED}` });
  });

  it("audit filters keep their keys and only plain values", () => {
    const payoutsLike = z.object({ status: z.enum(["paid", "failed"]).optional(), vendorId: z.string().optional() });
    expect(redactFilters(payoutsLike, { status: "paid", vendorId: "v1" })).toEqual({ status: "paid", vendorId: REDACTED });
    expect(redactFilters(auditLogFiltersSchema, { actor: "someone@example.com", action: "vendor.disable" })).toEqual({ actor: REDACTED, action: REDACTED });
  });
});
