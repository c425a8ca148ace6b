import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/*
 * The egress policy (docs/decisions.md "Egress"): every address a tenant supplies (a client app's issuer and
 * jwks_uri, an SFTP server) is resolved and must land only on public unicast addresses. Checked when it is saved and
 * again right before each connection (DNS may change between), and the connection is made to the address checked.
 */

/** The one answer a refused address gets, at save and at connect time. */
export const PUBLIC_ADDRESS_MESSAGE = 'Must be a public address reachable from the internet';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (node:dns lookup with all: true in production). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export type EgressVerdict = { allowed: true; address: string; family: 4 | 6 } | { allowed: false; reason: string };

/** Never a destination: loopback, link-local (the instance metadata address), private, CGNAT, unique-local, multicast, unspecified, reserved. */
const REFUSED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 reaches the local host
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, 169.254.169.254 metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
] as const) {
  REFUSED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible form
  ['64:ff9b::', 96], // NAT64 carries an IPv4 address the gateway would reach
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['2002::', 16], // 6to4 embeds an IPv4 address
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10],
  ['ff00::', 8], // multicast
] as const) {
  REFUSED.addSubnet(network, prefix, 'ipv6');
}

/**
 * The address a host names when it is written as one, in any notation a resolver or URL parser accepts: dotted,
 * decimal (`2130706433`), hex (`0x7f.1`), octal (`0177.0.0.1`), short (`127.1`), bracketed IPv6 (`[::1]`). The WHATWG
 * URL parser applies exactly the IPv4 rules inet_aton does, so what it reads as an address is what a connection
 * would reach. `undefined` when the host is a name.
 */
export function literalAddress(host: string): ResolvedAddress | undefined {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIP(bare) === 6) return { address: bare.toLowerCase(), family: 6 };
  if (isIP(bare) === 4) return { address: bare, family: 4 };
  let parsed: string;
  try {
    parsed = new URL(`http://${bare.includes(':') ? `[${bare}]` : bare}/`).hostname;
  } catch {
    return undefined;
  }
  if (isIP(parsed) === 4) return { address: parsed, family: 4 };
  const unbracketed = parsed.replace(/^\[|\]$/g, '');
  if (isIP(unbracketed) === 6) return { address: unbracketed, family: 6 };
  return undefined;
}

/** True for an address a tenant may point the platform at (IPv4-mapped IPv6 is judged by its IPv4 address). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (REFUSED.check(address, type)) return false;
  if (type === 'ipv6') {
    // BlockList judges ::ffff:a.b.c.d against the IPv4 rules; anything else outside 2000::/3 is not global unicast.
    const first = Number.parseInt(address.split(':')[0] || '0', 16);
    const mapped = /^::ffff:/i.test(address);
    if (!mapped && (first & 0xe000) !== 0x2000) return false;
  }
  return true;
}

/**
 * The local stand-ins' exceptions: `host:port` entries (`127.0.0.1:2222`, `[::1]:8443`), each an address and a port
 * exactly, or `address:*` for one address on any port (the integration tests' own tenant stand-ins, on an address
 * nothing else listens on). Read from EGRESS_ALLOW, a local-only variable; empty (nothing excepted) in AWS.
 */
export interface EgressAllowList {
  allows(address: string, port: number): boolean;
}

export function egressAllowList(entries: readonly string[]): EgressAllowList {
  const allowed = new Set<string>();
  for (const entry of entries) {
    const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5}|\*)$/.exec(entry.trim());
    const literal = match ? literalAddress(match[1] ?? '') : undefined;
    if (match && literal) allowed.add(`${literal.address}|${match[2] === '*' ? '*' : Number(match[2])}`);
  }
  const key = (address: string, port: number | '*') => `${address.toLowerCase()}|${port}`;
  return { allows: (address, port) => allowed.has(key(address, port)) || allowed.has(key(address, '*')) };
}

export const NOTHING_ALLOWED: EgressAllowList = egressAllowList([]);

const LOOKUP_TIMEOUT_MS = 5_000;

/** node:dns lookup with all: true, bounded so a slow resolver fails the check instead of hanging the request. */
export const dnsResolver: HostResolver = async (hostname) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`lookup of ${hostname} timed out`)), LOOKUP_TIMEOUT_MS);
  });
  try {
    const answers = await Promise.race([lookup(hostname, { all: true, verbatim: true }), timeout]);
    return answers.filter((answer) => answer.family === 4 || answer.family === 6).map(({ address, family }) => ({ address, family: family as 4 | 6 }));
  } finally {
    clearTimeout(timer);
  }
};

export interface EgressCheck {
  resolve: HostResolver;
  allowList: EgressAllowList;
}

/**
 * Resolves `host` and decides whether a connection to it on `port` is allowed: every address it resolves to must be
 * public (or excepted for this port by the local allow-list), since a name answering with one private address among
 * public ones would let the resolver choose where we go. The verdict names the checked address to connect to.
 * A name that does not resolve is refused (`unresolved: true`), so the caller can decide whether that is fatal.
 */
export async function checkEgress(host: string, port: number, check: EgressCheck): Promise<EgressVerdict & { unresolved?: boolean }> {
  const trimmed = host.trim().replace(/\.$/, '');
  if (trimmed.length === 0) return { allowed: false, reason: 'no host' };
  const literal = literalAddress(trimmed);
  let addresses: ResolvedAddress[];
  if (literal) {
    addresses = [literal];
  } else {
    try {
      addresses = await check.resolve(trimmed);
    } catch (error) {
      return { allowed: false, unresolved: true, reason: `${trimmed} did not resolve: ${(error as Error).message}` };
    }
    if (addresses.length === 0) return { allowed: false, unresolved: true, reason: `${trimmed} has no address` };
  }
  for (const { address } of addresses) {
    if (!isPublicAddress(address) && !check.allowList.allows(address, port)) {
      return { allowed: false, reason: `${trimmed} resolves to ${address}, which is not a public address` };
    }
  }
  const [first] = addresses as [ResolvedAddress, ...ResolvedAddress[]];
  return { allowed: true, address: first.address, family: first.family };
}

/** The port a URL connects to (its explicit port, else the scheme's default). */
export function urlPort(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'http:' ? 80 : 443;
}
