import { BlockList, isIP } from "node:net";

/**
 * Which proxies in front of the server may tell us the client's address (`TRUST_PROXY`,
 * docs/product.md §13): none (the socket's address is the client, forged X-Forwarded-For headers
 * are ignored), a number of hops, or a list of proxy addresses and CIDR ranges.
 */
export type TrustProxy = { kind: "off" } | { kind: "hops"; hops: number } | { kind: "addresses"; list: BlockList; text: string };

export const TRUST_PROXY_OFF: TrustProxy = { kind: "off" };

/** At most this many hops are trusted by count: more is a configuration mistake, not a network. */
const MAX_HOPS = 10;

/**
 * Reads `TRUST_PROXY`: unset, `off`, `false` or `0` → off; a whole number 1–10 → that many hops;
 * otherwise a comma-separated list of addresses or CIDR ranges (IPv4 or IPv6). Throws a message
 * naming the bad part.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = (value ?? "").trim();
  if (text === "" || /^(off|false|0|no)$/i.test(text)) return TRUST_PROXY_OFF;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops < 1 || hops > MAX_HOPS) throw new Error(`must be off, 1–${MAX_HOPS} hops, or a list of addresses/CIDR ranges`);
    return { kind: "hops", hops };
  }
  const list = new BlockList();
  for (const part of text
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [address, prefixText, extra] = part.split("/");
    const normal = address ? normalizeAddress(address) : "";
    const family = isIP(normal);
    if (!family || extra !== undefined) throw new Error(`"${part}" is not an address or CIDR range`);
    const type = family === 4 ? "ipv4" : "ipv6";
    if (prefixText === undefined) {
      list.addAddress(normal, type);
      continue;
    }
    const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : -1;
    if (prefix < 0 || prefix > (family === 4 ? 32 : 128)) throw new Error(`"${part}" has a bad prefix length`);
    list.addSubnet(normal, prefix, type);
  }
  return { kind: "addresses", list, text };
}

/** `::ffff:1.2.3.4` (an IPv4 client on a dual-stack socket) is `1.2.3.4`; brackets and zone ids go. */
export function normalizeAddress(address: string): string {
  let a = address.trim();
  if (a.startsWith("[") && a.includes("]")) a = a.slice(1, a.indexOf("]"));
  const zone = a.indexOf("%");
  if (zone >= 0) a = a.slice(0, zone);
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(a);
  if (mapped) return mapped[1]!;
  return a.toLowerCase();
}
