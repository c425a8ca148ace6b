import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '#core/config.ts';
import { createLogger } from '#core/logger.ts';
import type { TransferConfigItem } from '#core/store/entities/transfer-config.ts';
import { DeliveryError, openDestination, type Destination } from '../../lambdas/transfers/delivery/index.ts';
import { PART_BYTES } from '../../lambdas/transfers/delivery/s3-destination.ts';
import { openSftpDestination, SFTP_UNREACHABLE_MESSAGE } from '../../lambdas/transfers/delivery/sftp-destination.ts';
import { startSftp } from '../../scripts/local/sftp.ts';
import { TRANSFER_DESTINATION_BUCKET } from '../../scripts/local/stack.ts';
import { stack } from './support/stack.ts';
import { TENANT_STAND_IN_HOST } from './support/tenant-stand-ins.ts';

/**
 * Transfer delivery against the real stand-ins: the SFTP stand-in (ssh2 server) and the local S3 (s3rver). What
 * arrived is read back from disk or the bucket and hashed by `sha256sum`, the tool a receiver would use.
 */

const sha256sum = (input: Buffer | string) =>
  execFileSync('sha256sum', typeof input === 'string' ? [input] : [], typeof input === 'string' ? {} : { input }).toString().split(' ')[0];

/** Deterministic bytes in chunks of 64 KiB, never the whole of them in memory. */
async function* generated(bytes: number, seed = 1): AsyncGenerator<Uint8Array> {
  for (let sent = 0, index = 0; sent < bytes; index += 1) {
    const size = Math.min(64 * 1024, bytes - sent);
    const chunk = Buffer.alloc(size);
    for (let at = 0; at < size; at += 32) createHash('sha256').update(`${seed}:${index}:${at}`).digest().copy(chunk, at);
    sent += size;
    yield chunk;
  }
}

const expectRefused = async (work: Promise<unknown>, retryable: boolean, message?: RegExp) => {
  const error = await work.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error, 'expected a DeliveryError').toBeInstanceOf(DeliveryError);
  expect((error as DeliveryError).retryable, (error as Error).message).toBe(retryable);
  if (message) expect((error as Error).message).toMatch(message);
  return error as DeliveryError;
};

const HOSTILE_PATHS = ['../escape.bin', '/absolute.bin', 'folder/../../escape.bin', 'nul\0byte.bin', '', 'a//b.bin', 'back\\slash.bin', 'x.bin.partial'];

function configItem(client: string, target: Pick<TransferConfigItem, 'target_type' | 'params'>): TransferConfigItem {
  const now = new Date().toISOString();
  return {
    client,
    transfer_config_reference: `delivery-${randomBytes(4).toString('hex')}`,
    transfer_type: 'Payload',
    payload_types: ['Call'],
    schedule: '',
    transfer_file_format: 'Uncompressed',
    is_active: true,
    revision: 'r1',
    created_at: now,
    created_by: 'test',
    updated_at: now,
    updated_by: 'test',
    ...target,
  } as TransferConfigItem;
}

const files = (folder: string): string[] =>
  existsSync(folder) ? readdirSync(folder, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name) : [];

