/**
 * The reference point for throughput: a bare node:http server answering every request with the
 * same JSON body the real dashboard endpoint returned (BARE_BODY), so both serialise and send the
 * same bytes. Run as its own process, like the real server. Prints "ready" once listening.
 */
import http from "node:http";

const body = process.env.BARE_BODY ?? '{"ok":true}';
const port = Number(process.env.BARE_PORT ?? 0);
const parsed: unknown = JSON.parse(body);

http
  .createServer((_req, res) => {
    // Serialise per request, as a real handler would.
    const text = JSON.stringify(parsed);
    res.writeHead(200, { "content-type": "application/json; charset=UTF-8", "content-length": Buffer.byteLength(text) });
    res.end(text);
  })
  .listen(port, "127.0.0.1", () => console.log("ready"));
