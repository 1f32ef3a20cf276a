import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

export type FakeStripeMode = "ok" | "unauthorized" | "hang";

export interface FakeTransfer {
  id: string;
  amount: number;
  currency: string;
  destination: string;
  transfer_group: string | null;
  metadata: Record<string, string>;
  idempotencyKey: string | null;
  /** Unix seconds, as Stripe gives it. */
  created: number;
  /** When it was made (ms), for `listLagMs`. */
  madeAtMs: number;
}

/**
 * What the fake does with one transfer request (a new key, or a replay of a stored one):
 * - "500-after-create": makes the transfer, answers 500 and stores that 500 under the key, so every
 *   replay answers 500 too (Stripe: "subsequent requests with the same key return the same result,
 *   including 500 errors");
 * - "500": makes nothing, answers 500 and stores it under the key;
 * - "timeout-after-create": makes the transfer (or replays the stored answer) and never answers;
 * - "hang": makes nothing and never answers (on a replay: never answers);
 * - "refuse": makes nothing and answers 400 (the account cannot receive transfers), kept under the key.
 */
export type FakeTransferFault = "500-after-create" | "500" | "timeout-after-create" | "hang" | "refuse";

/** Stripe's refusal of a transfer to an account without the transfers capability. */
export const TRANSFER_REFUSAL = "Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments";

export interface FakeRefund {
  id: string;
  amount: number;
  payment_intent: string;
  status: "succeeded" | "pending" | "failed";
  metadata: Record<string, string>;
  idempotencyKey: string | null;
  /** Unix seconds. */
  created: number;
  madeAtMs: number;
}

/** What the fake does with one refund request: as transfers (FakeTransferFault), "refuse" answering Stripe's 400 for an amount over what is left. */
export type FakeRefundFault = FakeTransferFault;

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
  /** The next N transfer requests with a new key make the transfer and answer 500, kept under the key (replays answer 500). */
  fail500AfterCreateNext: number;
  /** The next N transfer requests with a new key make nothing and answer 500, kept under the key. */
  fail500Next: number;
  /** Decides a fault per transfer request (after the counters above); null: answer normally. */
  transferFault: ((request: { destination: string; transferGroup: string | null; idempotencyKey: string | null; replay: boolean }) => FakeTransferFault | null) | null;
  /** `GET /v1/transfers` leaves out transfers made less than this many ms ago (a list lags a create). */
  listLagMs: number;
  /** `GET /v1/transfers` requests received. */
  listCalls: number;
  /** The next N `GET /v1/transfers` requests answer 500. */
  listFailNext: number;
  /**
   * Holds the answer of the next `GET /v1/transfers`: the list is taken when the request arrives (as
   * Stripe reads it) and sent only when the returned function is called (a list answered late).
   */
  holdNextList(): () => void;
  /** Refunds made (one per idempotency key: a replayed key adds none). */
  refunds: FakeRefund[];
  /** Every refund request received, replays included. */
  refundCalls: number;
  /** What each payment intent charged: a refund beyond what is left of it is refused (400), as Stripe does. Unknown intents: any amount. */
  paymentIntents: Map<string, number>;
  /** Decides a fault per refund request; null: answer normally. */
  refundFault: ((request: { paymentIntent: string; idempotencyKey: string | null; replay: boolean; metadata: Record<string, string> }) => FakeRefundFault | null) | null;
  /** The status a new refund is made with (default succeeded). */
  refundStatus: FakeRefund["status"];
  /** `GET /v1/refunds` requests received. */
  refundListCalls: number;
  /** The next N `GET /v1/refunds` requests answer 500. */
  refundListFailNext: number;
  /** Sum of the refunds of one payment intent that did not fail. */
  refundedOf(paymentIntent: string): number;
  /**
   * Sends Stripe's `charge.dispute.{type}` event for `dispute` (a dispute object, as
   * provider-webhooks.ts `stripeDispute` makes it), signed with `secret` as Stripe signs it, to
   * `to`: a panel's webhook URL, or a function delivering the body and headers (an in-process app).
   */
  sendDisputeEvent(
    to: string | ((payload: string, headers: Record<string, string>) => Promise<Response>),
    secret: string,
    type: "created" | "updated" | "closed",
    dispute: Record<string, unknown>,
    at: string,
  ): Promise<Response>;
  /** Delay before each answer, ms. */
  latencyMs: number;
  /** The time (ms) a transfer is stamped `created` with: a test's clock, so `created[gte]` agrees with it (the list's lag stays in real time). */
  now: () => number;
  /** Sum of transfers to a destination (what a connected account received). */
  paidTo(destination: string): number;
  close(): Promise<void>;
}

