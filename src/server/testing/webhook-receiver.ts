import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/**
 * A storefront's webhook receiver on a loopback port, as an integrator would write one
 * (docs/integration.md "Webhooks"): it verifies every request with the `standardwebhooks` package
 * against the secrets it was given and records what came, verified or not. `answer` decides the
 * reply (status, delay, a dropped connection, a long body).
 */
export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  /** The parsed body when a secret verified it; null when none did. */
  verified: { id: string; type: string; createdAt: string; data: unknown } | null;
  /** Which of the receiver's secrets verified it (their index), each on its own. */
  verifiedBy: number[];
  at: number;
}

export type ReceiverAnswer = { status: number; body?: string; delayMs?: number } | "drop";

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Replaces the secrets it verifies with. */
  setSecrets(secrets: string[]): void;
  answer: (request: ReceivedWebhook, count: number) => ReceiverAnswer;
  close(): Promise<void>;
}

export function verifyWith(secret: string, body: string, headers: Record<string, string>): unknown {
  return new Webhook(secret).verify(body, headers);
}

export async function startWebhookReceiver(secrets: string[] = [], path = "/webhooks/hki"): Promise<WebhookReceiver> {
  let known = secrets;
  const received: ReceivedWebhook[] = [];
  const receiver: WebhookReceiver = {
    url: "",
    received,
    setSecrets: (next) => (known = next),
    answer: () => ({ status: 204 }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers[name] = value;
      const verifiedBy: number[] = [];
      let verified: ReceivedWebhook["verified"] = null;
      known.forEach((secret, i) => {
        try {
          verified = verifyWith(secret, body, headers) as ReceivedWebhook["verified"];
          verifiedBy.push(i);
        } catch {
          /* not this secret */
        }
      });
      const record: ReceivedWebhook = { headers, body, verified, verifiedBy, at: Date.now() };
      received.push(record);
      const answer = receiver.answer(record, received.length);
      if (answer === "drop") {
        req.socket.destroy();
        return;
      }
      const reply = () => {
        res.statusCode = answer.status;
        res.end(answer.body ?? "");
      };
      if (answer.delayMs) setTimeout(reply, answer.delayMs).unref();
      else reply();
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  const close = receiver.close;
  receiver.close = async () => {
    server.closeAllConnections();
    await close();
  };
  return receiver;
}
