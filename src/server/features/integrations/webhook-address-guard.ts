import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { BlockList, isIP } from "node:net";
import type { AppConfig } from "../../platform/config/config.ts";

/**
 * Where webhooks may go (docs/integration.md "Webhooks"). In production a webhook never reaches a
 * private, loopback, link-local or otherwise internal address (the cloud's metadata service at
 * 169.254.169.254, the database next door), and goes over https only, unless
 * WEBHOOK_ALLOW_PRIVATE_URLS=true. The check is made on the address each connection actually goes
 * to: the resolver of the sender's connections refuses a name that resolves to such an address
 * (so a name that resolved to a public address when the endpoint was added and to a private one
 * later is still refused), an address written in the URL is checked before connecting, and the
 * connected socket's remote address is checked again.
 */
export interface AddressPolicy {
  allowPrivate: boolean;
  httpsOnly: boolean;
}

export function addressPolicy(config: Pick<AppConfig, "production" | "webhookAllowPrivateUrls">): AddressPolicy {
  const strict = config.production && !config.webhookAllowPrivateUrls;
  return { allowPrivate: !strict, httpsOnly: strict };
}

const internal = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  internal.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
  ["2001:db8::", 32], // documentation
] as const) {
  internal.addSubnet(network, prefix, "ipv6");
}

/** An IPv4 address carried inside an IPv6 one (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16), or null. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:(?:0:)?|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  const hex = /^(?:::ffff:(?:0:)?|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  const sixToFour = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4}):/.exec(lower);
  const parts = hex ?? sixToFour;
  if (!parts) return null;
  const high = parseInt(parts[1]!, 16);
  const low = parseInt(parts[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/** True for an address no webhook may reach in production: private, loopback, link-local, multicast, reserved. */
export function isInternalAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = isIP(bare);
  if (family === 4) return internal.check(bare, "ipv4");
  if (family === 6) {
    const v4 = embeddedIpv4(bare);
    return internal.check(bare, "ipv6") || (v4 !== null && internal.check(v4, "ipv4"));
  }
  // Not an address at all: refuse rather than guess.
  return true;
}

/** Why a URL may not be used under `policy` (for the API's 400 and the sender), or null when it may. */
export function urlProblem(url: URL, policy: AddressPolicy): string | null {
  if (policy.httpsOnly && url.protocol !== "https:") return "must be https (NODE_ENV=production)";
  if (policy.allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) !== 0 && isInternalAddress(host)) return "must not point at a private, loopback or link-local address";
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal") || host.endsWith(".local")) return "must not point at a private, loopback or link-local address";
  return null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
/** Resolves a name to all its addresses (node's dns.lookup with `all`; tests give their own). */
export type Resolver = (hostname: string, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

const systemResolver: Resolver = (hostname, callback) => dnsLookup(hostname, { all: true }, callback);

/**
 * A resolver for the sender's connections (node's `lookup` option): resolves as node does and
 * refuses the name when any of its addresses is internal (a name with one public and one private
 * address could be made to connect to the private one).
 */
export function guardedLookup(policy: AddressPolicy, resolve: Resolver = systemResolver) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, (err, addresses) => {
      if (err) return callback(err, []);
      const wanted = options.family === 4 || options.family === 6 ? options.family : null;
      const list = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
      if (!policy.allowPrivate) {
        const bad = list.find((a) => isInternalAddress(a.address));
        if (bad) {
          const refused: NodeJS.ErrnoException = new Error(`${hostname} resolves to ${bad.address}, a private, loopback or link-local address`);
          refused.code = "EWEBHOOKADDRESS";
          return callback(refused, []);
        }
      }
      if (options.all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
      callback(null, first.address, first.family);
    });
  };
}
