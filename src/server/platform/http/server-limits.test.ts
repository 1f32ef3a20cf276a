import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config/config.ts";
import { requestTimeouts } from "./server-limits.ts";

describe("the HTTP limits of a server process", () => {
  it("default well below node's: headers in 10 s, a whole request in 30 s, checked every second, 1024 connections", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ httpHeadersTimeoutMs: 10_000, httpRequestTimeoutMs: 30_000, httpMaxConnections: 1024 });
    expect(requestTimeouts(config)).toEqual({ headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1000 });
  });

  it("are read from HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS and HTTP_MAX_CONNECTIONS", () => {
    const config = loadConfig({ HTTP_HEADERS_TIMEOUT_MS: "2000", HTTP_REQUEST_TIMEOUT_MS: "60000", HTTP_MAX_CONNECTIONS: "200" });
    expect(config).toMatchObject({ httpHeadersTimeoutMs: 2000, httpRequestTimeoutMs: 60_000, httpMaxConnections: 200 });
    // A short timeout is checked often enough to fire at most a quarter late.
    expect(requestTimeouts(config)).toEqual({ headersTimeout: 2000, requestTimeout: 60_000, connectionsCheckingInterval: 500 });
  });

  it("bound the headers by a shorter request timeout (node refuses a headers timeout above it)", () => {
    expect(requestTimeouts(loadConfig({ HTTP_HEADERS_TIMEOUT_MS: "20000", HTTP_REQUEST_TIMEOUT_MS: "5000" }))).toEqual({
      headersTimeout: 5000,
      requestTimeout: 5000,
      connectionsCheckingInterval: 1000,
    });
  });

  it.each([
    [{ HTTP_HEADERS_TIMEOUT_MS: "30" }, /^Invalid HTTP_HEADERS_TIMEOUT_MS: must be at least 1000 \(milliseconds\)/],
    [{ HTTP_REQUEST_TIMEOUT_MS: "10s" }, /^Invalid HTTP_REQUEST_TIMEOUT_MS: /],
    [{ HTTP_REQUEST_TIMEOUT_MS: "3600000" }, /^Invalid HTTP_REQUEST_TIMEOUT_MS: /],
    [{ HTTP_MAX_CONNECTIONS: "0" }, /^Invalid HTTP_MAX_CONNECTIONS: /],
    [{ HTTP_MAX_CONNECTIONS: "12.5" }, /^Invalid HTTP_MAX_CONNECTIONS: /],
  ])("refuse %o with a line naming the variable", (env, line) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(line);
  });
});
