import { type BlockList, isIP } from "node:net";
import { type TrustProxy, normalizeAddress } from "../config/trust-proxy.ts";

export { TRUST_PROXY_OFF, type TrustProxy, normalizeAddress, parseTrustProxy } from "../config/trust-proxy.ts";

function isTrusted(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 4 ? "ipv4" : "ipv6");
}

/**
 * The client's address: the socket's, or with trusted proxies in front, the address the nearest
 * untrusted hop reported in `X-Forwarded-For` (read right to left, as each proxy appends the
 * address it saw). An entry that is not an address ends the walk at the last trusted hop.
 */
export function resolveClientAddress(socketAddress: string, forwardedFor: string | undefined, trust: TrustProxy): string {
  const socket = normalizeAddress(socketAddress);
  if (trust.kind === "off" || !forwardedFor || !isIP(socket)) return socket;
  const hops = forwardedFor
    .split(",")
    .map((entry) => normalizeAddress(entry))
    .filter((entry) => entry !== "")
    .reverse();
  let client = socket;
  for (let i = 0; i < hops.length; i++) {
    const stillTrusted = trust.kind === "hops" ? i < trust.hops : isTrusted(trust.list, client);
    if (!stillTrusted) break;
    const next = hops[i]!;
    if (!isIP(next)) break;
    client = next;
  }
  return client;
}

/**
 * The key an address is counted under in rate limits: IPv4 as is, IPv6 by its /64 (one machine
 * usually holds a whole /64, so counting single IPv6 addresses would hand an attacker 2^64 budgets).
 */
export function addressKey(address: string): string {
  const a = normalizeAddress(address);
  if (isIP(a) !== 6) return a;
  const groups = expandIpv6(a);
  return groups ? `${groups.slice(0, 4).join(":")}::/64` : a;
}

function expandIpv6(address: string): string[] | null {
  let text = address;
  // An embedded IPv4 tail (::1.2.3.4) becomes two groups.
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const missing = 8 - left.length - right.length;
  if (missing < 0) return null;
  const groups = text.includes("::") ? [...left, ...Array<string>(missing).fill("0"), ...right] : left;
  return groups.length === 8 ? groups.map((g) => (Number.parseInt(g, 16) || 0).toString(16)) : null;
}
