import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";

export type FakeStripeMode = "ok" | "unauthorized" | "hang";

export interface FakeTransfer {
  id: string;
  amount: number;
  currency: string;
  destination: string;
  transfer_group: string | null;
  metadata: Record<string, string>;
  idempotencyKey: string | null;
}

export interface FakeAccount {
  id: string;
  charges_enabled: boolean;
  payouts_enabled: boolean;
  details_submitted: boolean;
  requirements: { currently_due: string[]; past_due: string[]; disabled_reason: string | null };
}

export interface FakeStripeServer {
  /** e.g. "http://127.0.0.1:54321", for STRIPE_API_BASE. */
  url: string;
  mode: FakeStripeMode;
  /** Requests received, with the bearer key each carried. */
  requests: Array<{ method: string; path: string; authorization: string | undefined }>;
  /** Transfers made (one per idempotency key: a replayed key adds none). */
  transfers: FakeTransfer[];
  /** Every transfer request received, replays and refusals included. */
  transferCalls: number;
  /** Connected accounts `GET /v1/accounts/{id}` knows. */
  accounts: Map<string, FakeAccount>;
  /** Transfers to these destinations are refused (400) with the message given. */
  failDestinations: Map<string, string>;
  /** The next N transfer requests answer 429 (nothing stored, as Stripe does). */
  rateLimitNext: number;
  /** The next N transfer requests are carried out (a replayed key answers as before) but never answered: the client times out. */
  timeoutAfterCreateNext: number;
  /** The next N transfer requests never answer and make nothing. */
  hangNext: number;
  /** Delay before each answer, ms. */
  latencyMs: number;
  /** Sum of transfers to a destination (what a connected account received). */
  paidTo(destination: string): number;
  close(): Promise<void>;
}

interface StoredAnswer {
  params: string;
  status: number;
  body: string;
}

function parseForm(text: string): { fields: Record<string, string>; metadata: Record<string, string> } {
  const fields: Record<string, string> = {};
  const metadata: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const m = /^metadata\[(.+)\]$/.exec(key);
    if (m) metadata[m[1]!] = value;
    else fields[key] = value;
  }
  return { fields, metadata };
}

/**
 * A local stand-in for api.stripe.com for tests: the balance read (success, the 401 of a bad key,
 * or no answer), and Stripe Connect as payouts use it: transfers with idempotency keys (a key used
 * again answers the stored result, as Stripe does), connected accounts, refused destinations, 429
 * rate limits and requests that time out before or after the transfer was made.
 */
export async function startFakeStripe(mode: FakeStripeMode = "ok"): Promise<FakeStripeServer> {
  const pending = new Set<ServerResponse>();
  const answers = new Map<string, StoredAnswer>();
  let nextTransfer = 1;
  const state: FakeStripeServer = {
    url: "",
    mode,
    requests: [],
    transfers: [],
    transferCalls: 0,
    accounts: new Map(),
    failDestinations: new Map(),
    rateLimitNext: 0,
    timeoutAfterCreateNext: 0,
    hangNext: 0,
    latencyMs: 0,
    paidTo: (destination) => state.transfers.filter((t) => t.destination === destination).reduce((s, t) => s + t.amount, 0),
    close: async () => undefined,
  };
  const hold = (res: ServerResponse) => {
    pending.add(res);
    res.on("close", () => pending.delete(res));
  };
  const error = (status: number, type: string, message: string, code?: string) => ({ status, body: JSON.stringify({ error: { type, message, ...(code ? { code } : {}) } }) });

  const transfer = (body: string, idempotencyKey: string | null, res: ServerResponse): { status: number; body: string } | null => {
    state.transferCalls += 1;
    if (state.rateLimitNext > 0) {
      state.rateLimitNext -= 1;
      res.setHeader("retry-after", "0");
      return error(429, "invalid_request_error", "Request rate limit exceeded. Learn more about rate limits here https://stripe.com/docs/rate-limits.", "rate_limit");
    }
    if (state.hangNext > 0) {
      state.hangNext -= 1;
      hold(res);
      return null;
    }
    const { fields, metadata } = parseForm(body);
    const params = JSON.stringify([fields, metadata]);
    if (idempotencyKey) {
      const stored = answers.get(idempotencyKey);
      if (stored) {
        if (stored.params !== params) {
          return error(400, "idempotency_error", `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`);
        }
        res.setHeader("idempotent-replayed", "true");
        if (state.timeoutAfterCreateNext > 0) {
          state.timeoutAfterCreateNext -= 1;
          hold(res);
          return null;
        }
        return { status: stored.status, body: stored.body };
      }
    }
    let answer: { status: number; body: string };
    const destination = fields.destination ?? "";
    const refusal = state.failDestinations.get(destination);
    if (!fields.amount || !/^\d+$/.test(fields.amount)) answer = error(400, "invalid_request_error", "Missing required param: amount.");
    else if (refusal) answer = error(400, "invalid_request_error", refusal);
    else {
      const t: FakeTransfer = {
        id: `tr_fake${String(nextTransfer++).padStart(8, "0")}`,
        amount: Number(fields.amount),
        currency: fields.currency ?? "usd",
        destination,
        transfer_group: fields.transfer_group ?? null,
        metadata,
        idempotencyKey,
      };
      state.transfers.push(t);
      answer = { status: 200, body: JSON.stringify({ object: "transfer", livemode: false, reversed: false, ...t }) };
    }
    if (idempotencyKey) answers.set(idempotencyKey, { params, ...answer });
    if (state.timeoutAfterCreateNext > 0) {
      state.timeoutAfterCreateNext -= 1;
      hold(res);
      return null;
    }
    return answer;
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    state.requests.push({ method: req.method ?? "", path: req.url ?? "", authorization: req.headers.authorization });
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const respond = () => {
        res.setHeader("content-type", "application/json");
        if (state.mode === "hang") {
          hold(res);
          return;
        }
        if (state.mode === "unauthorized") {
          res.statusCode = 401;
          res.end(JSON.stringify({ error: { message: "Invalid API Key provided: sk_test_****wxyz", type: "invalid_request_error" } }));
          return;
        }
        const path = (req.url ?? "").split("?")[0] ?? "";
        let answer: { status: number; body: string } | null;
        if (path === "/v1/balance") {
          answer = { status: 200, body: JSON.stringify({ object: "balance", available: [{ amount: 0, currency: "usd" }], pending: [], livemode: false }) };
        } else if (path === "/v1/transfers" && req.method === "POST") {
          const key = req.headers["idempotency-key"];
          answer = transfer(Buffer.concat(chunks).toString("utf8"), typeof key === "string" ? key : null, res);
        } else if (path.startsWith("/v1/accounts/") && req.method === "GET") {
          const id = decodeURIComponent(path.slice("/v1/accounts/".length));
          const account = state.accounts.get(id);
          answer = account
            ? { status: 200, body: JSON.stringify({ object: "account", type: "express", ...account }) }
            : error(404, "invalid_request_error", `No such account: '${id}'`, "resource_missing");
        } else {
          answer = error(404, "invalid_request_error", `Unrecognized request URL (${req.method} ${req.url})`);
        }
        if (!answer) return;
        res.statusCode = answer.status;
        res.end(answer.body);
      };
      if (state.latencyMs > 0) setTimeout(respond, state.latencyMs);
      else respond();
    });
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