interface StoredAnswer {
  params: string;
  status: number;
  body: string;
}

/** A transfer as Stripe answers it. */
function transferObject(t: FakeTransfer) {
  return {
    id: t.id,
    object: "transfer",
    livemode: false,
    reversed: false,
    amount: t.amount,
    amount_reversed: 0,
    currency: t.currency,
    destination: t.destination,
    transfer_group: t.transfer_group,
    metadata: t.metadata,
    created: t.created,
  };
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
 * again answers the stored result, as Stripe does, a stored 500 included), connected accounts,
 * refused destinations, 429 rate limits, requests that time out before or after the transfer was
 * made, 500s after making it, and `GET /v1/transfers` filtered by `transfer_group`,
 * `destination` and `created[gte]`, newest first, in pages (`limit`, `starting_after`, `has_more`);
 * refunds on payment intents as the panel makes them: idempotent replays (a stored 500 included),
 * 500s after making the refund, timeouts before or after it, refusals beyond what is left of the
 * payment, and `GET /v1/refunds?payment_intent=` newest first.
 */
export async function startFakeStripe(mode: FakeStripeMode = "ok"): Promise<FakeStripeServer> {
  const pending = new Set<ServerResponse>();
  const answers = new Map<string, StoredAnswer>();
  let nextTransfer = 1;
  let nextEvent = 0;
  const listGates: Array<Promise<void>> = [];
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
    fail500AfterCreateNext: 0,
    fail500Next: 0,
    transferFault: null,
    listLagMs: 0,
    listCalls: 0,
    listFailNext: 0,
    holdNextList: () => {
      let release: () => void = () => undefined;
      listGates.push(new Promise<void>((resolve) => (release = resolve)));
      return release;
    },
    refunds: [],
    refundCalls: 0,
    paymentIntents: new Map(),
    refundFault: null,
    refundStatus: "succeeded",
    refundListCalls: 0,
    refundListFailNext: 0,
    sendDisputeEvent: (to, secret, type, dispute, at) => {
      const event = {
        id: `evt_fake${String(++nextEvent).padStart(8, "0")}`,
        object: "event",
        api_version: "2025-10-29.clover",
        created: Math.floor(Date.parse(at) / 1000),
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type: `charge.dispute.${type}`,
        data: { object: dispute },
      };
      const payload = JSON.stringify(event);
      const headers = { "content-type": "application/json; charset=utf-8", "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
      return typeof to === "string" ? fetch(to, { method: "POST", headers, body: payload }) : to(payload, headers);
    },
    refundedOf: (pi) => state.refunds.filter((r) => r.payment_intent === pi && r.status !== "failed").reduce((sum, r) => sum + r.amount, 0),
    latencyMs: 0,
    now: () => Date.now(),
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
    const destination = fields.destination ?? "";
    const stored = idempotencyKey ? answers.get(idempotencyKey) : undefined;
    const fault = state.transferFault?.({ destination, transferGroup: fields.transfer_group ?? null, idempotencyKey, replay: stored !== undefined }) ?? null;
    if (stored) {
      if (stored.params !== params) {
        return error(
          400,
          "idempotency_error",
          `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
        );
      }
      res.setHeader("idempotent-replayed", "true");
      if (state.timeoutAfterCreateNext > 0 || fault === "timeout-after-create" || fault === "hang") {
        if (fault !== "timeout-after-create" && fault !== "hang") state.timeoutAfterCreateNext -= 1;
        hold(res);
        return null;
      }
      return { status: stored.status, body: stored.body };
    }
    const serverError = () => error(500, "api_error", "An unknown error occurred while processing your request. Please try again later.");
    let answer: { status: number; body: string };
    let kind: FakeTransferFault | null = fault;
    if (kind === "hang") {
      hold(res);
      return null;
    }
    if (state.fail500AfterCreateNext > 0) {
      state.fail500AfterCreateNext -= 1;
      kind = "500-after-create";
    } else if (state.fail500Next > 0) {
      state.fail500Next -= 1;
      kind = "500";
    }
    const refusal = state.failDestinations.get(destination);
    if (!fields.amount || !/^\d+$/.test(fields.amount)) answer = error(400, "invalid_request_error", "Missing required param: amount.");
    else if (kind === "500") answer = serverError();
    else if (kind === "refuse") answer = error(400, "invalid_request_error", TRANSFER_REFUSAL);
    else if (refusal) answer = error(400, "invalid_request_error", refusal);
    else {
      const madeAtMs = Date.now();
      const t: FakeTransfer = {
        id: `tr_fake${String(nextTransfer++).padStart(8, "0")}`,
        amount: Number(fields.amount),
        currency: fields.currency ?? "usd",
        destination,
        transfer_group: fields.transfer_group ?? null,
        metadata,
        idempotencyKey,
        created: Math.floor(state.now() / 1000),
        madeAtMs,
      };
      state.transfers.push(t);
      answer = kind === "500-after-create" ? serverError() : { status: 200, body: JSON.stringify(transferObject(t)) };
    }
    if (idempotencyKey) answers.set(idempotencyKey, { params, ...answer });
    if (state.timeoutAfterCreateNext > 0 || kind === "timeout-after-create") {
      if (kind !== "timeout-after-create") state.timeoutAfterCreateNext -= 1;
      hold(res);
      return null;
    }
    return answer;
  };

  /** `GET /v1/transfers?transfer_group=&destination=&created[gte]=&limit=&starting_after=`: newest first, as Stripe lists. */
  const listTransfers = (query: URLSearchParams): { status: number; body: string } => {
    state.listCalls += 1;
    if (state.listFailNext > 0) {
      state.listFailNext -= 1;
      return error(500, "api_error", "An unknown error occurred while processing your request. Please try again later.");
    }
    const group = query.get("transfer_group");
    const destination = query.get("destination");
    const createdGte = query.has("created[gte]") ? Number(query.get("created[gte]")) : null;
    const limit = Math.min(100, Math.max(1, Number(query.get("limit") ?? 10) || 10));
    const startingAfter = query.get("starting_after");
    const visibleBefore = Date.now() - state.listLagMs;
    let list = state.transfers
      .filter(
        (t) =>
          (group === null || t.transfer_group === group) && (destination === null || t.destination === destination) && (createdGte === null || t.created >= createdGte) && t.madeAtMs <= visibleBefore,
      )
      .reverse();
    if (startingAfter) {
      const at = list.findIndex((t) => t.id === startingAfter);
      if (at < 0) return error(400, "invalid_request_error", `No such transfer: '${startingAfter}'`, "resource_missing");
      list = list.slice(at + 1);
    }
    const page = list.slice(0, limit);
    return { status: 200, body: JSON.stringify({ object: "list", url: "/v1/transfers", has_more: list.length > limit, data: page.map(transferObject) }) };
  };

  let nextRefund = 1;
  const refundObject = (r: FakeRefund) => ({
    id: r.id,
    object: "refund",
    amount: r.amount,
    currency: "usd",
    payment_intent: r.payment_intent,
    status: r.status,
    metadata: r.metadata,
    created: r.created,
    failure_reason: r.status === "failed" ? "unknown" : null,
  });

  /** `POST /v1/refunds`: one refund per idempotency key (a replay answers what was stored, a 500 included), refused beyond what is left of the payment. */
  const refund = (body: string, idempotencyKey: string | null, res: ServerResponse): { status: number; body: string } | null => {
    state.refundCalls += 1;
    const { fields, metadata } = parseForm(body);
    const params = JSON.stringify([fields, metadata]);
    const paymentIntent = fields.payment_intent ?? "";
    const stored = idempotencyKey ? answers.get(`refund:${idempotencyKey}`) : undefined;
    const fault = state.refundFault?.({ paymentIntent, idempotencyKey, replay: stored !== undefined, metadata }) ?? null;
    if (fault === "hang") {
      hold(res);
      return null;
    }
    if (stored) {
      if (stored.params !== params) return error(400, "idempotency_error", `Keys for idempotent requests can only be used with the same parameters they were first used with.`);
      res.setHeader("idempotent-replayed", "true");
      if (fault === "timeout-after-create") {
        hold(res);
        return null;
      }
      return { status: stored.status, body: stored.body };
    }
    const charged = state.paymentIntents.get(paymentIntent);
    const amount = Number(fields.amount);
    let answer: { status: number; body: string };
    if (!paymentIntent) answer = error(400, "invalid_request_error", "Missing required param: payment_intent.");
    else if (!fields.amount || !/^\d+$/.test(fields.amount) || amount <= 0) answer = error(400, "invalid_request_error", "Invalid positive integer: amount.");
    else if (fault === "500") answer = error(500, "api_error", "An unknown error occurred while processing your request. Please try again later.");
    else if (fault === "refuse" || (charged !== undefined && amount > charged - state.refundedOf(paymentIntent))) {
      const left = charged === undefined ? 0 : charged - state.refundedOf(paymentIntent);
      answer = error(400, "invalid_request_error", `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`, "amount_too_large");
    } else {
      const r: FakeRefund = {
        id: `re_fake${String(nextRefund++).padStart(8, "0")}`,
        amount,
        payment_intent: paymentIntent,
        status: state.refundStatus,
        metadata,
        idempotencyKey,
        created: Math.floor(state.now() / 1000),
        madeAtMs: Date.now(),
      };
      state.refunds.push(r);
      answer =
        fault === "500-after-create"
          ? error(500, "api_error", "An unknown error occurred while processing your request. Please try again later.")
          : { status: 200, body: JSON.stringify(refundObject(r)) };
    }
    if (idempotencyKey) answers.set(`refund:${idempotencyKey}`, { params, ...answer });
    if (fault === "timeout-after-create") {
      hold(res);
      return null;
    }
    return answer;
  };

  /** `GET /v1/refunds?payment_intent=&limit=&starting_after=`: newest first, as Stripe lists; `listLagMs` applies. */
  const listRefunds = (query: URLSearchParams): { status: number; body: string } => {
    state.refundListCalls += 1;
    if (state.refundListFailNext > 0) {
      state.refundListFailNext -= 1;
      return error(500, "api_error", "An unknown error occurred while processing your request. Please try again later.");
    }
    const paymentIntent = query.get("payment_intent");
    const limit = Math.min(100, Math.max(1, Number(query.get("limit") ?? 10) || 10));
    const startingAfter = query.get("starting_after");
    const visibleBefore = Date.now() - state.listLagMs;
    let list = state.refunds.filter((r) => (paymentIntent === null || r.payment_intent === paymentIntent) && r.madeAtMs <= visibleBefore).reverse();
    if (startingAfter) {
      const at = list.findIndex((r) => r.id === startingAfter);
      if (at < 0) return error(400, "invalid_request_error", `No such refund: '${startingAfter}'`, "resource_missing");
      list = list.slice(at + 1);
    }
    return { status: 200, body: JSON.stringify({ object: "list", url: "/v1/refunds", has_more: list.length > limit, data: list.slice(0, limit).map(refundObject) }) };
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
        const [path = "", search = ""] = (req.url ?? "").split("?");
        let answer: { status: number; body: string } | null;
        if (path === "/v1/balance") {
          answer = { status: 200, body: JSON.stringify({ object: "balance", available: [{ amount: 0, currency: "usd" }], pending: [], livemode: false }) };
        } else if (path === "/v1/transfers" && req.method === "GET") {
          answer = listTransfers(new URLSearchParams(search));
        } else if (path === "/v1/transfers" && req.method === "POST") {
          const key = req.headers["idempotency-key"];
          answer = transfer(Buffer.concat(chunks).toString("utf8"), typeof key === "string" ? key : null, res);
        } else if (path === "/v1/refunds" && req.method === "GET") {
          answer = listRefunds(new URLSearchParams(search));
        } else if (path === "/v1/refunds" && req.method === "POST") {
          const key = req.headers["idempotency-key"];
          answer = refund(Buffer.concat(chunks).toString("utf8"), typeof key === "string" ? key : null, res);
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
        const send = (a: { status: number; body: string }) => {
          res.statusCode = a.status;
          res.end(a.body);
        };
        const gate = path === "/v1/transfers" && req.method === "GET" ? listGates.shift() : undefined;
        if (!gate) return send(answer);
        const held = answer;
        pending.add(res);
        void gate.then(() => {
          pending.delete(res);
          send(held);
        });
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
