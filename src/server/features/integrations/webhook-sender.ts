import { Agent as HttpAgent, type IncomingMessage, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Socket } from "node:net";
import { Webhook } from "standardwebhooks";
import { type AddressPolicy, guardedLookup, isInternalAddress, type Resolver, urlProblem } from "./webhook-address-guard.ts";

/**
 * One webhook attempt: the event's body POSTed to the endpoint, signed as Standard Webhooks sign
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature` made by the `standardwebhooks` package,
 * one `v1,` signature per live secret, space-separated), answered within the timeout or abandoned.
 * Only the start of the answer's body is read (MAX_RESPONSE_BODY_BYTES); redirects are not followed.
 */
export const WEBHOOK_TIMEOUT_MS = 10_000;
export const MAX_RESPONSE_BODY_BYTES = 1024;
const USER_AGENT = "HKI-Global-Admin-Webhooks/1 (+https://www.standardwebhooks.com)";

export interface WebhookMessage {
  /** The event's id: `webhook-id`, the same on every attempt so the receiver can drop repeats. */
  id: string;
  /** The JSON body, byte for byte what was signed. */
  body: string;
}

export interface WebhookAttempt {
  /** The answer's HTTP status; null when none came (refused, timed out, address not allowed). */
  statusCode: number | null;
  durationMs: number;
  /** At most MAX_RESPONSE_BODY_BYTES of the answer's body. */
  responseBody: string | null;
  error: string | null;
}

/** The `webhook-signature` header: one signature per secret (the current one first, then the previous one during a rotation). */
export function signatures(secrets: readonly string[], message: WebhookMessage, at: Date): string {
  return secrets.map((secret) => new Webhook(secret).sign(message.id, at, message.body)).join(" ");
}

/**
 * The connections of one server process: kept alive per receiver, at most a few per receiver, so
 * one slow receiver holds only its own sockets; each new one resolved through the address guard.
 */
export class WebhookConnections {
  private readonly http: HttpAgent;
  private readonly https: HttpsAgent;

  constructor(
    readonly policy: AddressPolicy,
    readonly timeoutMs: number = WEBHOOK_TIMEOUT_MS,
    resolve?: Resolver,
  ) {
    const lookup = guardedLookup(policy, resolve);
    const options = { keepAlive: true, maxSockets: 16, maxFreeSockets: 4, timeout: timeoutMs, lookup };
    this.http = new HttpAgent(options);
    this.https = new HttpsAgent(options);
  }

  close(): void {
    this.http.destroy();
    this.https.destroy();
  }

  /**
   * POSTs the message to `url` signed with `secrets` at the real time of sending (the receiver
   * compares `webhook-timestamp` with its own clock). Never throws: every failure is in the answer.
   */
  async send(url: string, secrets: readonly string[], message: WebhookMessage): Promise<WebhookAttempt> {
    const started = performance.now();
    const took = () => Math.round(performance.now() - started);
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return { statusCode: null, durationMs: 0, responseBody: null, error: "The endpoint's URL is not valid" };
    }
    const problem = urlProblem(target, this.policy);
    if (problem) return { statusCode: null, durationMs: 0, responseBody: null, error: `Not sent: the URL ${problem}` };
    const body = Buffer.from(message.body, "utf8");
    const now = new Date();
    const headers = {
      "content-type": "application/json",
      "content-length": String(body.length),
      "user-agent": USER_AGENT,
      "webhook-id": message.id,
      "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
      "webhook-signature": signatures(secrets, message, now),
    };
    const https = target.protocol === "https:";
    return new Promise<WebhookAttempt>((resolve) => {
      let settled = false;
      const finish = (attempt: Omit<WebhookAttempt, "durationMs">) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...attempt, durationMs: took() });
      };
      const request = (https ? httpsRequest : httpRequest)(target, { method: "POST", headers, agent: https ? this.https : this.http }, (res) => readAnswer(res, finish));
      const timer = setTimeout(() => {
        finish({ statusCode: null, responseBody: null, error: `No answer within ${this.timeoutMs / 1000} s` });
        request.destroy();
      }, this.timeoutMs);
      request.on("socket", (socket: Socket) => {
        // The address actually connected to, whatever resolved it (an address in the URL skips the resolver).
        const check = () => {
          if (!this.policy.allowPrivate && socket.remoteAddress !== undefined && isInternalAddress(socket.remoteAddress)) {
            finish({ statusCode: null, responseBody: null, error: `Not sent: connected to ${socket.remoteAddress}, a private, loopback or link-local address` });
            request.destroy();
          }
        };
        if (socket.remoteAddress !== undefined && !socket.connecting) check();
        else socket.once("connect", check);
      });
      request.on("error", (err: NodeJS.ErrnoException) => finish({ statusCode: null, responseBody: null, error: describe(err) }));
      request.end(body);
    });
  }
}

function readAnswer(res: IncomingMessage, finish: (attempt: Omit<WebhookAttempt, "durationMs">) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const done = () => {
    const text = Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BODY_BYTES).toString("utf8").split("\u0000").join("");
    finish({ statusCode: res.statusCode ?? null, responseBody: text === "" ? null : text, error: null });
  };
  res.on("data", (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    // The rest of a long answer is not wanted: stop reading it.
    if (size >= MAX_RESPONSE_BODY_BYTES) {
      done();
      res.destroy();
    }
  });
  res.on("end", done);
  // The answer's status is known; a connection dropped while its body came is still that answer.
  res.on("error", done);
  res.on("aborted", done);
}

function describe(err: NodeJS.ErrnoException): string {
  if (err.code === "EWEBHOOKADDRESS") return `Not sent: ${err.message}`;
  if (err.code === "ECONNREFUSED") return "Connection refused";
  if (err.code === "ENOTFOUND" || err.code === "EAI_AGAIN") return "The host name did not resolve";
  if (err.code === "ECONNRESET" || err.code === "EPIPE") return "The connection was closed before an answer";
  return (err.message || String(err.code ?? "Request failed")).slice(0, 300);
}
