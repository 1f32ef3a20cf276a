import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";

export type FakeStripeMode = "ok" | "unauthorized" | "hang";

export interface FakeStripeServer {
  /** e.g. "http://127.0.0.1:54321", for STRIPE_API_BASE. */
  url: string;
  mode: FakeStripeMode;
  /** Requests received, with the bearer key each carried. */
  requests: Array<{ method: string; path: string; authorization: string | undefined }>;
  close(): Promise<void>;
}

/**
 * A local stand-in for api.stripe.com for tests: answers the balance read with success, with the
 * 401 Stripe gives for a bad key, or never (to exercise the timeout).
 */
export async function startFakeStripe(mode: FakeStripeMode = "ok"): Promise<FakeStripeServer> {
  const pending = new Set<ServerResponse>();
  const state: FakeStripeServer = { url: "", mode, requests: [], close: async () => undefined };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    state.requests.push({ method: req.method ?? "", path: req.url ?? "", authorization: req.headers.authorization });
    res.setHeader("content-type", "application/json");
    if (state.mode === "hang") {
      pending.add(res);
      return;
    }
    if (state.mode === "unauthorized") {
      res.statusCode = 401;
      res.end(JSON.stringify({ error: { message: "Invalid API Key provided: sk_test_****wxyz", type: "invalid_request_error" } }));
      return;
    }
    if (req.url?.startsWith("/v1/balance")) {
      res.end(JSON.stringify({ object: "balance", available: [{ amount: 0, currency: "usd" }], pending: [], livemode: false }));
      return;
    }
    res.statusCode = 404;
    res.end(JSON.stringify({ error: { message: `Unrecognized request URL (${req.method} ${req.url})`, type: "invalid_request_error" } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const res of pending) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
