import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startWebhookReceiver, type WebhookReceiver } from "../../testing/webhook-receiver.ts";
import { addressPolicy, isInternalAddress, type Resolver, urlProblem } from "./webhook-address-guard.ts";
import { WebhookConnections } from "./webhook-sender.ts";

const PRODUCTION = addressPolicy({ production: true, webhookAllowPrivateUrls: false });
const SECRET = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
const MESSAGE = { id: "evt_1", body: '{"id":"evt_1","type":"webhook.test","createdAt":"2026-11-22T12:00:00.000Z","data":{}}' };

/** A stand-in for DNS: each name resolves to the addresses given. */
const resolverOf =
  (names: Record<string, string[]>): Resolver =>
  (hostname, callback) => {
    const addresses = names[hostname];
    if (!addresses) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), []);
    callback(
      null,
      addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
    );
  };

describe("webhook address guard", () => {
  it.each([
    "127.0.0.1",
    "127.8.9.10",
    "10.0.0.1",
    "10.255.1.2",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "::1",
    "[::1]",
    "::",
    "fd00::1",
    "fe80::1",
    "::ffff:127.0.0.1",
    "::ffff:a9fe:a9fe",
    "64:ff9b::10.0.0.1",
    "2002:7f00:1::1",
    "224.0.0.1",
  ])("%s is internal", (address) => expect(isInternalAddress(address)).toBe(true));

  it.each(["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:93.184.216.34"])("%s is not", (address) => expect(isInternalAddress(address)).toBe(false));

  it("in production refuses plain http and addresses written in the URL; WEBHOOK_ALLOW_PRIVATE_URLS=true and development allow both", () => {
    expect(urlProblem(new URL("http://shop.example.com/hook"), PRODUCTION)).toMatch(/https/);
    for (const url of ["https://127.0.0.1/hook", "https://10.1.2.3/", "https://169.254.169.254/latest/meta-data", "https://[::1]:8443/", "https://localhost/", "https://db.internal/"]) {
      expect(urlProblem(new URL(url), PRODUCTION), url).toMatch(/private, loopback or link-local/);
    }
    expect(urlProblem(new URL("https://shop.example.com/hook"), PRODUCTION)).toBeNull();
    const allowed = addressPolicy({ production: true, webhookAllowPrivateUrls: true });
    expect(urlProblem(new URL("http://10.1.2.3/"), allowed)).toBeNull();
    expect(urlProblem(new URL("http://127.0.0.1/"), addressPolicy({ production: false, webhookAllowPrivateUrls: false }))).toBeNull();
  });

  describe("on the address actually connected to, under production settings", () => {
    let receiver: WebhookReceiver;
    let port: number;
    beforeEach(async () => {
      receiver = await startWebhookReceiver([SECRET]);
      port = Number(new URL(receiver.url).port);
    });
    afterEach(async () => {
      await receiver.close();
    });

    it.each([
      ["127.0.0.1", (p: number) => `https://127.0.0.1:${p}/hook`],
      ["10.x", () => "https://10.0.0.1/hook"],
      ["169.254.169.254", () => "https://169.254.169.254/latest/meta-data"],
      ["[::1]", (p: number) => `https://[::1]:${p}/hook`],
    ])("refuses %s without connecting", async (_name, url) => {
      const connections = new WebhookConnections(PRODUCTION, 2_000);
      try {
        const attempt = await connections.send(url(port), [SECRET], MESSAGE);
        expect(attempt).toMatchObject({ statusCode: null, error: expect.stringMatching(/^Not sent: .*private, loopback or link-local/) });
        expect(receiver.received).toHaveLength(0);
      } finally {
        connections.close();
      }
    });

    it("refuses a host name that resolves to a private address (also when one of its addresses is public), and sends nothing", async () => {
      const resolve = resolverOf({ "storefront.example.com": ["127.0.0.1"], "mixed.example.com": ["93.184.216.34", "127.0.0.1"] });
      const strict = new WebhookConnections({ ...PRODUCTION, httpsOnly: false }, 2_000, resolve);
      try {
        for (const host of ["storefront.example.com", "mixed.example.com"]) {
          const attempt = await strict.send(`http://${host}:${port}/hook`, [SECRET], MESSAGE);
          expect(attempt.statusCode, host).toBeNull();
          expect(attempt.error, host).toMatch(new RegExp(`^Not sent: ${host} resolves to 127\\.0\\.0\\.1`));
        }
        expect(receiver.received).toHaveLength(0);
      } finally {
        strict.close();
      }
      // The same name, private addresses allowed: the lookup is the one that connects.
      const open = new WebhookConnections({ allowPrivate: true, httpsOnly: false }, 2_000, resolve);
      try {
        expect((await open.send(`http://storefront.example.com:${port}/hook`, [SECRET], MESSAGE)).statusCode).toBe(204);
        expect(receiver.received).toHaveLength(1);
        expect(receiver.received[0]!.verified).toMatchObject({ id: "evt_1", type: "webhook.test" });
      } finally {
        open.close();
      }
    });
  });
});
