import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordAnswer, startBareServer } from "./load.ts";

/** A stand-in for the panel's dashboard: a JSON answer under the headers every panel answer carries. */
const PANEL_HEADERS = {
  "Content-Type": "application/json",
  "X-Request-Id": "first-answer",
  "Cache-Control": "no-store",
  "content-security-policy": "default-src 'self'; frame-ancestors 'none'",
  "strict-transport-security": "max-age=31536000; includeSubDomains",
  "x-frame-options": "DENY",
};
const BODY = JSON.stringify({ totalVendors: 5000, totalRevenueCents: 123456789, name: "Noor's Metalwork" });

function get(url: string): Promise<{ body: string; headers: http.IncomingHttpHeaders; rawHeaders: string[] }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ body: Buffer.concat(chunks).toString("utf8"), headers: res.headers, rawHeaders: res.rawHeaders }));
      })
      .on("error", reject);
  });
}

describe("the bench's bare node:http server (docs/decisions/0025)", () => {
  let panel: http.Server;
  let panelUrl: string;
  beforeAll(async () => {
    panel = http.createServer((req, res) => {
      if (req.headers.authorization !== "Bearer t") return void res.writeHead(401).end();
      res.writeHead(200, { ...PANEL_HEADERS, "Content-Length": Buffer.byteLength(BODY) }).end(BODY);
    });
    await new Promise<void>((r) => panel.listen(0, "127.0.0.1", r));
    panelUrl = `http://127.0.0.1:${(panel.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => panel.close(() => r())));

  it("sends the recorded answer: the same body and headers, a fresh request id each time", async () => {
    const answer = await recordAnswer(panelUrl, "/api/admin/dashboard/stats", "t");
    expect(answer.headers).toEqual(PANEL_HEADERS);
    const bare = await startBareServer(answer);
    try {
      const [first, second] = [await get(bare.baseUrl), await get(bare.baseUrl)];
      expect(first.body).toBe(BODY);
      expect(Number(first.headers["content-length"])).toBe(Buffer.byteLength(BODY));
      for (const [name, value] of Object.entries(PANEL_HEADERS)) {
        if (name === "X-Request-Id") continue;
        expect(first.headers[name.toLowerCase()], name).toBe(value);
      }
      // The names go out as the panel wrote them, so the answers are the same size.
      for (const name of Object.keys(PANEL_HEADERS)) expect(first.rawHeaders).toContain(name);
      expect(first.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(second.headers["x-request-id"]).not.toBe(first.headers["x-request-id"]);
    } finally {
      await bare.stop();
    }
  });

  it("refuses to record an answer that is not a success", async () => {
    await expect(recordAnswer(panelUrl, "/api/admin/dashboard/stats", "wrong")).rejects.toThrow(/answered 401/);
  });
});
