/**
 * The reference point for throughput: a bare node:http server sending the same answer the real
 * dashboard endpoint sent, so both serialise and send the same bytes: the same JSON body
 * (BARE_BODY, serialised per request as a handler would) under the same headers (BARE_HEADERS:
 * the dashboard answer's own, its security headers included; a fresh X-Request-Id per answer, as
 * the server makes one). Run as its own process, like the real server. Prints "ready" once listening.
 */
import { randomUUID } from "node:crypto";
import http from "node:http";

const body = process.env.BARE_BODY ?? '{"ok":true}';
const headers: Record<string, string> = process.env.BARE_HEADERS ? (JSON.parse(process.env.BARE_HEADERS) as Record<string, string>) : { "Content-Type": "application/json" };
const port = Number(process.env.BARE_PORT ?? 0);
const parsed: unknown = JSON.parse(body);
const requestIdHeader = Object.keys(headers).find((name) => name.toLowerCase() === "x-request-id");

http
  .createServer((_req, res) => {
    const text = JSON.stringify(parsed);
    const answerHeaders: Record<string, string | number> = { ...headers, "Content-Length": Buffer.byteLength(text) };
    if (requestIdHeader) answerHeaders[requestIdHeader] = randomUUID();
    res.writeHead(200, answerHeaders);
    res.end(text);
  })
  .listen(port, "127.0.0.1", () => console.log("ready"));
