import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../config/config.ts";
import { TEST_PASSWORD, type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { TRUST_PROXY_OFF, addressKey, normalizeAddress, parseTrustProxy, resolveClientAddress } from "./client-address.ts";

describe("TRUST_PROXY and the client address", () => {
  it("reads off, a number of hops, or a list of addresses and CIDR ranges; refuses anything else", () => {
    for (const off of [undefined, "", "off", "false", "0", "OFF"]) expect(parseTrustProxy(off)).toEqual(TRUST_PROXY_OFF);
    expect(parseTrustProxy("2")).toEqual({ kind: "hops", hops: 2 });
    const list = parseTrustProxy("10.0.0.0/8, 192.168.1.5 ,fd00::/8");
    expect(list.kind).toBe("addresses");
    for (const bad of ["11", "10.0.0.0/33", "10.0.0.0/8/1", "proxy.example", "10.0.0.0/x", "::1/129"]) expect(() => parseTrustProxy(bad), bad).toThrow();
    expect(() => loadConfig({ TRUST_PROXY: "nonsense" })).toThrow(/^Invalid TRUST_PROXY: /);
    expect(loadConfig({ TRUST_PROXY: "1" }).trustProxy).toEqual({ kind: "hops", hops: 1 });
    expect(loadConfig({}).trustProxy).toEqual(TRUST_PROXY_OFF);
  });

  it("off: the socket's address, whatever X-Forwarded-For says", () => {
    expect(resolveClientAddress("203.0.113.1", "1.2.3.4", TRUST_PROXY_OFF)).toBe("203.0.113.1");
    expect(resolveClientAddress("::ffff:203.0.113.1", undefined, TRUST_PROXY_OFF)).toBe("203.0.113.1");
  });

  it("hops: walks X-Forwarded-For from the right, as far as the trusted hops; forged entries on the left are ignored", () => {
    const one = parseTrustProxy("1");
    expect(resolveClientAddress("10.0.0.2", "203.0.113.9", one)).toBe("203.0.113.9");
    expect(resolveClientAddress("10.0.0.2", "6.6.6.6, 203.0.113.9", one)).toBe("203.0.113.9");
    expect(resolveClientAddress("10.0.0.2", undefined, one)).toBe("10.0.0.2");
    const two = parseTrustProxy("2");
    expect(resolveClientAddress("10.0.0.2", "6.6.6.6, 203.0.113.9, 10.0.0.3", two)).toBe("203.0.113.9");
    // Fewer entries than hops: the leftmost one.
    expect(resolveClientAddress("10.0.0.2", "203.0.113.9", two)).toBe("203.0.113.9");
    // Garbage stops the walk at the last trusted hop.
    expect(resolveClientAddress("10.0.0.2", "203.0.113.9, not-an-ip", two)).toBe("10.0.0.2");
  });

  it("addresses: only hops inside the list are walked past", () => {
    const trust = parseTrustProxy("10.0.0.0/8,2001:db8::/32");
    expect(resolveClientAddress("10.1.2.3", "203.0.113.9", trust)).toBe("203.0.113.9");
    expect(resolveClientAddress("10.1.2.3", "203.0.113.9, 10.9.9.9", trust)).toBe("203.0.113.9");
    expect(resolveClientAddress("10.1.2.3", "6.6.6.6, 203.0.113.9, 10.9.9.9", trust)).toBe("203.0.113.9");
    // A socket outside the list is the client itself: its header is not believed.
    expect(resolveClientAddress("198.51.100.4", "203.0.113.9", trust)).toBe("198.51.100.4");
    expect(resolveClientAddress("2001:db8::1", "[2001:db8::2], 198.51.100.77", trust)).toBe("198.51.100.77");
  });

  it("counts IPv6 clients by their /64, and IPv4-mapped addresses as IPv4", () => {
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(addressKey("::ffff:198.51.100.4")).toBe("198.51.100.4");
    expect(addressKey("198.51.100.4")).toBe("198.51.100.4");
    expect(normalizeAddress("[fe80::1%eth0]")).toBe("fe80::1");
  });
});

describe.each(testDatabaseKinds)("the client address in rate limits and logs (%s)", (kind) => {
  let ctx: TestContext;
  afterEach(async () => {
    await ctx.close();
  });

  const fromSocket = (socket: string, path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    Promise.resolve(ctx.app.request(path, init, { incoming: { socket: { remoteAddress: socket } } }));
  const signIn = (socket: string, forwardedFor: string | undefined, password: string) =>
    fromSocket(socket, "/api/auth/sign-in", {
      method: "POST",
      headers: { "content-type": "application/json", ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}) },
      body: JSON.stringify({ email: ctx.config.adminEmail, password }),
    });
  const failTenTimes = async (socket: string, forwardedFor?: string) => {
    const auth = ctx.deps.auth;
    const real = auth.signIn!.bind(auth);
    auth.signIn = async (email, password) => (password === TEST_PASSWORD ? real(email, password) : null);
    for (let i = 0; i < 10; i++) expect((await signIn(socket, forwardedFor, `wrong-${i}`)).status).toBe(401);
  };

  it("off (default): everyone behind one proxy shares its address; a forged header changes nothing", async () => {
    ctx = await createTestContext(kind);
    await failTenTimes("10.0.0.2", "203.0.113.9");
    // A different forged client behind the same socket is the same client: locked.
    expect((await signIn("10.0.0.2", "192.0.2.200", TEST_PASSWORD)).status).toBe(429);
    const row = await ctx.database.db.selectFrom("error_logs").select("ip_address").where("status_code", "=", 429).executeTakeFirstOrThrow();
    expect(row.ip_address).toBe("10.0.0.2");
  });

  it("on: the real client behind the proxy is counted and logged, so one client's lockout is not everyone's", async () => {
    ctx = await createTestContext(kind, { env: { TRUST_PROXY: "10.0.0.0/8" } });
    await failTenTimes("10.0.0.2", "203.0.113.9");
    expect((await signIn("10.0.0.2", "203.0.113.9", TEST_PASSWORD)).status).toBe(429);
    // Another client through the same proxy signs in.
    expect((await signIn("10.0.0.2", "192.0.2.200", TEST_PASSWORD)).status).toBe(200);
    // The attacker cannot step around the lock by prepending addresses: the proxy appends the real one.
    expect((await signIn("10.0.0.2", "192.0.2.200, 203.0.113.9", TEST_PASSWORD)).status).toBe(429);
    const row = await ctx.database.db.selectFrom("error_logs").select("ip_address").where("status_code", "=", 429).executeTakeFirstOrThrow();
    expect(row.ip_address).toBe("203.0.113.9");
    const audit = await ctx.database.db.selectFrom("audit_log").select(["ip_address", "action"]).where("action", "=", "auth.sign_in").executeTakeFirstOrThrow();
    expect(audit.ip_address).toBe("192.0.2.200");
  });
});
