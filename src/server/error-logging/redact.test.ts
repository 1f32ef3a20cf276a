import { describe, expect, it } from "vitest";
import { REDACTED, redactText, redactUrlPath, redactValue } from "./redact.ts";

describe("redaction", () => {
  it("removes secret-named keys at any depth", () => {
    const out = redactValue({ email: "a@b.c", password: "hunter2", nested: { apiKey: "k", list: [{ token: "t" }] }, headers: { authorization: "Bearer x" } });
    expect(JSON.stringify(out)).not.toMatch(/hunter2|"k"|"t"|Bearer x/);
    expect(out).toMatchObject({ email: "a@b.c", password: REDACTED });
  });
  it("scrubs bearer tokens and key=value secrets from text", () => {
    const text = redactText('failed with Bearer abc.def and password=hunter2 {"token":"zzz"}');
    expect(text).not.toMatch(/abc\.def|hunter2|zzz/);
  });
  it("scrubs secret query parameters but keeps the others", () => {
    expect(redactUrlPath("/api/x?token=abc&page=2")).toBe(`/api/x?token=${REDACTED}&page=2`);
    expect(redactUrlPath("/api/x")).toBe("/api/x");
  });
});
