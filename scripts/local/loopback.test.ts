import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startDynamo } from './dynamodb.ts';
import { listenLoopback } from './http-server.ts';
import { startS3 } from './s3.ts';
import { startSftp } from './sftp.ts';

/**
 * Every stand-in of the local stack listens on loopback only: nothing on the network the machine sits in can reach a
 * developer's DynamoDB, buckets, SFTP server or portal. Two checks per port, from both sides: the kernel's table of
 * listening sockets (which also sees the Java process of DynamoDB Local) names only loopback addresses, and a connection
 * to the machine's other addresses is refused.
 */

/** `0100007F` (little-endian IPv4) or 32 hex digits (IPv6 as four little-endian words) → bytes. */
function addressBytes(hex: string): number[] {
  const words = hex.match(/.{8}/g)!;
  return words.flatMap((word) => word.match(/../g)!.reverse().map((byte) => Number.parseInt(byte, 16)));
}

function isLoopback(bytes: number[]): boolean {
  if (bytes.length === 4) return bytes[0] === 127;
  const v4Mapped = bytes.slice(0, 10).every((byte) => byte === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (v4Mapped) return bytes[12] === 127;
  return bytes.slice(0, 15).every((byte) => byte === 0) && bytes[15] === 1;
}

/** The local addresses of the sockets listening on `port`, from /proc/net/tcp and tcp6, as `loopback` or their hex. */
function listeners(port: number): string[] {
  const found: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (local === undefined || state !== '0A') continue;
      const [address, portHex] = local.split(':');
      if (Number.parseInt(portHex!, 16) !== port) continue;
      found.push(isLoopback(addressBytes(address!)) ? 'loopback' : address!);
    }
  }
  return found;
}

/** The machine's own non-loopback addresses (link-local IPv6 needs a scope, so it is left out). */
const outsideAddresses = Object.values(networkInterfaces())
  .flat()
  .filter((entry) => entry !== undefined && !entry.internal && !entry.address.startsWith('fe80:'))
  .map((entry) => entry!.address);

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

async function expectLoopbackOnly(port: number): Promise<void> {
  const found = listeners(port);
  expect(found.length).toBeGreaterThan(0);
  expect(found.every((address) => address === 'loopback'), `listening on ${found.join(', ')}`).toBe(true);
  expect(await connects('127.0.0.1', port)).toBe(true);
  for (const address of outsideAddresses) expect(await connects(address, port), `reachable on ${address}:${port}`).toBe(false);
}

const portOf = (endpoint: string) => Number(new URL(endpoint).port);
const directory = mkdtempSync(join(tmpdir(), 'verity-loopback-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('local stand-ins listen on loopback only', () => {
  it('reads the kernel table right: a server on every interface is not loopback', async () => {
    const { createServer } = await import('node:net');
    const open = createServer();
    await new Promise<void>((resolve) => open.listen(0, '0.0.0.0', resolve));
    const port = (open.address() as { port: number }).port;
    expect(listeners(port)).not.toContain('loopback');
    await new Promise<void>((resolve) => open.close(() => resolve()));
  });

  it('DynamoDB Local', async () => {
    const dynamo = await startDynamo({});
    try {
      await expectLoopbackOnly(portOf(dynamo.endpoint));
    } finally {
      await dynamo.stop();
    }
  }, 120_000);

  it('s3rver and the Object Lock proxy in front of it', async () => {
    const plain = await startS3({ directory: join(directory, 's3'), buckets: ['plain'] });
    const locked = await startS3({ directory: join(directory, 's3-locked'), buckets: ['locked'], objectLock: { buckets: ['locked'], stateDirectory: join(directory, 'lock-state') } });
    try {
      await expectLoopbackOnly(portOf(plain.endpoint));
      await expectLoopbackOnly(portOf(locked.endpoint));
    } finally {
      await plain.stop();
      await locked.stop();
    }
  }, 60_000);

  it('the SFTP stand-in', async () => {
    const sftp = await startSftp({ directory: join(directory, 'sftp'), port: 0, username: 'verity', password: 'local-only' });
    try {
      expect(sftp.host).toBe('127.0.0.1');
      await expectLoopbackOnly(sftp.port);
    } finally {
      await sftp.stop();
    }
  });

  it('the HTTP server of the portal, the API and the OIDC provider', async () => {
    const { port, servers } = await listenLoopback((_req, res) => res.end(), 0);
    try {
      await expectLoopbackOnly(port);
    } finally {
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    }
  });
});