describe('SFTP delivery to the stand-in', () => {
  let config: Config;
  const folder = `/delivery-${randomBytes(4).toString('hex')}`;
  const sftpItem = (params: Record<string, unknown> = {}) =>
    configItem('acme', {
      target_type: 'SFTP',
      params: {
        server: stack().sftp.host,
        port: stack().sftp.port,
        root_directory: folder,
        username: stack().sftp.username,
        host_key_fingerprint: stack().sftp.hostKeyFingerprint,
        ...params,
      },
    });
  let destination: Destination;

  beforeAll(async () => {
    config = loadConfig({ ...stack().env, LOG_LEVEL: 'error' });
    destination = await openDestination({ config, logger: createLogger({ level: 'error' }) }, sftpItem(), { sftpPassword: stack().sftp.password });
  });
  afterAll(() => destination?.close());

  it('writes the file under the root directory, making its folders; bytes and SHA-256 are what sha256sum reads there', async () => {
    const size = 3 * 1024 * 1024 + 17;
    const delivered = await destination.put('2026/11/recordings.zip.pgp', generated(size));
    const onDisk = join(stack().sftp.root, folder, '2026/11/recordings.zip.pgp');
    expect(delivered).toEqual({ path: '2026/11/recordings.zip.pgp', bytes: size, sha256: sha256sum(onDisk) });
    expect(files(join(stack().sftp.root, folder)).filter((name) => name.endsWith('.partial'))).toEqual([]);
    expect(await destination.exists('2026/11/recordings.zip.pgp')).toEqual({ bytes: size });
    expect(await destination.exists('2026/11/other.zip')).toBeUndefined();
  });

  it('takes a web stream and an empty file', async () => {
    const body = Readable.toWeb(Readable.from(generated(100_000, 2))) as ReadableStream<Uint8Array>;
    const delivered = await destination.put('web-stream.bin', body);
    expect(delivered.sha256).toBe(sha256sum(join(stack().sftp.root, folder, 'web-stream.bin')));
    const empty = await destination.put('empty.csv', generated(0));
    expect(empty).toEqual({ path: 'empty.csv', bytes: 0, sha256: sha256sum(Buffer.alloc(0)) });
  });

  it('never replaces a complete file: a second put of the same name is refused and the first stays as it was', async () => {
    const first = await destination.put('manifest.json', generated(5000, 3));
    await expectRefused(destination.put('manifest.json', generated(6000, 4)), false, /already exists/);
    const onDisk = join(stack().sftp.root, folder, 'manifest.json');
    expect(sha256sum(onDisk)).toBe(first.sha256);
    expect(files(join(stack().sftp.root, folder)).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it('refuses hostile paths before writing anything', async () => {
    const before = files(join(stack().sftp.root, folder)).sort();
    for (const path of HOSTILE_PATHS) await expectRefused(destination.put(path, generated(10)), false, /^path: /);
    await expectRefused(destination.exists('../x'), false, /^path: /);
    expect(files(join(stack().sftp.root, folder)).sort()).toEqual(before);
    expect(existsSync(join(stack().sftp.root, 'escape.bin'))).toBe(false);
  });

  it('passes on a failing body as it is and leaves no temporary file', async () => {
    const failure = new Error('the packager failed');
    async function* failing() {
      yield* generated(200_000, 5);
      throw failure;
    }
    await expect(destination.put('failing.bin', failing())).rejects.toBe(failure);
    expect(files(join(stack().sftp.root, folder)).filter((name) => name.startsWith('failing'))).toEqual([]);
  });

  it('refuses a server whose host key is not the configured one, or when none is configured, without repeating the key shown', async () => {
    const deps = { config, logger: createLogger({ level: 'error' }) };
    const password = { sftpPassword: stack().sftp.password };
    const wrong = `SHA256:${'A'.repeat(43)}`;
    for (const fingerprint of [wrong, undefined]) {
      const refused = await expectRefused(openDestination(deps, sftpItem({ host_key_fingerprint: fingerprint }), password), true);
      expect(refused.message).toBe(SFTP_UNREACHABLE_MESSAGE);
      expect(refused.message).not.toContain(stack().sftp.hostKeyFingerprint);
    }
  });

  it('refuses a wrong password (not retryable) once the configured host key was shown', async () => {
    const deps = { config, logger: createLogger({ level: 'error' }) };
    await expectRefused(openDestination(deps, sftpItem(), { sftpPassword: 'not-the-password' }), false, /refused the login/);
  });

  it('answers a closed port, an open port that is not SSH and one that drops the connection alike (no port scanner)', async () => {
    const deps = { config, logger: createLogger({ level: 'error' }) };
    const password = { sftpPassword: stack().sftp.password };
    // On the tests' stand-in address, which the egress policy lets through, so each really is connected to.
    const closed = await closedPort(TENANT_STAND_IN_HOST);
    const speaking = createServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    await new Promise<void>((resolve) => speaking.listen(0, TENANT_STAND_IN_HOST, resolve));
    const dropping = await droppingServer(TENANT_STAND_IN_HOST);
    try {
      const answers = [];
      for (const port of [closed, (speaking.address() as AddressInfo).port, dropping.port]) {
        const refused = await expectRefused(openDestination(deps, sftpItem({ server: TENANT_STAND_IN_HOST, port }), password), true);
        answers.push(refused.message);
      }
      expect(answers).toEqual([SFTP_UNREACHABLE_MESSAGE, SFTP_UNREACHABLE_MESSAGE, SFTP_UNREACHABLE_MESSAGE]);
    } finally {
      // Not awaited: close() waits for every accepted socket, and the test is about the answers, not the teardown.
      speaking.close();
      dropping.server.close();
    }
  });

  it('refuses loopback, metadata, private and unspecified servers before connecting (egress policy)', async () => {
    const deps = { config, logger: createLogger({ level: 'error' }) };
    const password = { sftpPassword: stack().sftp.password };
    // A listener on 127.0.0.1 that records connections: the one loopback port the allow-list does not name.
    const connections: number[] = [];
    const recorder = createServer((socket) => {
      connections.push(1);
      socket.destroy();
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
    const port = (recorder.address() as AddressInfo).port;
    try {
      for (const server of ['127.0.0.1', '2130706433', '0x7f.1', '127.1', 'localhost', '::1', '0.0.0.0', '169.254.169.254', '10.0.0.1']) {
        const refused = await expectRefused(openDestination(deps, sftpItem({ server, port }), password), false);
        expect(refused.message).toBe('params.server: Must be a public address reachable from the internet');
      }
      expect(connections).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => recorder.close(() => resolve()));
    }
  });
});

describe('SFTP delivery over a dropped connection', () => {
  const directory = mkdtempSync(join(tmpdir(), 'verity-delivery-sftp-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('fails retryable when the server goes away mid-file, and the retry on a new connection delivers it whole', async () => {
    const account = { username: 'drop-test', password: randomBytes(12).toString('hex') };
    let server = await startSftp({ directory, port: 0, ...account });
    const target = { host: server.host, port: server.port, ...account, hostKeyFingerprint: server.hostKeyFingerprint, rootDirectory: '/in' };
    const destination = await openSftpDestination(target);
    try {
      const stopping: { done?: Promise<void> } = {};
      async function* droppedHalfWay() {
        let sent = 0;
        for await (const chunk of generated(8 * 1024 * 1024, 6)) {
          sent += chunk.length;
          if (sent > 1024 * 1024 && !stopping.done) stopping.done = server.stop();
          yield chunk;
        }
      }
      await expectRefused(destination.put('call.m4a', droppedHalfWay()), true);
      await stopping.done;
      server = await startSftp({ directory, port: target.port, ...account });
      const delivered = await destination.put('call.m4a', generated(8 * 1024 * 1024, 6));
      expect(delivered.sha256).toBe(sha256sum(join(server.root, 'in/call.m4a')));
      expect(readdirSync(join(server.root, 'in'))).toEqual(['call.m4a']);
    } finally {
      await destination.close();
      await server.stop();
    }
  });
});

describe('S3 delivery to the local S3', () => {
  let config: Config;
  let s3: S3Client;
  const prefix = `delivery-${randomBytes(4).toString('hex')}`;
  let destination: Destination;
  const s3Item = () =>
    configItem('acme', {
      target_type: 'S3',
      params: { destination: `s3://${TRANSFER_DESTINATION_BUCKET}/${prefix}/`, iam_role_arn: 'arn:aws:iam::123456789012:role/verity-delivery' },
    });
  const arrivedSha256 = async (key: string) => {
    const object = await s3.send(new GetObjectCommand({ Bucket: TRANSFER_DESTINATION_BUCKET, Key: key }));
    const directoryOf = mkdtempSync(join(tmpdir(), 'verity-delivery-s3-'));
    try {
      const file = join(directoryOf, 'object');
      writeFileSync(file, Buffer.from(await object.Body!.transformToByteArray()));
      return sha256sum(file);
    } finally {
      rmSync(directoryOf, { recursive: true, force: true });
    }
  };
  const keys = async () =>
    ((await s3.send(new ListObjectsV2Command({ Bucket: TRANSFER_DESTINATION_BUCKET, Prefix: `${prefix}/` }))).Contents ?? []).map((item) => item.Key).sort();

  beforeAll(async () => {
    config = loadConfig({ ...stack().env, LOG_LEVEL: 'error' });
    s3 = new S3Client({
      endpoint: stack().s3Endpoint,
      region: config.AWS_REGION,
      forcePathStyle: true,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    destination = await openDestination({ config, logger: createLogger({ level: 'error' }) }, s3Item(), {});
  });
  afterAll(async () => {
    await destination?.close();
    s3?.destroy();
  });

  it('uploads a file larger than a part in parts, and a small one whole; bytes and SHA-256 are what sha256sum reads back', async () => {
    const size = 2 * PART_BYTES + 12_345;
    const large = await destination.put('2026/recordings.zip.pgp', generated(size, 7));
    expect(large).toEqual({ path: '2026/recordings.zip.pgp', bytes: size, sha256: await arrivedSha256(`${prefix}/2026/recordings.zip.pgp`) });
    const small = await destination.put('manifest.csv', generated(900, 8));
    expect(small).toEqual({ path: 'manifest.csv', bytes: 900, sha256: await arrivedSha256(`${prefix}/manifest.csv`) });
    expect(await destination.exists('manifest.csv')).toEqual({ bytes: 900 });
    expect(await destination.exists('missing.csv')).toBeUndefined();
    expect(await keys()).toEqual([`${prefix}/2026/recordings.zip.pgp`, `${prefix}/manifest.csv`]);
  });

  it('never replaces an object that is there', async () => {
    await s3.send(new PutObjectCommand({ Bucket: TRANSFER_DESTINATION_BUCKET, Key: `${prefix}/theirs.bin`, Body: 'the receiver’s file' }));
    await expectRefused(destination.put('theirs.bin', generated(PART_BYTES + 1, 9)), false, /already exists/);
    const object = await s3.send(new GetObjectCommand({ Bucket: TRANSFER_DESTINATION_BUCKET, Key: `${prefix}/theirs.bin` }));
    expect(await object.Body!.transformToString()).toBe('the receiver’s file');
  });

  it('refuses hostile paths and passes on a failing body, leaving no object', async () => {
    const before = await keys();
    for (const path of HOSTILE_PATHS) await expectRefused(destination.put(path, generated(10)), false, /^path: /);
    const failure = new Error('the packager failed');
    async function* failing() {
      yield* generated(PART_BYTES + 100, 10);
      throw failure;
    }
    await expect(destination.put('failing.bin', failing())).rejects.toBe(failure);
    expect(await keys()).toEqual(before);
  });

  it('in AWS mode signs every request with the customer role it assumed (STS mocked, the bucket real)', async () => {
    const sts = mockClient(STSClient);
    sts.on(AssumeRoleCommand).resolves({
      Credentials: { AccessKeyId: 'ASIACUSTOMERROLE', SecretAccessKey: 'secret', SessionToken: 'customer-session', Expiration: new Date(Date.now() + 3600_000) },
    });
    const seen: Array<{ credential?: string; token?: string }> = [];
    const { url, close } = await recordingProxy(stack().s3Endpoint, (headers) =>
      seen.push({ credential: /Credential=([^/]+)\//.exec(String(headers.authorization))?.[1], token: headers['x-amz-security-token'] as string }),
    );
    try {
      const aws = loadConfig({ ...stack().env, VERITY_MODE: 'aws', S3_ENDPOINT: url, LOG_LEVEL: 'error' });
      const item = s3Item();
      const opened = await openDestination({ config: aws, logger: createLogger({ level: 'error' }), sts: new STSClient({ region: 'eu-west-2' }) }, item, {});
      const delivered = await opened.put('as-customer.bin', generated(PART_BYTES + 5, 12));
      await opened.close();
      expect(delivered.sha256).toBe(await arrivedSha256(`${prefix}/as-customer.bin`));
      expect(sts.commandCalls(AssumeRoleCommand).map((call) => call.args[0].input)).toEqual([
        { RoleArn: (item.params as { iam_role_arn: string }).iam_role_arn, ExternalId: 'verity-acme', RoleSessionName: 'verity-transfer-acme', DurationSeconds: 3600 },
      ]);
      expect(seen.length).toBeGreaterThanOrEqual(4);
      expect(seen.every((request) => request.credential === 'ASIACUSTOMERROLE' && request.token === 'customer-session')).toBe(true);
    } finally {
      sts.restore();
      await close();
    }
  });

  it('fails retryable when the connection drops', async () => {
    const { server, port } = await droppingServer();
    try {
      const deps = { config: { ...config, S3_ENDPOINT: `http://127.0.0.1:${port}` }, logger: createLogger({ level: 'error' }) };
      const dropped = await openDestination(deps, s3Item(), {});
      await expectRefused(dropped.put('dropped.bin', generated(1000, 11)), true);
      await dropped.close();
    } finally {
      server.close();
    }
  });
});

/** A TCP server that accepts and at once drops every connection. */
async function droppingServer(host = '127.0.0.1'): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : 0 };
}

/** An HTTP proxy to `target` that shows each request's headers to `see` (which credentials signed it). */
async function recordingProxy(target: string, see: (headers: Record<string, unknown>) => void): Promise<{ url: string; close: () => Promise<void> }> {
  const upstream = new URL(target);
  const server = createHttpServer((req, res) => {
    see(req.headers);
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function closedPort(host = '127.0.0.1'): Promise<number> {
  const { server, port } = await droppingServer(host);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
