import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ipAllowedBy, ipInCidr, parseCidr, parseIpv4 } from './cidr.ts';

describe('cidr', () => {
  it('parses addresses, mapped addresses and partial ranges', () => {
    expect(parseIpv4('10.1.2.3')).toBe(0x0a010203);
    expect(parseIpv4('::ffff:10.1.2.3')).toBe(0x0a010203);
    expect(parseIpv4('::1')).toBeUndefined();
    expect(parseIpv4('10.1.2.256')).toBeUndefined();
    expect(parseCidr('10/8')).toEqual({ network: 0x0a000000, prefix: 8 });
    expect(parseCidr('10.1.2.3/24')).toEqual({ network: 0x0a010200, prefix: 24 });
    expect(parseCidr('10.0.0.0/33')).toBeUndefined();
    expect(parseCidr('nonsense')).toBeUndefined();
  });

  it('checks membership at the edges', () => {
    expect(ipInCidr('192.168.1.0', '192.168.1.0/24')).toBe(true);
    expect(ipInCidr('192.168.1.255', '192.168.1.0/24')).toBe(true);
    expect(ipInCidr('192.168.2.0', '192.168.1.0/24')).toBe(false);
    expect(ipInCidr('127.0.0.1', '10.0.0.0/8')).toBe(false);
    expect(ipInCidr('1.2.3.4', '0.0.0.0/0')).toBe(true);
    expect(ipInCidr('1.2.3.4', '1.2.3.4/32')).toBe(true);
    expect(ipInCidr('1.2.3.5', '1.2.3.4/32')).toBe(false);
    expect(ipInCidr('2001:db8::1', '0.0.0.0/0')).toBe(false);
  });

  it('treats an empty list as no restriction and an unknown ip as outside', () => {
    expect(ipAllowedBy(undefined, [])).toBe(true);
    expect(ipAllowedBy(undefined, ['10.0.0.0/8'])).toBe(false);
    expect(ipAllowedBy('10.9.9.9', ['192.168.0.0/16', '10.0.0.0/8'])).toBe(true);
  });

  it('agrees with a bit-mask reference for any address and prefix', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    const address = fc.tuple(octet, octet, octet, octet);
    fc.assert(
      fc.property(address, address, fc.integer({ min: 0, max: 32 }), (ip, net, prefix) => {
        const value = (parts: number[]) => parts.reduce((sum, part) => sum * 256 + part, 0);
        const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
        const expected = ((value(ip) & mask) >>> 0) === ((value(net) & mask) >>> 0);
        return ipInCidr(ip.join('.'), `${net.join('.')}/${prefix}`) === expected;
      }),
    );
  });
});
