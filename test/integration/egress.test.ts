import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import { keys } from '#core/store/keys.ts';
import { createTestIssuer } from '#core/testing/test-tokens.ts';
import { signIn } from './support/sign-in.ts';
import { api, bearer, stack } from './support/stack.ts';

/**
 * The egress policy on the local stack (docs/decisions.md "Egress"): a transfer configuration's SFTP server and a
 * client app's issuer and key set are refused at save when they name loopback, link-local, private or unspecified
 * addresses in any notation, and a token whose app's key set lies at such an address is refused without the server
 * ever connecting there. The stack's allow-list names only its own stand-ins' ports, none of the ones used here.
 */
const run = randomUUID().slice(0, 8);
const BASE = '/api/v1/demo';
const PUBLIC_KEY = readFileSync(join(import.meta.dirname, '../../scripts/local/seed/demo-transfer-pgp-public.asc'), 'utf8');
const REFUSED = 'Must be a public address reachable from the internet';
let token: string;

/** A listener that records every connection made to it and answers none. */
let recorder: Server;
let recorderPort: number;
const connections: string[] = [];

async function call(method: string, path: string, body?: unknown, as = token) {
  const response = await api(`${BASE}${path}`, {
    method,
    headers: bearer(as, body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as { message?: string; errors?: string[] } };
}

beforeAll(async () => {
  token = (await signIn('admin@demo.test'))!.id_token;
  recorder = createServer((socket) => {
    connections.push(String(socket.remotePort));
    socket.destroy();
  });
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  recorderPort = (recorder.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => recorder.close(() => resolve())));

describe('egress policy at save', () => {
  const sftpConfig = (server: string) => ({
    transfer_type: 'Payload',
    target_type: 'SFTP',
    payload_types: ['Call'],
    schedule: '',
    pgp_key: PUBLIC_KEY,
    transfer_file_format: 'Zipped',
    params: { server, port: 22, root_directory: '/inbox', username: 'verity' },
    secured_data: { sftp_password: `sftp-${run}-Plain` },
  });

  it.each(['169.254.169.254', '0.0.0.0', '::1', '10.0.0.1', '127.0.0.1', '2130706433', '192.168.1.10', '100.64.0.1', 'localhost'])(
    'refuses an SFTP server %s with a 400 naming the field',
    async (server) => {
      const answer = await call('POST', `/transfer_configs/egress-${run}-${randomUUID().slice(0, 6)}`, sftpConfig(server));
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.errors).toContain(`body.params.server: ${REFUSED}`);
    },
  );

  it('accepts a server name that does not resolve yet (every run checks again)', async () => {
    const reference = `egress-${run}-later`;
    const answer = await call('POST', `/transfer_configs/${reference}`, sftpConfig('sftp.egress.invalid'));
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect((await call('DELETE', `/transfer_configs/${reference}`)).status).toBe(200);
  });

  const app = (jwksUri: string) => ({
    oidc_config: { issuer: 'https://idp.egress.invalid', audience: 'verity-api', jwks_uri: jwksUri },
    roles: ['reviewer'],
  });

  it.each([
    () => `https://127.0.0.1:${recorderPort}/jwks`,
    () => `https://2130706433:${recorderPort}/jwks`,
    () => `https://0x7f.1:${recorderPort}/jwks`,
    () => `https://[::1]:${recorderPort}/jwks`,
    () => `https://localhost:${recorderPort}/jwks`,
    () => 'https://169.254.169.254/latest/meta-data',
    () => 'https://[::ffff:10.0.0.1]/jwks',
  ])('refuses a client app whose jwks_uri is %s with a 400 naming the field', async (uri) => {
    const answer = await call('POST', `/account/apps/egress-${run}-${randomUUID().slice(0, 6)}`, app(uri()));
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.errors).toEqual([`body.oidc_config.jwks_uri: ${REFUSED}`]);
  });

  it('refuses a client app whose issuer is a loopback address', async () => {
    const answer = await call('POST', `/account/apps/egress-${run}-issuer`, {
      ...app('https://idp.egress.invalid/jwks'),
      oidc_config: { issuer: 'https://127.1', audience: 'verity-api', jwks_uri: 'https://idp.egress.invalid/jwks' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([`body.oidc_config.issuer: ${REFUSED}`]);
  });

  it('made no connection to the recording listener while refusing', () => {
    expect(connections).toEqual([]);
  });
});

describe('egress policy at connect time', () => {
  it('refuses a token whose app key set lies at a loopback address, without connecting there', async () => {
    // Written straight to the table, as if saved before the policy or rebound since: only the connect-time check stands.
    const deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
    const issuer = await createTestIssuer(`https://egress-${run}.example.com`, `egress-${run}`);
    const reference = `egress-${run}-stored`;
    await deps.table.put({
      ...keys.clientApp.item('demo', reference),
      client: 'demo',
      app_reference: reference,
      oidc_config: { issuer: issuer.issuer, audience: issuer.audience, jwks_uri: `http://127.0.0.1:${recorderPort}/jwks` },
      roles: ['reviewer'],
      cidr_ranges: [],
      updated_at: new Date().toISOString(),
    });
    try {
      const answer = await call('GET', '/roles', undefined, await issuer.sign({ 'custom:client': 'demo' }));
      expect(answer.status).toBe(401);
      expect(connections).toEqual([]);
    } finally {
      await deps.table.delete(keys.clientApp.item('demo', reference));
    }
  });
});
