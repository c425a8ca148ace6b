/**
 * IPv4 CIDR arithmetic, pure. Ranges are the contract's form: 1 to 4 dotted numbers, `/`, a prefix of 0 to 32
 * (`10/8` reads as `10.0.0.0/8`). A caller address may be IPv4 or IPv4-mapped IPv6 (`::ffff:10.1.2.3`); any other
 * IPv6 address is inside no IPv4 range, and an unparsable range contains nothing (fail closed).
 */

const OCTET = /^\d{1,3}$/;

/** The 32-bit value of a dotted IPv4 address (missing trailing octets read as 0 when `partial`), or undefined. */
function ipv4Value(text: string, partial: boolean): number | undefined {
  const parts = text.split('.');
  if (parts.length === 0 || parts.length > 4 || (!partial && parts.length !== 4)) return undefined;
  let value = 0;
  for (let index = 0; index < 4; index += 1) {
    const part = parts[index] ?? '0';
    if (!OCTET.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = value * 256 + octet;
  }
  return value;
}

/** The caller's address as a 32-bit IPv4 value, or undefined when it is not IPv4 (nor IPv4-mapped). */
export function parseIpv4(ip: string): number | undefined {
  const trimmed = ip.trim();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(trimmed);
  return ipv4Value(mapped ? (mapped[1] as string) : trimmed, false);
}

export interface Cidr {
  network: number;
  prefix: number;
}

/** A range's network and prefix, or undefined when it is not a valid IPv4 CIDR. */
export function parseCidr(range: string): Cidr | undefined {
  const match = /^([0-9.]+)\/(\d{1,2})$/.exec(range.trim());
  if (match === null) return undefined;
  const prefix = Number(match[2]);
  const address = ipv4Value(match[1] as string, true);
  if (address === undefined || prefix > 32) return undefined;
  return { network: address - (address % 2 ** (32 - prefix)), prefix };
}

/** Is the address inside the range? */
export function ipInCidr(ip: string, range: string): boolean {
  const address = parseIpv4(ip);
  const cidr = parseCidr(range);
  if (address === undefined || cidr === undefined) return false;
  const size = 2 ** (32 - cidr.prefix);
  return address >= cidr.network && address < cidr.network + size;
}

/** Is the address inside any of the ranges? An empty list means "no restriction" and is true for any caller. */
export function ipAllowedBy(ip: string | undefined, ranges: readonly string[] | undefined): boolean {
  if (ranges === undefined || ranges.length === 0) return true;
  if (ip === undefined) return false;
  return ranges.some((range) => ipInCidr(ip, range));
}
