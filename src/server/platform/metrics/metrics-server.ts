import { type Server, createServer } from "node:http";

/**
 * The METRICS_PORT listener: `GET /metrics` and nothing else, no token (keep the port private:
 * bind it where only the scraper reaches). A second, small server, so /metrics is never part of
 * the API, its document, or the public port.
 */
export function startMetricsServer(port: number, host: string, read: () => Promise<{ body: string; contentType: string }>): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (req.method !== "GET" || path !== "/metrics") {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found\n");
      return;
    }
    read().then(
      ({ body, contentType }) => res.writeHead(200, { "Content-Type": contentType, "Cache-Control": "no-store" }).end(body),
      (err: unknown) => res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8" }).end(`metrics unavailable: ${err instanceof Error ? err.message : String(err)}\n`),
    );
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server);
    });
  });
}
