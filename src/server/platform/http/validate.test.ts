import { describe, expect, it } from "vitest";
import { z } from "zod";
import { HttpError } from "./http-error.ts";
import { parseWith } from "./validate.ts";

describe("parseWith", () => {
  const schema = z.object({ search: z.string(), nested: z.object({ name: z.string() }).optional() });

  it("names the field at fault", () => {
    expect(() => parseWith(schema, { search: 1 })).toThrow(/^search: /);
  });

  it("rejects NUL characters anywhere, naming where", () => {
    for (const [value, where] of [
      [{ search: "a\u0000b" }, "search"],
      [{ search: "ok", nested: { name: "\u0000" } }, "nested.name"],
    ] as const) {
      try {
        parseWith(schema, value);
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(HttpError);
        expect((err as HttpError).status).toBe(400);
        expect((err as HttpError).message).toBe(`${where}: must not contain NUL characters`);
      }
    }
  });
});
