import { describe, expect, it } from 'vitest';
import { checkEgress, egressAllowList, isPublicAddress, literalAddress, NOTHING_ALLOWED, type HostResolver } from './egress-policy.ts';

const resolverOf =
  (answers: Record<string, string[]>): HostResolver =>
  async (hostname) => {
    const found = answers[hostname];
    if (found === undefined) throw new Error('ENOTFOUND');
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

const names = resolverOf({
  localhost: ['127.0.0.1', '::1'],
  'public.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'mixed.example.com': ['93.184.215.14', '10.0.0.7'],
  'metadata.example.com': ['169.254.169.254'],
});
const check = { resolve: names, allowList: NOTHING_ALLOWED };

describe('literalAddress', () => {
  it.each([
    ['2130706433', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['127.0.1', '127.0.0.1'],
    ['[::1]', '::1'],
    ['::1', '::1'],
    ['[::ffff:127.0.0.1]', '::ffff:127.0.0.1'],
    ['0', '0.0.0.0'],
  ])('reads %s as %s', (host, address) => {
    expect(literalAddress(host)?.address).toBe(address);
  });

  it.each(['example.com', 'localhost', 'sftp.customer.example'])('reads %s as a name', (host) => {
    expect(literalAddress(host)).toBeUndefined();
  });
});

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '0.0.0.0',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '::ffff:8.8.8.8'])(
    'allows %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe('checkEgress', () => {
  it.each(['127.0.0.1', '2130706433', '0x7f.1', '0177.0.0.1', '127.1', '[::1]', '::1', 'localhost', '169.254.169.254', '0.0.0.0', '10.0.0.1', '[::ffff:127.0.0.1]', '[fd00::1]', 'metadata.example.com', 'mixed.example.com', 'localhost.'])(
    'refuses %s',
    async (host) => {
      const verdict = await checkEgress(host, 443, check);
      expect(verdict.allowed).toBe(false);
    },
  );

  it('allows a public name and names the checked address to connect to', async () => {
    expect(await checkEgress('public.example.com', 22, check)).toEqual({ allowed: true, address: '93.184.215.14', family: 4 });
    expect(await checkEgress('8.8.8.8', 22, check)).toEqual({ allowed: true, address: '8.8.8.8', family: 4 });
  });

  it('refuses a name that does not resolve, saying so', async () => {
    expect(await checkEgress('nowhere.example.com', 22, check)).toMatchObject({ allowed: false, unresolved: true });
  });

  it('lets the local allow-list except exactly one address and port', async () => {
    const local = { resolve: names, allowList: egressAllowList(['127.0.0.1:2222', '[::1]:8443']) };
    expect((await checkEgress('127.0.0.1', 2222, local)).allowed).toBe(true);
    expect((await checkEgress('2130706433', 2222, local)).allowed).toBe(true);
    expect((await checkEgress('[::1]', 8443, local)).allowed).toBe(true);
    expect((await checkEgress('127.0.0.1', 2223, local)).allowed).toBe(false);
    expect((await checkEgress('127.0.0.2', 2222, local)).allowed).toBe(false);
    // localhost also answers ::1, which is not excepted on this port.
    expect((await checkEgress('localhost', 2222, local)).allowed).toBe(false);
    expect((await checkEgress('10.0.0.1', 2222, local)).allowed).toBe(false);
  });

  it('lets an address:* entry except one address on any port, and no other', async () => {
    const local = { resolve: names, allowList: egressAllowList(['127.0.0.9:*']) };
    expect((await checkEgress('127.0.0.9', 40123, local)).allowed).toBe(true);
    expect((await checkEgress('127.0.0.1', 40123, local)).allowed).toBe(false);
    expect((await checkEgress('[::1]', 40123, local)).allowed).toBe(false);
  });
});
