import { afterEach, describe, expect, it } from "vitest";
import { fixedClock } from "../clock.ts";
import { type FakeStripeServer, startFakeStripe } from "../../testing/fake-stripe-server.ts";
import { STRIPE_KEY_MISSING, StripeHealthCheck, secretPrefix, stripeHostOptions } from "./stripe-check.ts";

const KEY = "sk_test_51Abcdefghijklmnopqrstuvwxyz";

describe("StripeHealthCheck", () => {
  let fake: FakeStripeServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it("without a key makes no call and reports the missing key", async () => {
    const check = new StripeHealthCheck({ secretKey: undefined, clock: fixedClock("2026-01-01T00:00:00Z") });
    expect(await check.check()).toEqual({ works: false, error: STRIPE_KEY_MISSING, checkedAt: "2026-01-01T00:00:00.000Z" });
  });

  it("works against a server answering OK, sending the key as bearer", async () => {
    fake = await startFakeStripe("ok");
    const check = new StripeHealthCheck({ secretKey: KEY, apiBase: fake.url, clock: fixedClock("2026-01-01T00:00:00Z") });
    expect(await check.check()).toMatchObject({ works: true, error: null });
    expect(fake.requests).toEqual([{ method: "GET", path: "/v1/balance", authorization: `Bearer ${KEY}` }]);
  });

  it("reports a 401 with Stripe's message and never the key", async () => {
    fake = await startFakeStripe("unauthorized");
    const check = new StripeHealthCheck({ secretKey: KEY, apiBase: fake.url, clock: fixedClock("2026-01-01T00:00:00Z") });
    const result = await check.check();
    expect(result.works).toBe(false);
    expect(result.error).toContain("Invalid API Key provided");
    expect(result.error).toContain("401");
    expect(result.error).not.toContain(KEY);
  });

  it("gives up after the timeout", async () => {
    fake = await startFakeStripe("hang");
    const check = new StripeHealthCheck({ secretKey: KEY, apiBase: fake.url, clock: fixedClock("2026-01-01T00:00:00Z"), timeoutMs: 300 });
    const started = Date.now();
    const result = await check.check();
    const elapsed = Date.now() - started;
    expect(result.works).toBe(false);
    expect(result.error).toMatch(/Could not reach Stripe within 300 ms/);
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(2500);
    expect(fake.requests).toHaveLength(1); // no retries
  });

  it("caches the answer for the TTL and shares one call between concurrent callers", async () => {
    fake = await startFakeStripe("ok");
    const clock = fixedClock("2026-01-01T00:00:00Z");
    const check = new StripeHealthCheck({ secretKey: KEY, apiBase: fake.url, clock, ttlMs: 60_000 });
    await Promise.all([check.check(), check.check(), check.check()]);
    expect(fake.requests).toHaveLength(1);
    clock.advance(59_000);
    fake.mode = "unauthorized";
    expect((await check.check()).works).toBe(true);
    expect(fake.requests).toHaveLength(1);
    clock.advance(2_000);
    expect((await check.check()).works).toBe(false);
    expect(fake.requests).toHaveLength(2);
  });

  it("routes through an injected fetch when one is given", async () => {
    fake = await startFakeStripe("ok");
    let calls = 0;
    const fetchImpl: typeof fetch = (input, init) => {
      calls += 1;
      return fetch(input, init);
    };
    const check = new StripeHealthCheck({ secretKey: KEY, apiBase: fake.url, clock: fixedClock("2026-01-01T00:00:00Z"), fetchImpl });
    expect((await check.check()).works).toBe(true);
    expect(calls).toBe(1);
  });
});

describe("helpers", () => {
  it("secretPrefix shows at most 7 characters and a third of short secrets", () => {
    expect(secretPrefix(KEY)).toBe("sk_test");
    expect(secretPrefix("sk_live_0123456789abcdef")).toBe("sk_live");
    expect(secretPrefix("abcdef")).toBe("ab");
    expect(secretPrefix(undefined)).toBeNull();
  });

  it("stripeHostOptions splits the API base", () => {
    expect(stripeHostOptions(undefined)).toEqual({});
    expect(stripeHostOptions("http://127.0.0.1:12111")).toEqual({ host: "127.0.0.1", port: "12111", protocol: "http" });
    expect(stripeHostOptions("https://stripe.example.com")).toEqual({ host: "stripe.example.com", port: 443, protocol: "https" });
  });
});
