import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { findEndpoint } from '#shared/contract/registry.ts';
import { loadConfig, resetConfig } from './config.ts';
import { buildDependencies, getDependencies, sdkLogger } from './composition.ts';
import { createLogger } from './logger.ts';
import { createApiHandler } from './http/create-api-handler.ts';
import { eventFor, testContext } from './testing/http-events.ts';
import { apiRecorders } from '../api-recorders.ts';

let dataDir: string;
const env = () => ({
  VERITY_MODE: 'local',
  TABLE_NAME: 'verity',
  AWS_REGION: 'eu-west-2',
  DYNAMODB_ENDPOINT: 'http://127.0.0.1:1',
  S3_ENDPOINT: 'http://127.0.0.1:1',
  RAW_BUCKET: 'verity-raw',
  PROCESSED_BUCKET: 'verity-processed',
  OIDC_ISSUER: 'http://127.0.0.1:1/oidc',
  OIDC_AUDIENCES: 'portal',
  CURSOR_SECRET: 'c'.repeat(32),
  DATA_DIR: dataDir,
});

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'verity-composition-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));
afterEach(() => {
  vi.unstubAllEnvs();
  resetConfig();
});

describe('composition root', () => {
  it('uses the local key service in local mode: keys round-trip under DATA_DIR', async () => {
    const dependencies = buildDependencies(loadConfig(env()));
    const { keyId } = await dependencies.keys.createTenantKey('acme');
    expect(keyId).toMatch(/^local\/acme\//);
    const { plaintext, wrapped } = await dependencies.keys.generateDataKey(keyId, { client: 'acme' });
    expect(await dependencies.keys.unwrapKey(keyId, wrapped, { client: 'acme' })).toEqual(plaintext);
  });

  it('builds the S3, KMS, Scheduler, Lambda, scanner and OIDC adapters on first use, once, unless overridden', () => {
    const dependencies = buildDependencies(loadConfig({ ...env(), VERITY_MODE: 'aws' }));
    for (const name of ['blobs', 'keys', 'identity', 'scheduler', 'jobs', 'scanner'] as const) {
      expect(Object.getOwnPropertyDescriptor(dependencies, name)?.get, name).toBeTypeOf('function');
      expect(dependencies[name], name).toBe(dependencies[name]);
    }
    const blobs = buildDependencies(loadConfig(env())).blobs;
    const overridden = buildDependencies(loadConfig(env()), { blobs });
    expect(Object.getOwnPropertyDescriptor(overridden, 'blobs')?.value).toBe(blobs);
  });

  it('rebuilds the dependencies after the configuration is reset', () => {
    for (const [name, value] of Object.entries(env())) vi.stubEnv(name, value);
    const first = getDependencies();
    expect(getDependencies()).toBe(first);
    vi.stubEnv('TABLE_NAME', 'verity-2');
    resetConfig();
    const second = getDependencies();
    expect(second).not.toBe(first);
    expect(second.config.TABLE_NAME).toBe('verity-2');
  });

  it('answers a generic 500 and logs why when the configuration is invalid', async () => {
    for (const [name, value] of Object.entries(env())) vi.stubEnv(name, value);
    vi.stubEnv('CURSOR_SECRET', 'short-secret');
    const lines: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((line) => {
      lines.push(String(line));
      return true;
    });
    try {
      const endpoint = findEndpoint('admin.profile.get');
      if (!endpoint) throw new Error('registry lacks admin.profile.get');
      const handler = createApiHandler({ recorders: apiRecorders, group: endpoint.group, endpoints: [endpoint], routes: {} });
      const result = await handler(eventFor(endpoint, { pathParameters: { client: 'acme' } }), testContext);
      expect(result.statusCode).toBe(500);
      expect(result.body).toBe(JSON.stringify({ error_code: 500, message: 'Internal Server Error' }));
      expect(lines.join('')).toContain('CURSOR_SECRET: must be at least 32 characters');
      expect(lines.join('')).not.toContain('short-secret');
    } finally {
      write.mockRestore();
    }
  });
});

describe('sdkLogger', () => {
  it("keeps the SDK's warnings off the console, at debug level in our JSON logs, errors as errors, and never throws", () => {
    const lines: string[] = [];
    const console = vi.spyOn(globalThis.console, 'warn').mockImplementation(() => undefined);
    const sdk = sdkLogger(createLogger({ level: 'debug', sink: (line) => lines.push(line) }));
    sdk.warn('An error was encountered in a non-retryable streaming request.');
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    sdk.error('request failed', circular);
    sdk.debug('request', circular);
    sdk.error(new Error('Authentication tag does not verify'));
    expect(console).not.toHaveBeenCalled();
    const logged = lines.map((line) => JSON.parse(line) as { level: string; message: string });
    expect(logged).toEqual([
      expect.objectContaining({ level: 'debug', message: 'aws-sdk: An error was encountered in a non-retryable streaming request.' }),
      expect.objectContaining({ level: 'error', message: 'aws-sdk: request failed' }),
      expect.objectContaining({ level: 'error', message: 'aws-sdk: Authentication tag does not verify' }),
    ]);
    console.mockRestore();
  });

  it("keeps a failed command (thrown to our code, which decides) at debug level, named, never as an empty error line", () => {
    const lines: string[] = [];
    const sdk = sdkLogger(createLogger({ level: 'debug', sink: (line) => lines.push(line) }));
    const denied = Object.assign(new Error('Access Denied'), { name: 'AccessDenied' });
    const input: Record<string, unknown> = { Bucket: 'b' };
    input.self = input;
    sdk.error({ clientName: 'S3Client', commandName: 'PutObjectCommand', input, error: denied, metadata: {} });
    const logged = lines.map((line) => JSON.parse(line) as { level: string; message: string });
    expect(logged).toEqual([expect.objectContaining({ level: 'debug', message: 'aws-sdk: S3Client PutObjectCommand AccessDenied: Access Denied' })]);
  });
});
